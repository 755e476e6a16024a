import HAL
import Log
import Loop

/// The simulated board's phone endpoint: a Unix `SOCK_SEQPACKET` socket where
/// each accepted connection is one BLE link carrying raw ATT PDUs, so any
/// program can play the iPhone (docs/harness.md). One phone at a time, as on
/// the air: a second connection is refused while one is up. The socket comes
/// from the injected `LocalSockets`.
public final class SimulatedPhoneEndpoint {
    public let path: String
    private let logger: Logger
    private let loop: EventLoop
    private var refusalLog = LogThrottle(interval: .seconds(10))
    private var acceptor: ConnectionAcceptor<any PacketChannel>!
    /// Given each accepted link; returns false to refuse it (one is already up).
    private let connected: (any PacketChannel) -> Bool

    public init(
        path: String, sockets: any LocalSockets, loop: EventLoop, logger: Logger,
        acceptTiming: ConnectionAcceptor<any PacketChannel>.Timing = .init(), connected: @escaping (any PacketChannel) -> Bool
    ) throws(HALError) {
        self.path = path
        self.logger = logger
        self.loop = loop
        self.connected = connected
        let listener = try sockets.listenForPackets(at: path, linkName: "phone link")
        acceptor = try ConnectionAcceptor(listener: listener, loop: loop, logger: logger, label: "phone endpoint", timing: acceptTiming) {
            [unowned(unsafe) self] channel in self.accepted(channel)
        }
    }

    deinit { close() }

    public func close() { acceptor?.close() }

    private func accepted(_ channel: any PacketChannel) {
        guard !connected(channel) else { return }
        channel.close()
        if let heldBack = refusalLog.admit(now: loop.now) {
            let more = heldBack > 0 ? " (and \(heldBack) more since the last such line)" : ""
            logger.notice("phone endpoint: refused a second phone (one link at a time)\(more)")
        }
    }
}
