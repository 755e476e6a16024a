import AMS
import Notifications
import BoardConfig
import HAL
import Log
import Loop

/// The harness endpoint: a Unix stream socket speaking the line protocol of
/// `HarnessCommand` (docs/harness.md), so scripts and tests in any language
/// can press the watch's buttons, follow its motor and look at its screen.
/// The socket comes from the injected `LocalSockets`.
///
/// Bounded: at most `Limits.clients` connections (one more is told so and
/// closed), and at most `Limits.queuedOutput` bytes of replies waiting for a
/// client; a client whose replies pile up past that (it sends and never
/// reads) is disconnected. Each wake-up reads one bounded chunk of a
/// client's commands, so a flood cannot hold the loop.
///
/// Costs nothing unless used: a motor transition with no `motor` subscriber
/// returns at once; with one, its line is formatted into a buffer made once.
/// Likewise a notification or media change with no `events` subscriber
/// returns after one comparison (no formatting, no allocation); with one,
/// its JSON line is built as a String (a tool's cost, bounded per client
/// like every reply).
/// Commands allocate freely (a test and bench tool).
public final class HarnessServer {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    /// What the server can do to the watch.
    public struct Hooks {
        /// Changes a button's level; false when the board has no such button.
        public var setButton: (ButtonRole, Bool) -> Bool
        public var snapshot: (HarnessCommand.SnapshotFormat) -> [UInt8]
        public var notificationsJSON: () -> String
        public var stateJSON: () -> String
        /// Sets the simulated board's battery (percent, charging); false on a real board.
        public var setBattery: (Int, Bool) -> Bool = { _, _ in false }
        /// Sets the simulated iPhone's battery; false without one.
        public var setPhoneBattery: (Int) -> Bool = { _ in false }
        /// Deletes the notification history file; false without one kept.
        public var clearHistory: () -> Bool = { false }
        public init(
            setButton: @escaping (ButtonRole, Bool) -> Bool, snapshot: @escaping (HarnessCommand.SnapshotFormat) -> [UInt8],
            notificationsJSON: @escaping () -> String, stateJSON: @escaping () -> String
        ) {
            self.setButton = setButton
            self.snapshot = snapshot
            self.notificationsJSON = notificationsJSON
            self.stateJSON = stateJSON
        }
    }

    public struct Limits: Sendable {
        /// Connections served at once. One more evicts the client that has
        /// been quiet longest, if quiet for `idleEviction` (it is told why);
        /// else it gets `error too many harness clients` and is closed.
        public var clients = 16
        /// How long a client must have sent nothing to give its place up.
        public var idleEviction = Duration.seconds(30)
        /// Reply bytes a client may leave unread; past that it is disconnected.
        /// (A 128x64 PBM snapshot is 16.4 KB.)
        public var queuedOutput = 256 * 1024
        public init() {}
    }

    private final class Client {
        let connection: any LineChannel
        var source: SourceID?
        var streamsMotor = false
        var streamsEvents = false
        /// Whether the loop watches for writability (while output is queued).
        var watchingWritable = false
        /// False once dropped: a reply scheduled for it is then not sent.
        var isOpen = true
        /// When it last sent a command (or connected).
        var lastHeard: MonotonicInstant
        /// Buttons it holds with `hold ROLE` (no duration): released when it goes.
        var held: [ButtonRole] = []
        init(_ c: any LineChannel, now: MonotonicInstant) {
            connection = c
            lastHeard = now
        }
    }

