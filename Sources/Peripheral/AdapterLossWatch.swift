import HAL
import Loop

/// The bookkeeping while the watch's adapter is away: since when, the
/// deadline for its return (`onDeadline`), and the set-up that runs when it
/// is back. Each set-up is an `Attempt`; cancelling it (the adapter went
/// again, the deadline passed, the peripheral stopped) makes the answers
/// still on their way stale, so they are ignored.
///
/// Owned by `BluetoothPeripheral`, which decides what a loss and a return
/// mean for the link and advertising (`BluetoothPeripheral+AdapterLoss.swift`).
final class AdapterLossWatch {
    /// One set-up of the returned adapter.
    struct Attempt {
        fileprivate let number: Int
    }

    /// When the adapter went away (nil while it is there).
    private(set) var lostAt: MonotonicInstant?
    /// A set-up of the returned adapter is running.
    private(set) var isSettingUp = false
    /// The adapter did not come back in time.
    var onDeadline: () -> Void = {}

    /// Bumped to cancel a set-up.
    private var attempts = 0
    private var deadline: TimerID!
    private let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
        deadline = loop.makeTimer { [unowned(unsafe) self] in self.onDeadline() }
    }

    deinit {
        loop.destroyTimer(deadline)
    }

    /// The adapter went away: remember when, and wait for it up to `timeout`.
    func startWaiting(upTo timeout: Duration) {
        lostAt = loop.now
        loop.arm(deadline, after: timeout)
    }

    /// The adapter is back and a set-up for it starts.
    func beginSetUp() -> Attempt {
        isSettingUp = true
        return Attempt(number: attempts)
    }

    /// Whether `attempt` was not cancelled: its answers still count.
    func isCurrent(_ attempt: Attempt) -> Bool {
        attempt.number == attempts
    }

    func cancelSetUp() {
        attempts &+= 1
        isSettingUp = false
    }

    /// The adapter is set up again: the wait is over. Returns how long it was away.
    func returned() -> Duration {
        isSettingUp = false
        let away = lostAt.map { loop.now - $0 } ?? .zero
        lostAt = nil
        loop.disarm(deadline)
        return away
    }

    /// Stops waiting without a return (the peripheral stops or failed); a
    /// set-up still running is for the caller to cancel.
    func stopWaiting() {
        loop.disarm(deadline)
        lostAt = nil
    }
}
