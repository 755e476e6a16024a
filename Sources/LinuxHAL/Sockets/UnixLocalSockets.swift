import HAL

/// `LocalSockets` with `AF_UNIX` sockets: stream listeners for line
/// protocols, `SOCK_SEQPACKET` listeners and socket pairs for packet links.
public final class UnixLocalSockets: LocalSockets {
    public init() {}

    public func listenForLines(at path: String) throws(HALError) -> any ConnectionListener<any LineChannel> {
        try UnixLineListener(path: path)
    }

    public func listenForPackets(at path: String, linkName: String) throws(HALError) -> any ConnectionListener<any PacketChannel> {
        try UnixPacketListener(path: path, linkName: linkName)
    }

    public func packetPair(names: (String, String)) throws(HALError) -> (any PacketChannel, any PacketChannel) {
        let (a, b) = try SeqPacketChannel.pair(names: names)
        return (a, b)
    }
}
