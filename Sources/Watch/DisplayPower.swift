import HAL
import Loop

/// Display power: full brightness after activity, dimmed after `dimAfter`,
/// off after `offAfter`; a button press or an alert wakes it. While something
/// needs an answer (a ringing call, a pairing passkey) it stays on.
///
/// Two timers, made once; activity re-arms them without allocating.
final class DisplayPower {
    enum State: String, Sendable { case on, dimmed, off }

    private(set) var state: State = .on
    /// Called on every change; the watch applies it to the panel.
    var changeHandler: ((State) -> Void)?
    /// When true (a call rings, a passkey waits), the display never dims.
    var keepAwake = false {
        didSet { if keepAwake { wake() } else { restartTimers() } }
    }

    private let scheduler: any TimerScheduling
    private let settings: WatchSettings
    private var dimTimer: TimerID!
    private var offTimer: TimerID!

    init(scheduler: any TimerScheduling, settings: WatchSettings) {
        self.scheduler = scheduler
        self.settings = settings
        dimTimer = scheduler.makeTimer { [unowned self] in if !self.keepAwake { self.set(.dimmed) } }
        offTimer = scheduler.makeTimer { [unowned self] in if !self.keepAwake { self.set(.off) } }
        restartTimers()
    }

    deinit {
        scheduler.destroyTimer(dimTimer)
        scheduler.destroyTimer(offTimer)
    }

    /// Activity: back to full brightness, timers restarted. Returns the state
    /// before, so a press that only woke a dark display can be swallowed.
    @discardableResult
    func wake() -> State {
        let before = state
        set(.on)
        restartTimers()
        return before
    }

    private func restartTimers() {
        scheduler.arm(dimTimer, after: settings.dimAfter)
        scheduler.arm(offTimer, after: settings.offAfter)
    }

    private func set(_ new: State) {
        guard new != state else { return }
        state = new
        changeHandler?(new)
    }
}
