import HAL

/// The panel's power as the watch decides it.
public enum DisplayPowerState: String, Sendable {
    /// Full brightness (the board's contrast).
    case on
    /// `WatchSettings.dimContrast`.
    case dimmed
    /// Dark; drawing goes on in the framebuffer, nothing is sent.
    case off
}

/// Display power: full brightness after activity, dimmed `dimAfter` later,
/// off `offAfter` after it; a button press, an Important alert or a notice
/// wakes it. While something needs an answer (an incoming call, a pairing
/// passkey) it stays on.
extension WatchModel {
    /// A call is on screen, a passkey waits or an alarm rings: the display does not dim or sleep.
    public var keepsDisplayAwake: Bool { activeCall != nil || isAwaitingPairingAnswer || ringing != nil }

    /// Activity: back to full brightness, the dim and off deadlines restarted.
    /// Returns the state before, so a press that only woke a dark display can
    /// be swallowed.
    @discardableResult
    func wake(now: MonotonicInstant) -> DisplayPowerState {
        let before = displayPower
        setDisplayPower(.on)
        restartPowerDeadlines(now: now)
        return before
    }

    /// A call started or ended, a passkey appeared or went: awake while
    /// something waits, else counting down from now.
    func keepAwakeChanged(now: MonotonicInstant) {
        if keepsDisplayAwake {
            wake(now: now)
        } else {
            restartPowerDeadlines(now: now)
        }
    }

    func restartPowerDeadlines(now: MonotonicInstant) {
        dimDeadline = now.advanced(by: settings.dimAfter)
        offDeadline = now.advanced(by: settings.offAfter)
    }

    func dimDeadlinePassed() {
        dimDeadline = nil
        if !keepsDisplayAwake { setDisplayPower(.dimmed) }
    }

    func offDeadlinePassed() {
        offDeadline = nil
        if !keepsDisplayAwake { setDisplayPower(.off) }
    }

    private func setDisplayPower(_ new: DisplayPowerState) {
        guard new != displayPower else { return }
        displayPower = new
        effects.requestDisplayPower(new)
    }
}
