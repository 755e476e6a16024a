import BoardConfig
import HAL
import Input
import Notifications
import Screens

/// A notification's menu: what its phone offers besides the two actions
/// (Gadgetbridge: reply with a canned text, mute the app), from the list's
/// negative long press on the selected notification (docs/buttons.md).
/// Without anything offered (an iPhone) the gesture goes back to the clock,
/// as before.
extension WatchModel {
    var hasReplies: Bool { !userSettings.replies.isEmpty }

    /// Opens the menu for `uid`; false when its phone offers nothing.
    func openNotificationMenu(_ uid: NotificationID) -> Bool {
        guard NotificationMenu.entries(for: uid, in: notifications, hasReplies: hasReplies).count > 0 else { return false }
        screen = .notificationMenu(uid, selected: 0)
        return true
    }

    func notificationMenuButton(_ role: ButtonRole, _ gesture: ButtonGesture, uid: NotificationID, selected: Int) {
        let count = NotificationMenu.entries(for: uid, in: notifications, hasReplies: hasReplies).count
        guard count > 0 else {
            screen = .list(selected: listSelection)
            return
        }
        guard let step = MenuGesture(role, gesture) else { return }
        switch step {
        case .choose:
            switch NotificationMenu.entry(selected, for: uid, in: notifications, hasReplies: hasReplies) {
            case .reply: screen = .replyPicker(uid, selected: 0)
            case .muteApp:
                effects.requestNotification(.muteApp, on: uid, reply: 0)
                screen = .list(selected: listSelection)
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
