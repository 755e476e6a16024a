import HAL

/// What timer-based logic in the upper layers needs from a loop.
///
/// Timers are created once (that is the only allocation: the handler closure)
/// and then armed and disarmed any number of times without allocating, which
/// keeps steady-state paths such as a request timeout allocation-free.
public protocol TimerScheduling: AnyObject {
    var now: MonotonicInstant { get }
    /// Creates a disarmed timer that calls `handler` on expiry.
    func makeTimer(_ handler: @escaping () -> Void) -> TimerID
    /// (Re)arms `id` to fire `after` from now, then every `repeating` if given.
    func arm(_ id: TimerID, after: Duration, repeating: Duration?)
    /// (Re)arms `id` to fire at an absolute instant, then every `repeating` if given.
    func arm(_ id: TimerID, at deadline: MonotonicInstant, repeating: Duration?)
    /// Stops `id` from firing; it can be armed again.
    func disarm(_ id: TimerID)
    /// Disarms `id` and frees it; the ID becomes stale.
    func destroyTimer(_ id: TimerID)
    /// Whether `id` is armed.
    func isArmed(_ id: TimerID) -> Bool
    /// When an armed timer fires next; nil when it is disarmed or stale.
    func deadline(of id: TimerID) -> MonotonicInstant?
    /// A one-shot timer that frees itself after firing. Cancel it with `destroyTimer`.
    @discardableResult
    func schedule(after: Duration, _ handler: @escaping () -> Void) -> TimerID
}

extension TimerScheduling {
    public func arm(_ id: TimerID, after: Duration) { arm(id, after: after, repeating: nil) }
    public func arm(_ id: TimerID, at deadline: MonotonicInstant) { arm(id, at: deadline, repeating: nil) }
}
