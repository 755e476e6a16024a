import HAL
import Log

/// Accepts the connections of one listener on the loop and hands each to
/// `accepted`. Shared by the harness and the phone endpoint.
///
/// When `accept` fails — EMFILE at the descriptor limit, ENFILE, ENOBUFS —
/// the pending connection stays in the backlog and the listener stays
/// readable, so a level-triggered loop would call straight back, forever (a
/// busy spin, one log line per turn). Instead the listener is taken off the
/// loop for a back-off (`firstPause`, doubling up to `longestPause`) by a
/// timer made once, then watched again; a successful accept resets it. The
/// failure is logged when a run of failures starts, at most once per
/// `logInterval`, and the end of a logged run once, with how many attempts failed.
public final class ConnectionAcceptor<Connection> {
    public struct Timing: Sendable {
        public var firstPause: Duration = .milliseconds(100)
        public var longestPause: Duration = .seconds(1)
        /// At most one "cannot accept" line per this long.
        public var logInterval: Duration = .seconds(10)
        /// Accepts per wake-up, so a crowd of connects cannot hold the loop.
        public var acceptsPerWakeUp = 64
        public init() {}
    }

    public let listener: any ConnectionListener<Connection>
    /// Wake-ups of the listener so far (tests count them).
    public private(set) var wakeUps = 0
    /// True while accepting is paused after a failure.
    public var isPaused: Bool { source == nil && !closed }

    private let loop: any EventLoop
    private let logger: Logger
    private let label: String
    private let timing: Timing
    private let accepted: (Connection) -> Void
    private var handler: ((IOEvents) -> Void)!
    private var source: SourceID?
    private var resumeTimer: TimerID!
    private var pause: Duration
    private var failuresInRun = 0
    private var lastLogged: MonotonicInstant?
    /// Whether this run of failures was logged (then its end is, too).
    private var runLogged = false
    private var closed = false

    /// - Parameter label: names the endpoint in log lines ("harness", "phone endpoint").
    public init(
        listener: any ConnectionListener<Connection>, loop: any EventLoop, logger: Logger, label: String,
        timing: Timing = Timing(), accepted: @escaping (Connection) -> Void
    ) throws(HALError) {
        self.listener = listener
        self.loop = loop
        self.logger = logger
        self.label = label
        self.timing = timing
        self.accepted = accepted
        pause = timing.firstPause
        handler = { [unowned(unsafe) self] _ in self.acceptPending() }
        resumeTimer = loop.makeTimer { [unowned(unsafe) self] in self.resume() }
        source = try loop.addSource(fd: listener.pollDescriptor, events: .readable, handler)
    }

    deinit { close() }

    /// Stops accepting and closes the listener (idempotent).
    public func close() {
        guard !closed else { return }
        closed = true
        if let s = source { loop.removeSource(s) }
        source = nil
        loop.destroyTimer(resumeTimer)
        listener.close()
    }

    private func acceptPending() {
        wakeUps &+= 1
        for _ in 0..<timing.acceptsPerWakeUp {
            let connection: Connection?
            do { connection = try listener.accept() } catch {
                return failed(error)
            }
            guard let connection else { return }
            if failuresInRun > 0 {
                if runLogged { logger.notice("\(label): accepting connections again after \(failuresInRun) failed attempts") }
                failuresInRun = 0
                runLogged = false
                pause = timing.firstPause
            }
            accepted(connection)
            if closed { return }
        }
    }

    private func failed(_ error: HALError) {
        failuresInRun += 1
        let now = loop.now
        if failuresInRun == 1, lastLogged.map({ now - $0 >= timing.logInterval }) ?? true {
            lastLogged = now
            runLogged = true
            logger.warning("\(label): cannot accept a connection: \(error); pausing (up to \(timing.longestPause.secondsText) at a time) until it works again")
        }
        if let s = source { loop.removeSource(s) }
        source = nil
        loop.arm(resumeTimer, after: pause)
        pause = min(pause * 2, timing.longestPause)
    }

    private func resume() {
        guard !closed, source == nil else { return }
        do {
            source = try loop.addSource(fd: listener.pollDescriptor, events: .readable, handler)
        } catch {
            // Cannot even watch it (out of memory): try again later.
            loop.arm(resumeTimer, after: pause)
            return
        }
        // The backlog may hold connections already: the loop reports them as readable.
    }
}