    public let path: String
    public let limits: Limits
    private let loop: EventLoop
    private let logger: Logger
    private let hooks: Hooks
    private var acceptor: ConnectionAcceptor<any LineChannel>!
    private var clients: [Client] = []
    private var motorSubscribers = 0
    private var eventSubscribers = 0
    /// Notifications announced and waiting for their attributes (`events`).
    private var notificationEvents = NotificationEventTracker()
    private var reports: [NotificationEventTracker.Report] = []
    /// Reports notifications whose app name did not come within `appNameWait`.
    private var appNameTimer: TimerID?
    /// The notification store the last event came from (for `appNameTimer`).
    /// The store of the latest event, read when the app-name wait ends (held
    /// until the next event: the store outlives its events anyway).
    private var lastStore: (any NotificationSource)?
    /// How long an `events` line waits for the app's name (as the pop-up does).
    static let appNameWait = Duration.seconds(1)
    /// "motor on|off <ns>\n", rebuilt in place for each transition.
    private var motorLine: [UInt8] = []
    /// The `events` line being sent, rebuilt in place.
    private var eventLine = JSONLineBuffer(capacity: 4096)
    /// Reports wait for the deferred work queued before them (the redraw).
    private var reportsScheduled = false
    private var reportsAt = MonotonicInstant.zero
    private var sendScheduledReports: () -> Void = {}
    /// Whether the "too many clients" refusal was logged since the server was last full.
    private var refusalLogged = false
    private var overflowLog = LogThrottle(interval: .seconds(10))

    /// Motor lines formatted so far (none while nobody subscribed: the unit tests check it).
    public private(set) var motorLinesFormatted = 0
    /// Event lines formatted so far (none while nobody subscribed: the unit tests check it).
    public private(set) var eventLinesFormatted = 0
    /// Clients connected now.
    public var clientCount: Int { clients.count }

    public init(
        path: String, sockets: any LocalSockets, loop: EventLoop, logger: Logger, limits: Limits = Limits(),
        acceptTiming: ConnectionAcceptor<any LineChannel>.Timing = .init(), hooks: Hooks
    ) throws(HALError) {
        self.path = path
        self.limits = limits
        self.loop = loop
        self.logger = logger
        self.hooks = hooks
        clients.reserveCapacity(limits.clients)
        motorLine.reserveCapacity(32)
        reports.reserveCapacity(64)
        sendScheduledReports = { [lifetime, unowned(unsafe) self] in
            guard !lifetime.isOver else { return }
            self.reportsScheduled = false
            guard let store = self.lastStore else { return self.reports.removeAll(keepingCapacity: true) }
            self.sendReports(store: store, now: self.reportsAt)
        }
        let listener = try sockets.listenForLines(at: path)
        acceptor = try ConnectionAcceptor(listener: listener, loop: loop, logger: logger, label: "harness", timing: acceptTiming) {
            [unowned(unsafe) self] connection in self.accepted(connection)
        }
    }

    deinit {
        lifetime.end()
        close()
    }

    public func close() {
        acceptor?.close()
        while let c = clients.last { drop(c) }
        if let t = appNameTimer { loop.destroyTimer(t) }
        appNameTimer = nil
    }

    // MARK: - the events stream

    /// A notification event, after the watch applied it to `store`: streams
    /// notification added / modified (once their attributes are in the
    /// store) and removed lines to every `events` subscriber.
    ///
    /// The lines go out after the loop's deferred work that is already
    /// queued, so the watch's redraw and flush come first (the pop-up does
    /// not wait for a tool), and are formatted into one kept buffer
    /// (`JSONLineBuffer`): no allocation per notification.
    public func notificationEvent(_ event: NotificationEvent, store: any NotificationSource, now: MonotonicInstant) {
        guard eventSubscribers > 0 else { return }
        lastStore = store
        notificationEvents.handle(event, store: store) { reports.append($0) }
        reportsAt = now
        if !reportsScheduled {
            reportsScheduled = true
            loop.deferWork(sendScheduledReports)
        }
        armAppNameTimer()
    }

    /// The phone's media player changed (AMS): streams a `media` line to
    /// every `events` subscriber.
    public func mediaChanged(_ state: MediaState, now: MonotonicInstant) {
        guard eventSubscribers > 0 else { return }
        sendEvent(HarnessJSON.mediaEvent(state, at: now))
    }

