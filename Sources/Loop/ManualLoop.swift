import HAL

/// An `EventLoop` with no descriptors and a clock that moves only when a test
/// moves it (like NIO's EmbeddedEventLoop): timers fire from `advance(by:)` in
/// deadline order, each seeing its own deadline as `now`; a registered source
/// runs only when the test calls `signal(_:_:)`; deferred work runs after each
/// timer or signalled source, or from `runDeferred()`. Its wall clock moves
/// with its monotonic clock, and jumps when a test calls `stepWallClock(by:)`.
///
/// Pure state machines need no loop at all; this is for the thin layers that
/// schedule timers (the watch controller, buttons, the motor) so their timing
/// rules are tested without sockets or sleeping.
public final class ManualLoop: EventLoop {
    private var timers = TimerQueue()
    private var wallClock: ManualWallClock
    private var sources: [SourceID: (fd: Int32, events: IOEvents, handler: (IOEvents) -> Void)] = [:]
    private var nextSource: UInt32 = 0
    /// Stored in a struct, as EpollLoop does: an array of bare closures re-wraps
    /// each one in a heap thunk.
    private struct DeferredWork { let run: () -> Void }
    private var deferred: [DeferredWork] = []
    private var shutdownHandlers: [() -> Void] = []
    public private(set) var isShutDown = false
    /// Timer expiries dispatched so far, monotonic and wall-clock, clock
    /// changes included (a wake-up count for power tests).
    public private(set) var timerFirings = 0

    public private(set) var now: MonotonicInstant

    /// - Parameter wallClock: the wall clock at `now` (by default the same
    ///   count of nanoseconds as `now`, since 1970).
    public init(now: MonotonicInstant = .zero, wallClock: WallClockInstant? = nil) {
        self.now = now
        let wall = wallClock?.nanosecondsSinceEpoch ?? Int64(clamping: now.nanoseconds)
        self.wallClock = ManualWallClock(offset: wall &- Int64(clamping: now.nanoseconds))
    }

    // MARK: sources

    @discardableResult
    public func addSource(fd: Int32, events: IOEvents, _ handler: @escaping (IOEvents) -> Void) throws(HALError) -> SourceID {
        let id = SourceID(index: nextSource, generation: 0)
        nextSource &+= 1
        sources[id] = (fd, events, handler)
        return id
    }

    public func updateSource(_ id: SourceID, events: IOEvents) throws(HALError) {
        sources[id]?.events = events
    }

    public func removeSource(_ id: SourceID) { sources[id] = nil }

    /// The sources registered now (their descriptors), for assertions.
    public var sourceCount: Int { sources.count }

    /// Runs the handler of the source watching `fd` as if `events` occurred.
    /// Returns false when no source watches `fd`.
    @discardableResult
    public func signal(fd: Int32, _ events: IOEvents) -> Bool {
        guard let entry = sources.first(where: { $0.value.fd == fd }) else { return false }
        entry.value.handler(events)
        runDeferred()
        return true
    }

    // MARK: timers

    public func makeTimer(_ handler: @escaping () -> Void) -> TimerID { timers.make(handler) }

    public func arm(_ id: TimerID, after: Duration, repeating: Duration?) {
        timers.arm(id, at: now.advanced(by: after), repeating: repeating)
    }

    public func arm(_ id: TimerID, at deadline: MonotonicInstant, repeating: Duration?) {
        timers.arm(id, at: deadline, repeating: repeating)
    }

    public func disarm(_ id: TimerID) { timers.disarm(id) }
    public func destroyTimer(_ id: TimerID) { timers.destroy(id) }
    public func isArmed(_ id: TimerID) -> Bool { timers.isArmed(id) }
    public func deadline(of id: TimerID) -> MonotonicInstant? { timers.deadline(of: id) }
    public var armedTimerCount: Int { timers.armedCount }
    /// When the next timer fires; nil when none is armed.
    public var nextDeadline: MonotonicInstant? { timers.earliestDeadline }

    @discardableResult
    public func schedule(after: Duration, _ handler: @escaping () -> Void) -> TimerID {
        let id = timers.make(handler, destroyAfterFiring: true)
        arm(id, after: after, repeating: nil)
        return id
    }

    // MARK: wall-clock timers

    public var wallClockNow: WallClockInstant { wallClock.now(monotonic: now) }

    public func makeWallClockTimer(_ handler: @escaping (WallClockTimerEvent) -> Void) throws(HALError) -> WallClockTimerID {
        wallClock.make(handler, timers: &timers)
    }

    public func arm(_ id: WallClockTimerID, at deadline: WallClockInstant) {
        wallClock.arm(id, at: deadline, monotonicNow: now, timers: &timers)
    }

    public func disarm(_ id: WallClockTimerID) { wallClock.disarm(id, timers: &timers) }
    public func destroyWallClockTimer(_ id: WallClockTimerID) { wallClock.destroy(id, timers: &timers) }
    public func isArmed(_ id: WallClockTimerID) -> Bool { wallClock.isArmed(id, timers: timers) }

    /// Sets the wall clock `d` later (earlier when negative), as
    /// settimeofday would: every armed wall-clock timer runs at once with
    /// `.clockChanged` (each a firing), with deferred work after each.
    public func stepWallClock(by d: Duration) {
        runDeferred()
        for handler in wallClock.step(by: d, timers: &timers) {
            timerFirings += 1
            handler(.clockChanged)
            runDeferred()
        }
    }

    /// Moves time forward, firing every timer that falls due in deadline order
    /// (each at its own deadline), with deferred work after each.
    public func advance(by d: Duration) {
        advance(to: now.advanced(by: d))
    }

    /// Moves time forward to `target` (never backwards).
    public func advance(to target: MonotonicInstant) {
        runDeferred()
        while let next = timers.earliestDeadline, next <= target {
            if next > now { now = next }
            while let handler = timers.popDue(now: now) {
                timerFirings += 1
                handler()
                runDeferred()
            }
        }
        if target > now { now = target }
    }

    // MARK: deferred work and shutdown

    public func deferWork(_ work: @escaping () -> Void) { deferred.append(DeferredWork(run: work)) }

    /// Runs the deferred work queued so far (and any it queues).
    public func runDeferred() {
        var i = 0
        while i < deferred.count {
            deferred[i].run()
            i += 1
        }
        deferred.removeAll(keepingCapacity: true)
    }

    public func onShutdown(_ handler: @escaping () -> Void) { shutdownHandlers.append(handler) }

    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        while let step = shutdownHandlers.popLast() { step() }
    }
}
