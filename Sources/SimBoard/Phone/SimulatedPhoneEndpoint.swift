import HAL
import LinuxHAL
import Logging
import Loop

/// The simulated board's phone endpoint: a Unix `SOCK_SEQPACKET` socket where
/// each accepted connection is one BLE link carrying raw ATT PDUs, so any
/// program can play the iPhone (docs/harness.md). One phone at a time, as on
/// the air: a second connection is refused while one is up.
public final class SimulatedPhoneEndpoint {
    public let path: String
    private let listener: UnixSocketListener
    private let loop: EventLoop
    private let logger: Logger
    private var source: SourceID?
    /// Given each accepted link; returns false to refuse it (one is already up).
    private let connected: (SeqPacketChannel) -> Bool

    public init(path: String, loop: EventLoop, logger: Logger, connected: @escaping (SeqPacketChannel) -> Bool) throws(HALError) {
        self.path = path
        self.loop = loop
        self.logger = logger
        self.connected = connected
        listener = try UnixSocketListener(path: path, kind: .seqPacket)
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
            let channel: SeqPacketChannel
            do {
                guard let fd = try listener.accept() else { return }
                channel = try SeqPacketChannel(adopting: fd, name: "phone link")
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