    /// Sends what the tracker reported (after it returned: sending may
    /// drop the last subscriber, which resets the tracker).
    private func sendReports(store: any NotificationSource, now: MonotonicInstant) {
        for r in reports {
            if r.change == .removed {
                HarnessJSON.notificationRemovedEvent(r.uid, at: now, into: &eventLine)
            } else if let n = store.notification(r.uid) {
                HarnessJSON.notificationEvent(r.change, n, at: now, into: &eventLine)
            } else {
                continue
            }
            sendEventLine()
        }
        reports.removeAll(keepingCapacity: true)
    }

    /// `eventLine` to every `events` subscriber.
    private func sendEventLine() { sendEvent(eventLine.bytes) }

    private func armAppNameTimer() {
        guard notificationEvents.waitingCount > 0 else {
            if let t = appNameTimer { loop.disarm(t) }
            return
        }
        if appNameTimer == nil {
            appNameTimer = loop.makeTimer { [unowned(unsafe) self] in self.appNameWaitOver() }
        }
        if let t = appNameTimer, !loop.isArmed(t) { loop.arm(t, after: Self.appNameWait) }
    }

    private func appNameWaitOver() {
        guard eventSubscribers > 0, let store = lastStore else { return notificationEvents.reset() }
        notificationEvents.reportFetched(store: store) { reports.append($0) }
        sendReports(store: store, now: loop.now)
        armAppNameTimer()
    }

    private func sendEvent(_ json: String) { sendEvent(Array((json + "\n").utf8)) }

    /// One `events` line (with its newline) to every subscriber.
    private func sendEvent(_ line: [UInt8]) {
        eventLinesFormatted &+= 1
        // Backwards: a client over its limit is dropped from the array here.
        var i = clients.count
        while i > 0 {
            i -= 1
            if clients[i].streamsEvents { send(line, to: clients[i]) }
        }
    }

    /// Streams a motor transition to every connection that asked for it.
    public func motorChanged(on: Bool, at instant: MonotonicInstant) {
        guard motorSubscribers > 0 else { return }
        motorLinesFormatted &+= 1
        motorLine.removeAll(keepingCapacity: true)
        motorLine.append(contentsOf: on ? Self.motorOn : Self.motorOff)
        JSONLineBuffer.appendDecimal(instant.nanoseconds, to: &motorLine)
        motorLine.append(0x0A)
        // Backwards: a client over its limit is dropped from the array here.
        var i = clients.count
        while i > 0 {
            i -= 1
            if clients[i].streamsMotor { send(motorLine, to: clients[i]) }
        }
    }

    private static let motorOn = Array("motor on ".utf8)
    private static let motorOff = Array("motor off ".utf8)

    private func accepted(_ connection: any LineChannel) {
        if clients.count >= limits.clients, let quiet = longestQuiet() {
            let seconds = (loop.now - quiet.lastHeard).components.seconds
            send(Array("error disconnected: quiet for \(seconds) s while another client waited (at most \(limits.clients) at once)\n".utf8), to: quiet)
            drop(quiet)
            logger.info("harness: \(limits.clients) clients connected; disconnected the one quiet longest (\(seconds) s) for a new one")
        }
        guard clients.count < limits.clients else {
            // The bytes, through the requirement: Embedded Swift compiled the
            // extension's write(String) on an `any LineChannel` as a dead-method
            // stub (the daemon stopped with SIGILL at the 17th client).
            connection.write(Array("error too many harness clients (\(limits.clients) connected); try again later\n".utf8))
            connection.close()
            if !refusalLogged {
                refusalLogged = true
                logger.warning("harness: \(limits.clients) clients connected; refusing more until one leaves")
            }
            return
        }
        let client = Client(connection, now: loop.now)
        do {
            client.source = try loop.addSource(fd: connection.pollDescriptor, events: .readable) {
                [unowned(unsafe) self, unowned(unsafe) client] events in
                self.service(client, events)
            }
        } catch {
            logger.warning("harness: \(error)")
            connection.close()
            return
        }
        clients.append(client)
        logger.debug("harness: client connected")
    }

