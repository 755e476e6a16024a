import BoardConfig
import HAL
import Input
import Notifications
import Screens

/// A notification's menu, from the list's negative long press on the
/// selected notification (docs/buttons.md): what its phone offers besides
/// the two actions (Gadgetbridge: reply with a canned text, mute the app on
/// the phone), then the watch's own mutes of its app (WatchModel+AppMutes).
/// With nothing offered (a call) the gesture goes back to the clock.
extension WatchModel {
    var hasReplies: Bool { !userSettings.replies.isEmpty }

    func menuCount(_ uid: NotificationID, now: MonotonicInstant) -> Int {
        NotificationMenu.count(for: uid, in: notifications, hasReplies: hasReplies, timeKnown: wallClock.time(at: now) != nil)
    }

    /// Opens the menu for `uid`; false when nothing is offered.
    func openNotificationMenu(_ uid: NotificationID, now: MonotonicInstant) -> Bool {
        guard menuCount(uid, now: now) > 0 else { return false }
        screen = .notificationMenu(uid, selected: 0)
        return true
    }

    func notificationMenuButton(_ role: ButtonRole, _ gesture: ButtonGesture, uid: NotificationID, selected: Int,
                                now: MonotonicInstant) {
        let count = menuCount(uid, now: now)
        guard count > 0 else {
            screen = .list(selected: listSelection)
            return
        }
        guard let step = MenuGesture(role, gesture) else { return }
        switch step {
        case .choose:
            let timeKnown = wallClock.time(at: now) != nil
            switch NotificationMenu.entry(selected, for: uid, in: notifications, hasReplies: hasReplies, timeKnown: timeKnown) {
            case .reply: screen = .replyPicker(uid, selected: 0)
            case .muteOnPhone:
                effects.requestNotification(.muteApp, on: uid, reply: 0)
                screen = .list(selected: listSelection)
            case .muteHour: muteApp(of: uid, for: .hour, now: now)
            case .muteUntilTomorrow: muteApp(of: uid, for: .untilTomorrow, now: now)
            case .muteAlways: muteApp(of: uid, for: .always, now: now)
            case nil: break
            }
        case .next, .previous:
            screen = .notificationMenu(uid, selected: step.moved(selected, count: count))
        case .cancel:
            screen = .list(selected: listSelection)
        }
    }

    func replyPickerButton(_ role: ButtonRole, _ gesture: ButtonGesture, uid: NotificationID, selected: Int) {
        guard let step = MenuGesture(role, gesture) else { return }
        switch step {
        case .choose:
            guard selected < userSettings.replies.count else { return }
            effects.requestNotification(.reply, on: uid, reply: selected)
            screen = .list(selected: listSelection)
        case .next, .previous:
            screen = .replyPicker(uid, selected: step.moved(selected, count: userSettings.replies.count))
        case .cancel:
            screen = .notificationMenu(uid, selected: 0)
        }
    }
}
