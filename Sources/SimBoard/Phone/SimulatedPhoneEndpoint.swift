import HAL
import Logging
import Loop

/// The simulated board's phone endpoint: a Unix `SOCK_SEQPACKET` socket where
/// each accepted connection is one BLE link carrying raw ATT PDUs, so any
/// program can play the iPhone (docs/harness.md). One phone at a time, as on
/// the air: a second connection is refused while one is up. The socket comes
/// from the injected `LocalSockets`.
public final class SimulatedPhoneEndpoint {
    public let path: String
    private let listener: any ConnectionListener<any PacketChannel>
    private let loop: EventLoop
    private let logger: Logger
    private var source: SourceID?
    /// Given each accepted link; returns false to refuse it (one is already up).
    private let connected: (any PacketChannel) -> Bool

    public init(
        path: String, sockets: any LocalSockets, loop: EventLoop, logger: Logger, connected: @escaping (any PacketChannel) -> Bool
    ) throws(HALError) {
        self.path = path
        self.loop = loop
        self.logger = logger
        self.connected = connected
        listener = try sockets.listenForPackets(at: path, linkName: "phone link")
        source = try loop.addSource(fd: listener.pollDescriptor, events: .readable) { [unowned self] _ in self.acceptAll() }
    }

    deinit { close() }

    public func close() {
        if let s = source { loop.removeSource(s) }
        source = nil
        listener.close()
    }

    private func acceptAll() {
        while true {
            let channel: any PacketChannel
            do {
                guard let accepted = try listener.accept() else { return }
                channel = accepted
            } catch {
                logger.warning("phone endpoint: \(error)")
                return
            }
            if !connected(channel) {
                logger.notice("phone endpoint: refused a second phone (one link at a time)")
                channel.close()
            }
        }
    }
}