    private func service(_ client: Client, _ events: IOEvents) {
        if events.contains(.writable) {
            if !client.connection.flush() { return drop(client) }
            updateInterest(client)
        }
        guard events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) else { return }
        switch client.connection.readLines() {
        case .closed:
            drop(client)
        case .lineTooLong(let limit):
            drop(client)
            if let heldBack = overflowLog.admit(now: loop.now) {
                let more = heldBack > 0 ? " (and \(heldBack) more since the last such line)" : ""
                logger.warning("harness: disconnected a client that sent a line over \(limit) bytes\(more)")
            }
        case .lines(let lines):
            if !lines.isEmpty { client.lastHeard = loop.now }
            for line in lines {
                handle(line, from: client)
                if !client.connection.isOpen { return drop(client) }
            }
        }
    }

    private func handle(_ line: String, from client: Client) {
        switch HarnessCommand.parse(line) {
        case .failure(let e):
            send("error \(e.message)\n", to: client)
        case .success(let command):
            perform(command, for: client)
        }
    }

    private func perform(_ command: HarnessCommand, for client: Client) {
        switch command {
        case .press(let role):
            guard setButton(role, true, client) else { return }
            loop.schedule(after: .milliseconds(80)) { [lifetime, unowned(unsafe) self] in
                guard !lifetime.isOver else { return }
                _ = self.hooks.setButton(role, false)  // released even when the client has gone
                guard client.isOpen else { return }
                self.replyAfterSettling("ok press \(role.rawValue)\n", to: client)
            }
        case .double(let role):
            guard setButton(role, true, client) else { return }
            loop.schedule(after: .milliseconds(80)) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { _ = self.hooks.setButton(role, false) } }
            loop.schedule(after: .milliseconds(160)) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { _ = self.hooks.setButton(role, true) } }
            loop.schedule(after: .milliseconds(240)) { [lifetime, unowned(unsafe) self] in
                guard !lifetime.isOver else { return }
                _ = self.hooks.setButton(role, false)
                guard client.isOpen else { return }
                self.replyAfterSettling("ok double \(role.rawValue)\n", to: client)
            }
        case .hold(let role, let ms):
            guard setButton(role, true, client) else { return }
            if let ms {
                loop.schedule(after: .milliseconds(Int64(ms))) { [lifetime, unowned(unsafe) self] in
                    guard !lifetime.isOver else { return }
                    _ = self.hooks.setButton(role, false)
                    guard client.isOpen else { return }
                    self.replyAfterSettling("ok hold \(role.rawValue)\n", to: client)
                }
            } else {
                if !client.held.contains(role) { client.held.append(role) }
                send("ok hold \(role.rawValue)\n", to: client)
            }
        case .release(let role):
            guard setButton(role, false, client) else { return }
            client.held.removeAll { $0 == role }
            replyAfterSettling("ok release \(role.rawValue)\n", to: client)
        case .motor:
            if !client.streamsMotor {
                client.streamsMotor = true
                motorSubscribers += 1
            }
            send("ok motor\n", to: client)
        case .events:
            if !client.streamsEvents {
                client.streamsEvents = true
                eventSubscribers += 1
            }
            send("ok events\n", to: client)
        case .snapshot(let format):
            let bytes = hooks.snapshot(format)
            send("snapshot \(format.rawValue) \(bytes.count)\n", to: client)
            send(bytes, to: client)
        case .notifications:
            send("notifications \(hooks.notificationsJSON())\n", to: client)
        case .state:
            send("state \(hooks.stateJSON())\n", to: client)
        case .battery(let percent, let charging):
            if hooks.setBattery(percent, charging) {
                replyAfterSettling("ok battery \(percent)\(charging ? " charging" : "")\n", to: client)
            } else {
                send("error battery: only the simulated board's battery can be set, and its board file needs a \"battery\"\n", to: client)
            }
        case .phoneBattery(let level):
            if hooks.setPhoneBattery(level) {
                replyAfterSettling("ok battery phone \(level)\n", to: client)
            } else {
                send("error battery phone: only the built-in simulated iPhone's battery can be set\n", to: client)
            }
        case .clearHistory:
            if hooks.clearHistory() {
                send("ok history clear\n", to: client)
            } else {
                send("error history clear: no notification history is kept, or its file cannot be deleted (the log says why)\n", to: client)
            }
        case .help:
            send(HarnessCommand.helpText + "\nok help\n", to: client)
        case .quit:
            send("ok quit\n", to: client)
            drop(client)
        }
    }

    /// Replies once the release has outlasted any debounce (50 ms), so the
    /// next command's edges cannot be taken for a bounce of this one.
    private func replyAfterSettling(_ text: String, to client: Client) {
        loop.schedule(after: .milliseconds(50)) { [lifetime, unowned(unsafe) self] in
            guard !lifetime.isOver, client.isOpen else { return }
            self.send(text, to: client)
        }
    }

    private func setButton(_ role: ButtonRole, _ active: Bool, _ client: Client) -> Bool {
        if hooks.setButton(role, active) { return true }
        send("error this board has no '\(role.rawValue)' button\n", to: client)
        return false
    }

    private func send(_ text: String, to client: Client) { send(Array(text.utf8), to: client) }

    /// Queues `bytes` for `client`, or drops it when its unread replies would
    /// pass `limits.queuedOutput` (callers check `isOpen` afterwards).
    private func send(_ bytes: [UInt8], to client: Client) {
        let connection = client.connection
        guard connection.isOpen else { return }
        if connection.queuedOutputCount > 0 && !connection.flush() { return drop(client) }
        if connection.queuedOutputCount + bytes.count > limits.queuedOutput {
            let queued = connection.queuedOutputCount
            drop(client)
            if let heldBack = overflowLog.admit(now: loop.now) {
                let more = heldBack > 0 ? " (and \(heldBack) more since the last such line)" : ""
                logger.warning("harness: disconnected a client that does not read its replies (\(queued) bytes unread, limit \(limits.queuedOutput))\(more)")
            }
            return
        }
        guard connection.write(bytes) else { return drop(client) }
        updateInterest(client)
    }

    /// Watches for writability only while output is queued (one epoll_ctl per change, not per line).
    private func updateInterest(_ client: Client) {
        guard let s = client.source, client.connection.isOpen else { return }
        // The requirement, not the extension's hasPendingOutput: Embedded Swift
        // compiles an extension member called on an existential as a trap.
        let pending = client.connection.queuedOutputCount > 0
        guard pending != client.watchingWritable else { return }
        client.watchingWritable = pending
        try? loop.updateSource(s, events: pending ? [.readable, .writable] : .readable)
    }

    /// The client quiet longest, when quiet for at least `limits.idleEviction`.
    private func longestQuiet() -> Client? {
        var quietest: Client?
        for c in clients where loop.now - c.lastHeard >= limits.idleEviction {
            if quietest == nil || c.lastHeard < quietest!.lastHeard { quietest = c }
        }
        return quietest
    }

    /// Stops watching, closes and forgets a client (idempotent). The source
    /// goes before the descriptor, whose number a new client may get next.
    private func drop(_ client: Client) {
        guard client.isOpen else { return }
        client.isOpen = false
        // A button it held open-ended is let go: nobody else would release it.
        for role in client.held { _ = hooks.setButton(role, false) }
        client.held.removeAll()
        if let s = client.source { loop.removeSource(s) }
        client.source = nil
        client.connection.close()
        guard let i = clients.firstIndex(where: { $0 === client }) else { return }
        clients.remove(at: i)
        if client.streamsMotor {
            client.streamsMotor = false
            motorSubscribers -= 1
        }
        if client.streamsEvents {
            client.streamsEvents = false
            eventSubscribers -= 1
            if eventSubscribers == 0 { notificationEvents.reset() }
        }
        refusalLogged = false
        logger.debug("harness: client disconnected")
    }
}
