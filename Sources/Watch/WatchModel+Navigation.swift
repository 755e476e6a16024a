import Notifications
import BoardConfig
import HAL
import Input
import Screens

/// What the buttons do on each screen (the table is docs/buttons.md), the
/// list's selection, the detail screen's scrolling and the unread count.
extension WatchModel {
    /// A recognised gesture on a button.
    public func button(_ role: ButtonRole, _ gesture: ButtonGesture, now: MonotonicInstant) {
        clearActionNotice()
        let wasDark = wake(now: now) == .off
        // A press that only woke a dark display does nothing else (no blind
        // actions), except where something is waiting for an answer.
        if wasDark && activeCall == nil && !isAwaitingPairingAnswer && ringing == nil { return requestRender() }
        switch screen {
        case .pairing:
            if role == .positive && gesture == .press { answerPairing(.confirmed, now: now) }
            if role == .negative && gesture == .press { answerPairing(.rejected, now: now) }
        case .incomingCall(let uid):
            if gesture == .press && role == .positive { act(.positive, on: uid, now: now) }
            if gesture == .press && role == .negative { act(.negative, on: uid, now: now) }
        case .idleClock where opensNowPlaying(role, gesture), .waitingForPhone where opensNowPlaying(role, gesture):
            openNowPlaying()
        case .nowPlaying:
            nowPlayingButton(role, gesture, now: now)
        case .watchMenu(let selected):
            watchMenuButton(role, gesture, selected: selected, now: now)
        case .weather, .agenda:
            feedScreenButton(role, gesture, now: now)
        case .findingPhone:
            findingPhoneButton()
        case .status(let scroll):
            statusButton(role, gesture, scroll: scroll, now: now)
        case .mutedApps(let selected):
            mutedAppsButton(role, gesture, selected: selected, now: now)
        case .alarms(let selected):
            alarmsButton(role, gesture, selected: selected, now: now)
        case .alarmEditor(let draft):
            alarmEditorButton(role, gesture, draft: draft, now: now)
        case .ringing:
            ringingButton(role, gesture, now: now)
        case .timer:
            timerButton(role, gesture, now: now)
        case .stopwatch:
            stopwatchButton(role, gesture, now: now)
        case .notificationMenu(let uid, let selected):
            notificationMenuButton(role, gesture, uid: uid, selected: selected, now: now)
        case .replyPicker(let uid, let selected):
            replyPickerButton(role, gesture, uid: uid, selected: selected)
        case .idleClock, .waitingForPhone, .message:
            if role == .positive && gesture == .longPress, screen == .idleClock || screen == .waitingForPhone {
                openDoNotDisturbMenu()
            } else if role == .negative && gesture == .longPress, screen == .idleClock || screen == .waitingForPhone {
                openWatchMenu()
            } else if role == .positive || role == .select || role == .down || role == .up {
                if notifications.notificationCount > 0 {
                    unreadNotifications.removeAll()
                    screen = .list(selected: listSelection)
                } else if case .message = screen {
                    screen = clockScreen
                }
            } else if case .message = screen, role == .negative || role == .back {
                screen = clockScreen
            }
        case .list(let selected):
            switch (role, gesture) {
            case (.positive, .press), (.select, .press):
                if let uid = uidInList(at: selected) { openDetail(uid) }
            case (.negative, .longPress):
                if let uid = uidInList(at: selected), openNotificationMenu(uid, now: now) { break }
                screen = .idleClock
            case (.negative, .press), (.back, _):
                screen = .idleClock
            case (.positive, .longPress), (.down, _):
                moveSelection(by: 1)
            case (.positive, .doublePress), (.up, _):
                moveSelection(by: -1)
            default:
                break
            }
        case .doNotDisturbMenu(let selected):
            doNotDisturbMenuButton(role, gesture, selected: selected, now: now)
        case .detail(let uid, let scroll):
            switch (role, gesture) {
            case (.positive, .press):
                if notifications.notification(uid)?.flags.contains(.positiveAction) == true {
                    actOnNotification(.positive, on: uid, now: now)
                }
            case (.negative, .press):
                if notifications.notification(uid)?.flags.contains(.negativeAction) == true {
                    actOnNotification(.negative, on: uid, now: now)
                }
            case (.positive, .longPress), (.down, _), (.select, _):
                let last = detailLayout.detailMaxScroll(uid, notifications: notifications)
                screen = .detail(uid, scroll: scroll < last ? scroll + 1 : 0)
            case (.positive, .doublePress), (.up, _):
                screen = .detail(uid, scroll: max(0, scroll - 1))
            case (.negative, .longPress), (.back, _):
                screen = .list(selected: listSelection)
            default:
                break
            }
        }
        // Looking at the list reads it.
        if case .list = screen { unreadNotifications.removeAll() }
        requestRender()
    }

    func openDetail(_ uid: NotificationID) {
        screen = .detail(uid, scroll: 0)
        effects.requestShown(uid)
    }

    private func moveSelection(by delta: Int) {
        let count = notifications.notificationCount
        guard count > 0 else { return }
        listSelection = (listSelection + delta + count) % count
        screen = .list(selected: listSelection)
    }

    /// After a removal: the selection stays inside the list; an emptied list
    /// goes back to the clock.
    func clampSelection() {
        let count = notifications.notificationCount
        if listSelection >= count { listSelection = max(0, count - 1) }
        if case .list = screen {
            screen = count > 0 ? .list(selected: listSelection) : clockScreen
        }
    }

    /// The UID at `index` in newest-first order.
    public func uidInList(at index: Int) -> NotificationID? {
        var i = 0
        var found: NotificationID?
        notifications.forEachNotification(newestFirst: true) { n in
            if i == index { found = n.uid }
            i += 1
        }
        return found
    }
}
