import Notifications
import HAL
import Screens

/// Actions on a notification's detail screen (Clear, Mark as Read, ...):
/// when the phone refuses one (ANCS 0xA3 Action Failed, another error, no
/// answer) or the write cannot be sent, the detail screen says so over its
/// header ("Could not clear", `ActionNotice`) and the notification stays,
/// its buttons still acting. The notice goes with the next button press or
/// when the detail screen closes; a refusal that comes back after the
/// wearer left that detail screen shows nothing (the log has it).
/// Calls have their own notice (WatchModel+Calls).
extension WatchModel {
    /// Sends `action` for the notification on the detail screen.
    func actOnNotification(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant) {
        guard isPhoneConnected else { return notificationActionRefused(action, on: uid, nil) }
        effects.requestAction(action, on: uid)
    }

    /// The phone refused `action` (`error`), or it could not be sent (nil).
    /// Only a detail screen showing that notification takes the notice.
    func notificationActionRefused(_ action: NotificationAction, on uid: NotificationID, _ error: ActionFailure?) {
        guard activeCall != uid, error != .cancelled else { return }
        guard case .detail(let shown, _) = screen, shown == uid, notifications.notification(uid) != nil else { return }
        actionNotice = ActionNotice(uid: uid, action: action)
        requestRender()
    }

    /// A button was pressed, or the notification went: the notice has been seen.
    func clearActionNotice() {
        guard actionNotice != nil else { return }
        actionNotice = nil
        requestRender()
    }
}
