import HAL

/// A wall clock and its timers for loops whose time moves only when a test
/// moves it (`ManualLoop`, `EpollLoop` with a manual clock): the wall clock
/// is the monotonic clock plus an offset, so each wall-clock timer is a
/// monotonic timer in the loop's own `TimerQueue`, firing in deadline order
/// with every other timer. `step(by:)` sets the wall clock as
/// settimeofday would: armed timers are disarmed and reported as
/// `.clockChanged`.
package struct ManualWallClock {
    private struct Slot {
        var timer: TimerID?
        var handler: ((WallClockTimerEvent) -> Void)?
        var generation: UInt32 = 0
    }

    private var slots: [Slot] = []
    /// Wall-clock nanoseconds minus monotonic nanoseconds.
    package private(set) var offset: Int64

    package init(offset: Int64 = 0) { self.offset = offset }

    package func now(monotonic: MonotonicInstant) -> WallClockInstant {
        WallClockInstant(nanosecondsSinceEpoch: Int64(clamping: monotonic.nanoseconds) &+ offset)
    }

    package mutating func make(
        _ handler: @escaping (WallClockTimerEvent) -> Void, timers: inout TimerQueue
    ) -> WallClockTimerID {
        let index = slots.firstIndex { $0.handler == nil } ?? slots.count
        if index == slots.count { slots.append(Slot()) }
        slots[index].handler = handler
        slots[index].timer = timers.make { handler(.due) }
        return WallClockTimerID(index: UInt32(index), generation: slots[index].generation)
    }

    private func timer(_ id: WallClockTimerID) -> TimerID? {
        guard Int(id.index) < slots.count, slots[Int(id.index)].generation == id.generation else { return nil }
        return slots[Int(id.index)].timer
    }

    package func arm(_ id: WallClockTimerID, at deadline: WallClockInstant, monotonicNow: MonotonicInstant, timers: inout TimerQueue) {
        guard let t = timer(id) else { return }
        let wait = deadline.duration(since: now(monotonic: monotonicNow))
        timers.arm(t, at: monotonicNow.advanced(by: max(wait, .zero)), repeating: nil)
    }

    package func disarm(_ id: WallClockTimerID, timers: inout TimerQueue) {
        guard let t = timer(id) else { return }
        timers.disarm(t)
    }

    package func isArmed(_ id: WallClockTimerID, timers: TimerQueue) -> Bool {
        guard let t = timer(id) else { return false }
        return timers.isArmed(t)
    }

    package mutating func destroy(_ id: WallClockTimerID, timers: inout TimerQueue) {
        guard let t = timer(id) else { return }
        timers.destroy(t)
        slots[Int(id.index)] = Slot(generation: id.generation &+ 1)
    }

    /// Moves the wall clock by `d` (either way). Returns the handlers of the
    /// timers that were armed (now disarmed), to be run with `.clockChanged`.
    package mutating func step(by d: Duration, timers: inout TimerQueue) -> [(WallClockTimerEvent) -> Void] {
        offset = offset &+ d.nanosecondsClamped
        var cancelled: [(WallClockTimerEvent) -> Void] = []
        for slot in slots {
            guard let t = slot.timer, let handler = slot.handler, timers.isArmed(t) else { continue }
            timers.disarm(t)
            cancelled.append(handler)
        }
        return cancelled
    }
}
