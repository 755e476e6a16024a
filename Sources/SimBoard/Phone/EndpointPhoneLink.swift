import HAL

/// A phone link accepted on the phone endpoint, which says when it ends:
/// the simulated board then reports the link down and advertising again, as
/// a real board's Bluetooth does (the status bar and the harness `state`
/// follow the link). Closing is what ends it: the ATT bearer closes its
/// channel on every way out (the peer hung up, an error, the watch let go).
///
/// Everything else is passed straight through (no allocation per packet).
final class EndpointPhoneLink: PacketChannel {
    private let channel: any PacketChannel
    private var onClose: (() -> Void)?

    init(_ channel: any PacketChannel, onClose: @escaping () -> Void) {
        self.channel = channel
        self.onClose = onClose
    }

    var pollDescriptor: Int32 { channel.pollDescriptor }
    var isOpen: Bool { channel.isOpen }

    func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        try channel.send(message)
    }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        try channel.receive(into: buffer)
    }

    func close() {
        channel.close()
        if let ended = onClose.take() { ended() }
    }

    deinit { close() }
}
