import HAL

/// Names a wall-clock timer. Stale IDs (of destroyed timers) are ignored.
public struct WallClockTimerID: Hashable, Sendable {
    package let index: UInt32
    package let generation: UInt32
    package init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
}

/// Why a wall-clock timer's handler runs.
public enum WallClockTimerEvent: Sendable, Equatable {
    /// The wall clock reached the deadline.
    case due
    /// The wall clock was set (stepped) while the timer waited: whatever
    /// shows or depends on the wall clock should look again now.
    case clockChanged
}

/// Timers on the wall clock (CLOCK_REALTIME), for what must happen when a
/// clock on the wall says so (the minute changing) rather than after a
/// duration: a monotonic timer armed "60 s from now" drifts from the wall
/// clock's minute and misses a clock step entirely.
///
/// A timer fires once at its absolute deadline (as the wall clock counts,
/// however it is slewed), then is disarmed. If the wall clock is set while
/// it is armed (settimeofday, NTP stepping it, the watch setting it from
/// the phone), the handler runs at once with `.clockChanged` and the timer
/// is disarmed. On Linux each timer is a timerfd on CLOCK_REALTIME armed with
/// TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET (one descriptor per timer:
/// keep them few; the watch uses one).
public protocol WallClockTimerScheduling: AnyObject {
    /// The wall clock now.
    var wallClockNow: WallClockInstant { get }
    /// Creates a disarmed wall-clock timer (its only allocation).
    func makeWallClockTimer(_ handler: @escaping (WallClockTimerEvent) -> Void) throws(HALError) -> WallClockTimerID
    /// (Re)arms `id` at an absolute wall-clock instant (one in the past fires at once).
    func arm(_ id: WallClockTimerID, at deadline: WallClockInstant)
    /// Stops `id` from firing, for its deadline and for clock changes; it can be armed again.
    func disarm(_ id: WallClockTimerID)
    /// Disarms `id` and frees it; the ID becomes stale.
    func destroyWallClockTimer(_ id: WallClockTimerID)
    /// Whether `id` is armed.
    func isArmed(_ id: WallClockTimerID) -> Bool
}
