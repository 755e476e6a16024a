import ANCS
import HAL

/// Incoming calls: an IncomingCall notification that alerts rings (the
/// policy's pattern, normally `.ring`) and takes the screen until it is
/// answered, declined, removed by the phone or the session ends. The ring's
/// 60 s cap is the motor's (`HapticsConfiguration.ringMaxDuration`).
extension WatchModel {
    func startRinging(_ uid: NotificationUID, now: MonotonicInstant) {
        ringingCall = uid
        screen = .incomingCall(uid)
        keepAwakeChanged(now: now)
        let info = notifications.notification(uid)?.info
            ?? NotificationInfo(uid: uid, flags: [], category: .incomingCall, categoryCount: 1)
        if let pattern = policy.pattern(for: info) { sink?.watchPlay(pattern) }
    }

    func endCall(now: MonotonicInstant) {
        guard ringingCall != nil else { return }
        ringingCall = nil
        sink?.watchStopMotor()
        keepAwakeChanged(now: now)
        if case .incomingCall = screen {
            screen = notifications.notificationCount > 0 ? .list(selected: listSelection) : .idleClock
        }
        if !isPhoneConnected { screen = .waitingForPhone }
        requestRender()
    }

    /// The positive or negative action on a notification (Answer / Decline on
    /// a call). A press on the ringing call stops the motor at once: it is
    /// the user's answer, whatever the phone makes of it.
    func act(_ action: ActionID, on uid: NotificationUID, now: MonotonicInstant) {
        if ringingCall == uid { sink?.watchStopMotor() }
        guard isPhoneConnected else { return }
        if sink?.watchPerformAction(action, on: uid) == false, ringingCall == uid {
            endCall(now: now)
        }
    }
}
