import Notifications
import HAL
import Haptics
import Screens

/// Incoming calls: an IncomingCall notification that alerts rings (the
/// policy's pattern, normally `.ring`) and takes the screen until the phone
/// accepts an answer, removes the call, or the session ends. A press stops
/// the ring at once; if the phone refuses the answer (0xA3, or the write
/// fails) the call screen says so ("Could not answer") and its buttons
/// still act. The ring's 60 s cap is the motor's
/// (`HapticsConfiguration.ringMaxDuration`).
///
/// A call already ringing when the phone connects arrives flagged
/// PreExisting with the phone's other notifications. Once those
/// announcements have been quiet for `WatchSettings.callInProgressSettle`,
/// a call still in the store takes the screen and rings
/// (`VibrationPolicy.patternForCallInProgress`): the wearer can still
/// answer it. A Silent one stays in the list, as a live one would.
extension WatchModel {
    func startRinging(_ uid: NotificationID, pattern: VibrationPattern?, now: MonotonicInstant) {
        activeCall = uid
        ringingCall = uid
        callNotice = nil
        screen = .incomingCall(uid)
        keepAwakeChanged(now: now)
        ring(uid, pattern: pattern, now: now)
    }

    func liveCallArrived(_ info: NotificationInfo, now: MonotonicInstant) {
        callInProgress = nil
        callInProgressDeadline = nil
        startRinging(info.uid, pattern: policy.pattern(for: info), now: now)
    }

    func endCall(now: MonotonicInstant) {
        guard activeCall != nil else { return }
        cancelPendingRing()
        if ringingCall != nil { effects.requestStopMotor() }
        activeCall = nil
        ringingCall = nil
        callNotice = nil
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
    func act(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant) {
        if ringingCall == uid {
            cancelPendingRing()
            ringingCall = nil
            effects.requestStopMotor()
        }
        if activeCall == uid { callNotice = nil }
        guard isPhoneConnected else { return }
        effects.requestAction(action, on: uid)
    }

    /// The phone refused an action (`error`), or it could not be sent (nil).
    /// On the call on screen: say so, and keep the call actionable while the
    /// phone still has it.
    func actionRefused(_ action: NotificationAction, on uid: NotificationID, _ error: ActionFailure?, now: MonotonicInstant) {
        guard activeCall == uid, error != .cancelled else { return }
        guard notifications.notification(uid) != nil else { return endCall(now: now) }
        callNotice = action == .positive ? .couldNotAnswer : .couldNotDecline
        requestRender()
    }

    // MARK: - A call already ringing when the phone connected

    /// A PreExisting notification arrived (the phone's announcements after
    /// subscribing): remember the newest incoming call, and wait for the
    /// announcements to settle.
    func preExistingAdded(_ info: NotificationInfo, now: MonotonicInstant) {
        if info.category == .incomingCall && !info.flags.contains(.silent) { callInProgress = info.uid }
        if callInProgress != nil { callInProgressDeadline = now.advanced(by: settings.callInProgressSettle) }
    }

    func callInProgressSettled(now: MonotonicInstant) {
        callInProgressDeadline = nil
        guard let uid = callInProgress else { return }
        callInProgress = nil
        guard activeCall == nil, isPhoneConnected, let n = notifications.notification(uid), n.category == .incomingCall
        else { return }
        startRinging(uid, pattern: policy.patternForCallInProgress(n.info), now: now)
        // Pre-existing notifications are fetched last: bring the caller's name forward.
        effects.requestShown(uid)
        requestRender()
    }
}
