import CLinux
import HAL
import LinuxHAL
import Loop

/// Where a loop's time comes from.
public enum LoopClock {
    /// CLOCK_MONOTONIC; timers fire through one timerfd.
    case monotonic
    /// A test clock: timers fire only when the test calls `advanceClock(by:)`,
    /// while descriptor sources still go through epoll. The wall clock is
    /// the manual clock plus a fixed offset (1970 plus the manual time).
    case manual(ManualClock)
}

/// The single-threaded event loop every WristCore process runs in: the Linux
/// implementation of `EventLoop`, chosen by the composition root.
///
/// - Descriptor sources: epoll, level-triggered. Each registration carries its
///   slot index and generation as the epoll token, so an event for a source that
///   was removed (or whose slot was reused) during the same wakeup is dropped.
/// - Timers: a heap of deadlines (`TimerQueue`) and one timerfd armed at the
///   earliest deadline, whatever the number of timers.
/// - Wall-clock timers: one CLOCK_REALTIME timerfd each (TFD_TIMER_ABSTIME |
///   TFD_TIMER_CANCEL_ON_SET), watched like any source; a read failing with
///   ECANCELED means the clock was set, reported as `.clockChanged`.
/// - Signals: every catchable terminating signal through a signalfd runs the
///   shutdown handlers, then `run()` returns.
/// - Deferred work runs after the handler of the current event.
///
/// Dispatching an event or a timer expiry allocates nothing: handlers are stored
/// once, the epoll buffer and all tables are preallocated.
public final class EpollLoop: EventLoop {
    private struct Source {
        var fd: Int32 = -1
        var handler: ((IOEvents) -> Void)?
        var generation: UInt32 = 0
    }

    private let epoll: Epoll
    private let timerFD: TimerFD
    private var signalFD: SignalFD?
    private let manualClock: ManualClock?

    private var sources: [Source] = []
    private var freeSources: [UInt32] = []
    private var timers = TimerQueue()
    private var armedDeadline: MonotonicInstant?
    private struct WallTimer {
        var fd: WallClockTimerFD?
        var source: SourceID?
        var handler: ((WallClockTimerEvent) -> Void)?
        var generation: UInt32 = 0
        var armed = false
    }
    private var wallTimers: [WallTimer] = []
    /// The wall clock and its timers with a manual clock.
    private var manualWallClock = ManualWallClock()
    /// Work to run after the current handler. Closures are stored inside a
    /// struct: an array of bare closures re-wraps each appended closure in a
    /// heap-allocated thunk (one malloc per deferWork, found by
    /// Benchmarks/WatchBenchmarks); a struct field keeps the closure as is.
    private struct DeferredWork { let run: () -> Void }
    private var deferred: [DeferredWork] = []
    private var shutdownHandlers: [() -> Void] = []
    private var stopping = false
    private var shutDown = false

    /// Tokens at or above this are the loop's own descriptors.
    private static let timerToken: UInt64 = .max
    private static let signalToken: UInt64 = .max - 1

    /// The signal that stopped the loop, if one did.
    public private(set) var receivedSignal: Int32?
    /// Asked before a termination signal shuts the loop down; false keeps
    /// it running (the daemon's SIGHUP with a broken settings file).
    public var shutdownSignalFilter: ((Int32) -> Bool)?

    public init(clock: LoopClock = .monotonic) throws(HALError) {
        epoll = try Epoll(capacity: 64)
        timerFD = try TimerFD()
        if case .manual(let c) = clock { manualClock = c } else { manualClock = nil }
        sources.reserveCapacity(32)
        freeSources.reserveCapacity(32)
        deferred.reserveCapacity(32)
        try epoll.add(timerFD.rawValue, events: Epoll.readable, token: Self.timerToken)
    }

    public var now: MonotonicInstant { manualClock?.now ?? SystemMonotonicClock.read() }

    /// Number of timers that exist (armed or not), and the number of loop
    /// descriptors used for all of them (always one timerfd).
    public var timerCount: Int { timers.liveCount }
    public var armedTimerCount: Int { timers.armedCount }

