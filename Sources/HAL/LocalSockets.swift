/// The local endpoints the simulated board needs, without naming the OS: the
/// harness's line protocol, the phone endpoint's packet links, and the
/// in-process link of the built-in simulated iPhone. LinuxHAL implements it
/// with `AF_UNIX` sockets; the composition root injects it.
public protocol LocalSockets: AnyObject {
    /// Listens at `path` for stream connections carrying a line protocol.
    func listenForLines(at path: String) throws(HALError) -> any ConnectionListener<any LineChannel>
    /// Listens at `path` for message connections (`SOCK_SEQPACKET` on Linux):
    /// each is a packet channel that keeps message boundaries, like L2CAP.
    func listenForPackets(at path: String, linkName: String) throws(HALError) -> any ConnectionListener<any PacketChannel>
    /// Two connected packet channels in this process.
    func packetPair(names: (String, String)) throws(HALError) -> (any PacketChannel, any PacketChannel)
}
