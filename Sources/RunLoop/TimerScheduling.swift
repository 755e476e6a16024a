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
    /// Stops `id` from firing; it can be armed again.
    func disarm(_ id: TimerID)
    /// Disarms `id` and frees it; the ID becomes stale.
    func destroyTimer(_ id: TimerID)
}

extension TimerScheduling {
    public func arm(_ id: TimerID, after: Duration) { arm(id, after: after, repeating: nil) }
}