    // MARK: - descriptor sources

    /// Watches `fd` for `events`; the handler gets the events that occurred
    /// (hang-up and error are always reported). The loop never closes `fd`.
    @discardableResult
    public func addSource(fd: Int32, events: IOEvents, _ handler: @escaping (IOEvents) -> Void) throws(HALError) -> SourceID {
        let index: UInt32
        if let free = freeSources.popLast() {
            index = free
        } else {
            index = UInt32(sources.count)
            sources.append(Source())
        }
        let generation = sources[Int(index)].generation
        do {
            try epoll.add(fd, events: Self.mask(events), token: Self.token(index, generation))
        } catch {
            freeSources.append(index)
            throw error
        }
        sources[Int(index)].fd = fd
        sources[Int(index)].handler = handler
        return SourceID(index: index, generation: generation)
    }

    /// Changes what a source waits for (for example adding `.writable` while output is queued).
    public func updateSource(_ id: SourceID, events: IOEvents) throws(HALError) {
        guard isLive(id) else { return }
        try epoll.modify(sources[Int(id.index)].fd, events: Self.mask(events), token: Self.token(id.index, id.generation))
    }

    /// Stops watching. Safe at any time, including from the source's own handler
    /// and after its descriptor was closed; later events already fetched for it are dropped.
    public func removeSource(_ id: SourceID) {
        guard isLive(id) else { return }
        let i = Int(id.index)
        epoll.remove(sources[i].fd)
        sources[i].fd = -1
        sources[i].handler = nil
        sources[i].generation &+= 1
        freeSources.append(id.index)
    }

    public func isLive(_ id: SourceID) -> Bool {
        Int(id.index) < sources.count && sources[Int(id.index)].generation == id.generation
            && sources[Int(id.index)].handler != nil
    }

    // MARK: - timers

    public func makeTimer(_ handler: @escaping () -> Void) -> TimerID {
        timers.make(handler)
    }

    public func arm(_ id: TimerID, after: Duration, repeating: Duration?) {
        timers.arm(id, at: now.advanced(by: after), repeating: repeating)
        rearmTimerFD()
    }

    /// Arms at an absolute instant.
    public func arm(_ id: TimerID, at deadline: MonotonicInstant, repeating: Duration?) {
        timers.arm(id, at: deadline, repeating: repeating)
        rearmTimerFD()
    }

    public func disarm(_ id: TimerID) {
        timers.disarm(id)
        rearmTimerFD()
    }

    public func destroyTimer(_ id: TimerID) {
        timers.destroy(id)
        rearmTimerFD()
    }

    public func isArmed(_ id: TimerID) -> Bool { timers.isArmed(id) }

    /// When an armed timer fires next; nil when it is disarmed or stale.
    public func deadline(of id: TimerID) -> MonotonicInstant? { timers.deadline(of: id) }

    /// A one-shot timer that frees itself after firing. Cancel it with `destroyTimer`.
    @discardableResult
    public func schedule(after: Duration, _ handler: @escaping () -> Void) -> TimerID {
        let id = timers.make(handler, destroyAfterFiring: true)
        arm(id, after: after, repeating: nil)
        return id
    }

    // MARK: - wall-clock timers

    public var wallClockNow: WallClockInstant {
        if let manualClock { return manualWallClock.now(monotonic: manualClock.now) }
        return SystemClock.now()
    }

    public func makeWallClockTimer(_ handler: @escaping (WallClockTimerEvent) -> Void) throws(HALError) -> WallClockTimerID {
        if manualClock != nil { return manualWallClock.make(handler, timers: &timers) }
        let fd = try WallClockTimerFD()
        let index = wallTimers.firstIndex { $0.handler == nil } ?? wallTimers.count
        if index == wallTimers.count { wallTimers.append(WallTimer()) }
        let generation = wallTimers[index].generation
        let source = try addSource(fd: fd.rawValue, events: .readable) { [unowned(unsafe) self] _ in
            self.wallTimerReady(index, generation)
        }
        wallTimers[index].fd = fd
        wallTimers[index].source = source
        wallTimers[index].handler = handler
        return WallClockTimerID(index: UInt32(index), generation: generation)
    }

