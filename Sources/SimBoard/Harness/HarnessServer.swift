import BoardConfig
import HAL
import Logging
import Loop

/// The harness endpoint: a Unix stream socket speaking the line protocol of
/// `HarnessCommand` (docs/harness.md), so scripts and tests in any language
/// can press the watch's buttons, follow its motor and look at its screen.
/// The socket comes from the injected `LocalSockets`.
///
/// Not part of the steady-state path: it allocates freely.
public final class HarnessServer {
    /// What the server can do to the watch.
    public struct Hooks {
        /// Changes a button's level; false when the board has no such button.
        public var setButton: (ButtonRole, Bool) -> Bool
        public var snapshot: (HarnessCommand.SnapshotFormat) -> [UInt8]
        public var notificationsJSON: () -> String
        public var stateJSON: () -> String
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

    private final class Client {
        let connection: any LineChannel
        var source: SourceID?
        var streamsMotor = false
        init(_ c: any LineChannel) { connection = c }
    }

    public let path: String
    private let listener: any ConnectionListener<any LineChannel>
    private let loop: EventLoop
    private let logger: Logger
    private let hooks: Hooks
    private var listenerSource: SourceID?
    private var clients: [ObjectIdentifier: Client] = [:]

    public init(path: String, sockets: any LocalSockets, loop: EventLoop, logger: Logger, hooks: Hooks) throws(HALError) {
        self.path = path
        self.loop = loop
        self.logger = logger
        self.hooks = hooks
        listener = try sockets.listenForLines(at: path)
        listenerSource = try loop.addSource(fd: listener.pollDescriptor, events: .readable) { [unowned self] _ in self.acceptAll() }
    }

    deinit { close() }

    public func close() {
        if let s = listenerSource { loop.removeSource(s) }
        listenerSource = nil
        for c in clients.values { drop(c) }
        listener.close()
    }

    /// Streams a motor transition to every connection that asked for it.
    public func motorChanged(on: Bool, at instant: MonotonicInstant) {
        let line = "motor \(on ? "on" : "off") \(instant.nanoseconds)\n"
        for c in clients.values where c.streamsMotor { send(line, to: c) }
    }

    private func acceptAll() {
        while true {
            let accepted: (any LineChannel)?
            do { accepted = try listener.accept() } catch {
                logger.warning("harness: \(error)")
                return
            }
            guard let connection = accepted else { return }
            let client = Client(connection)
            let id = ObjectIdentifier(client)
            do {
                client.source = try loop.addSource(fd: client.connection.pollDescriptor, events: .readable) {
                    [unowned self, unowned client] events in
                    self.service(client, events)
                }
                clients[id] = client
                logger.debug("harness: client connected")
            } catch {
                logger.warning("harness: \(error)")
            }
        }
    }

    private func service(_ client: Client, _ events: IOEvents) {
        if events.contains(.writable) {
            client.connection.flush()
            updateInterest(client)
        }
        guard events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) else { return }
        switch client.connection.readLines() {
        case .closed:
            drop(client)
        case .lines(let lines):
            for line in lines where !line.isEmpty {
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
            loop.schedule(after: .milliseconds(80)) { [weak self, weak client] in
                guard let self, let client else { return }
                _ = self.hooks.setButton(role, false)
                self.replyAfterSettling("ok press \(role.rawValue)\n", to: client)
            }
        case .double(let role):
            guard setButton(role, true, client) else { return }
            loop.schedule(after: .milliseconds(80)) { [weak self] in _ = self?.hooks.setButton(role, false) }
            loop.schedule(after: .milliseconds(160)) { [weak self] in _ = self?.hooks.setButton(role, true) }
            loop.schedule(after: .milliseconds(240)) { [weak self, weak client] in
                guard let self, let client else { return }
                _ = self.hooks.setButton(role, false)
                self.replyAfterSettling("ok double \(role.rawValue)\n", to: client)
            }
        case .hold(let role, let ms):
            guard setButton(role, true, client) else { return }
            if let ms {
                loop.schedule(after: .milliseconds(Int64(ms))) { [weak self, weak client] in
                    guard let self, let client else { return }
                    _ = self.hooks.setButton(role, false)
                    self.replyAfterSettling("ok hold \(role.rawValue)\n", to: client)
                }
            } else {
                send("ok hold \(role.rawValue)\n", to: client)
            }
        case .release(let role):
            guard setButton(role, false, client) else { return }
            replyAfterSettling("ok release \(role.rawValue)\n", to: client)
        case .motor:
            client.streamsMotor = true
            send("ok motor\n", to: client)
        case .snapshot(let format):
            let bytes = hooks.snapshot(format)
            send("snapshot \(format.rawValue) \(bytes.count)\n", to: client)
            client.connection.write(bytes)
            updateInterest(client)
        case .notifications:
            send("notifications \(hooks.notificationsJSON())\n", to: client)
        case .state:
            send("state \(hooks.stateJSON())\n", to: client)
        case .help:
            send(HarnessCommand.helpText + "\nok help\n", to: client)
        case .quit:
            send("ok quit\n", to: client)
            client.connection.close()
        }
    }

    /// Replies once the release has outlasted any debounce (50 ms), so the
    /// next command's edges cannot be taken for a bounce of this one.
    private func replyAfterSettling(_ text: String, to client: Client) {
        loop.schedule(after: .milliseconds(50)) { [weak self, weak client] in
            guard let self, let client else { return }
            self.send(text, to: client)
        }
    }

    private func setButton(_ role: ButtonRole, _ active: Bool, _ client: Client) -> Bool {
        if hooks.setButton(role, active) { return true }
        send("error this board has no '\(role.rawValue)' button\n", to: client)
        return false
    }

    private func send(_ text: String, to client: Client) {
        guard client.connection.isOpen else { return }
        client.connection.write(text)
        updateInterest(client)
    }

    private func updateInterest(_ client: Client) {
        guard let s = client.source, client.connection.isOpen else { return }
        try? loop.updateSource(s, events: client.connection.hasPendingOutput ? [.readable, .writable] : .readable)
    }

    private func drop(_ client: Client) {
        if let s = client.source { loop.removeSource(s) }
        client.source = nil
        client.connection.close()
        clients[ObjectIdentifier(client)] = nil
        logger.debug("harness: client disconnected")
    }
}
