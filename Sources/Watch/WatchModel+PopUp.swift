import Notifications
import WearerSettings
import HAL

/// A new alert pops up once, complete: its detail screen opens when the
/// attributes it shows have arrived (title, message, the app's name) or
/// `WatchSettings.popUpWait` after it was announced, with what is there by
/// then. Drawing it at once would draw it twice on the bus, before and after
/// its fetch. The motor does not wait; a zero wait opens it at once.
extension WatchModel {
    /// An alert that pops up: fetch what its screen shows, then open it.
    /// `wait`: how long at most (the settings' `popUpWait` unless an app
    /// rule needs longer, WatchModel+AppRules).
    func popUpRequested(_ uid: NotificationID, now: MonotonicInstant, wait: Duration? = nil) {
        // A ringing alarm keeps the screen (the notification is listed).
        guard ringing == nil else { return }
        let wait = wait ?? settings.popUpWait
        guard wait > .zero else {
            listSelection = 0
            return openDetail(uid)
        }
        // The fetch goes ahead of others, its Message included.
        effects.requestShown(uid)
        pendingPopUp = uid
        popUpDeadline = now.advanced(by: wait)
        popUpAttributesArrived(uid, now: now)
    }

    /// Attributes of `uid` were stored: the pop-up opens if it has all it shows.
    func popUpAttributesArrived(_ uid: NotificationID, now: MonotonicInstant) {
        guard pendingPopUp == uid, let n = notifications.notification(uid), !n.isFetchPending else { return }
        if !n.isAwaitingAppName { openPopUp(now: now) }
    }

    /// The wait is over: the pop-up shows what has arrived.
    func popUpDeadlinePassed(now: MonotonicInstant) {
        openPopUp(now: now)
    }

    /// The notification went, the session ended, a call took the screen: no pop-up.
    func cancelPopUp() {
        pendingAlert = nil
        pendingPopUp = nil
        popUpDeadline = nil
    }

    private func openPopUp(now: MonotonicInstant) {
        guard let uid = pendingPopUp else { return }
        // An alert waiting for its app is decided now (WatchModel+AppRules).
        var popsUp = true
        if let alert = pendingAlert, alert.uid == uid { popsUp = decideAlert(alert, now: now) }
        cancelPopUp()
        // A call, a passkey or a ringing alarm that came meanwhile keeps the screen.
        guard popsUp, activeCall == nil && !isAwaitingPairingAnswer && ringing == nil, notifications.notification(uid) != nil else { return }
        listSelection = 0
        screen = .detail(uid, scroll: 0)
        requestRender()
    }
}