    private func liveWallTimer(_ id: WallClockTimerID) -> WallClockTimerFD? {
        guard Int(id.index) < wallTimers.count, wallTimers[Int(id.index)].generation == id.generation else { return nil }
        return wallTimers[Int(id.index)].fd
    }

    public func arm(_ id: WallClockTimerID, at deadline: WallClockInstant) {
        if let manualClock { return manualWallClock.arm(id, at: deadline, monotonicNow: manualClock.now, timers: &timers) }
        guard let fd = liveWallTimer(id) else { return }
        do { try fd.arm(at: deadline) } catch { preconditionFailure("\(error)") }
        wallTimers[Int(id.index)].armed = true
    }

    public func disarm(_ id: WallClockTimerID) {
        if manualClock != nil { return manualWallClock.disarm(id, timers: &timers) }
        guard let fd = liveWallTimer(id) else { return }
        fd.disarm()
        wallTimers[Int(id.index)].armed = false
    }

    public func isArmed(_ id: WallClockTimerID) -> Bool {
        if manualClock != nil { return manualWallClock.isArmed(id, timers: timers) }
        return liveWallTimer(id) != nil && wallTimers[Int(id.index)].armed
    }

    public func destroyWallClockTimer(_ id: WallClockTimerID) {
        if manualClock != nil { return manualWallClock.destroy(id, timers: &timers) }
        guard liveWallTimer(id) != nil else { return }
        let i = Int(id.index)
        if let source = wallTimers[i].source { removeSource(source) }
        wallTimers[i] = WallTimer(generation: id.generation &+ 1)  // the descriptor closes with its object
    }

    /// A wall-clock timerfd is readable: its deadline passed, or the clock
    /// was set (ECANCELED). Either way it is disarmed before the handler
    /// runs, so a spent timer is not woken by a later clock change.
    private func wallTimerReady(_ index: Int, _ generation: UInt32) {
        guard index < wallTimers.count, wallTimers[index].generation == generation,
            let fd = wallTimers[index].fd, let handler = wallTimers[index].handler
        else { return }
        let expiry = fd.read()
        guard wallTimers[index].armed, expiry != .notReady else { return }
        wallTimers[index].armed = false
        fd.disarm()
        handler(expiry == .clockChanged ? .clockChanged : .due)
    }

    /// Manual clock only: moves time forward, firing every timer that falls due
    /// in deadline order (each at its own deadline), with deferred work after each.
    public func advanceClock(by d: Duration) {
        guard let clock = manualClock else { preconditionFailure("advanceClock needs LoopClock.manual") }
        let target = clock.now.advanced(by: d)
        while let next = timers.earliestDeadline, next <= target {
            if next > clock.now { clock.now = next }
            fireDueTimers()
        }
        clock.now = target
    }

    private func rearmTimerFD() {
        guard manualClock == nil else { return }
        let earliest = timers.earliestDeadline
        guard earliest != armedDeadline else { return }
        armedDeadline = earliest
        if let earliest {
            do { try timerFD.arm(at: earliest) } catch { preconditionFailure("\(error)") }
        } else {
            timerFD.disarm()
        }
    }

    private func fireDueTimers() {
        let current = now
        while let handler = timers.popDue(now: current) {
            handler()
            runDeferred()
        }
        rearmTimerFD()
    }

    // MARK: - deferred work and shutdown

    /// Runs `work` after the handler of the current event (or at the next
    /// iteration when called outside a handler).
    public func deferWork(_ work: @escaping () -> Void) {
        deferred.append(DeferredWork(run: work))
    }

    /// Registers an orderly-shutdown step. Steps run once, most recently
    /// registered first (like `defer`), on SIGINT/SIGTERM or `shutdown()`.
    public func onShutdown(_ handler: @escaping () -> Void) {
        shutdownHandlers.append(handler)
    }

