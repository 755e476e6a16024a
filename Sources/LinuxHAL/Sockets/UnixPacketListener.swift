import HAL

/// A listening `AF_UNIX` `SOCK_SEQPACKET` socket: each accepted connection is
/// a `SeqPacketChannel` (the simulated board's phone endpoint, one BLE link
/// per connection).
public final class UnixPacketListener: ConnectionListener {
    private let listener: UnixSocketListener
    /// The name accepted channels carry (for diagnostics).
    public let linkName: String

    public init(path: String, linkName: String = "link") throws(HALError) {
        listener = try UnixSocketListener(path: path, kind: .seqPacket)
        self.linkName = linkName
    }

    public var path: String { listener.path }
    public var pollDescriptor: Int32 { listener.pollDescriptor }

    public func accept() throws(HALError) -> (any PacketChannel)? {
        guard let fd = try listener.accept() else { return nil }
        return try SeqPacketChannel(adopting: fd, name: linkName)
    }

    public func close() { listener.close() }
}