    /// Routes every catchable terminating signal (`ProcessSignals.terminating`,
    /// or the given ones) into the loop: on arrival the shutdown steps run
    /// and `run()` returns; `receivedSignal` says which one it was.
    public func handleTerminationSignals(_ signals: [Int32] = ProcessSignals.terminating) throws(HALError) {
        precondition(signalFD == nil, "termination signals are already handled")
        let sfd = try SignalFD(signals: signals)
        try epoll.add(sfd.rawValue, events: Epoll.readable, token: Self.signalToken)
        signalFD = consume sfd
    }

    /// Runs the shutdown steps (once) and stops the loop.
    public func shutdown() {
        stopping = true
        guard !shutDown else { return }
        shutDown = true
        while let step = shutdownHandlers.popLast() { step() }
    }

    /// Makes `run()` return after the current event, without the shutdown steps.
    public func stop() { stopping = true }

    // MARK: - running

    /// Dispatches events until `stop()`, `shutdown()` or a termination signal.
    public func run() throws(HALError) {
        stopping = false
        runDeferred()
        while !stopping {
            _ = try runOnce(timeout: nil)
        }
    }

    /// Waits once (at most `timeout`, nil = until something happens) and
    /// dispatches what is ready. Returns the number of events dispatched.
    @discardableResult
    public func runOnce(timeout: Duration?) throws(HALError) -> Int {
        runDeferred()
        var ms: Int32 = -1
        if let timeout { ms = Int32(clamping: max(0, (timeout.nanosecondsClamped + 999_999) / 1_000_000)) }
        let n = try epoll.wait(timeoutMilliseconds: ms)
        var dispatched = 0
        for k in 0..<n {
            let ready = epoll.ready(at: k)
            switch ready.token {
            case Self.timerToken:
                _ = timerFD.acknowledge()
                armedDeadline = nil  // the timerfd is spent; re-arm from the heap
                fireDueTimers()
                dispatched += 1
            case Self.signalToken:
                while let sig = signalFD?.next() {
                    if let filter = shutdownSignalFilter, !filter(sig) { continue }
                    receivedSignal = sig
                    shutdown()
                }
                dispatched += 1
            default:
                let index = Int(ready.token & 0xFFFF_FFFF)
                let generation = UInt32(truncatingIfNeeded: ready.token >> 32)
                guard index < sources.count, sources[index].generation == generation,
                    let handler = sources[index].handler
                else { continue }  // removed earlier in this wakeup: stale
                handler(Self.events(ready.events))
                runDeferred()
                dispatched += 1
            }
        }
        return dispatched
    }

    /// Tests: dispatch until `condition` holds or `timeout` passes (real time).
    /// Returns whether the condition held.
    @discardableResult
    public func runUntil(timeout: Duration, _ condition: () -> Bool) throws(HALError) -> Bool {
        let deadline = SystemMonotonicClock.read().advanced(by: timeout)
        while !condition() {
            let left = deadline.duration(since: SystemMonotonicClock.read())
            if left <= .zero { return condition() }
            try runOnce(timeout: min(left, .milliseconds(50)))
        }
        return true
    }

    private func runDeferred() {
        var i = 0
        while i < deferred.count {
            let work = deferred[i].run
            work()
            i += 1
        }
        deferred.removeAll(keepingCapacity: true)
    }

    // MARK: - epoll translation

    private static func token(_ index: UInt32, _ generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(index)
    }

    private static func mask(_ events: IOEvents) -> UInt32 {
        var m: UInt32 = 0
        if events.contains(.readable) { m |= Epoll.readable }
        if events.contains(.writable) { m |= Epoll.writable }
        return m | Epoll.hangUp
    }

    private static func events(_ mask: UInt32) -> IOEvents {
        var e: IOEvents = []
        if mask & Epoll.readable != 0 { e.insert(.readable) }
        if mask & Epoll.writable != 0 { e.insert(.writable) }
        if mask & Epoll.hangUp != 0 { e.insert(.hangUp) }
        if mask & Epoll.error != 0 { e.insert(.error) }
        return e
    }
}
