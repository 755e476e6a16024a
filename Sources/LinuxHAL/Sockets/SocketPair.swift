import CLinux
import HAL

/// Two connected ends of `socketpair(AF_UNIX, SOCK_SEQPACKET)`, which keep
/// message boundaries exactly like an L2CAP channel. Tests and the simulator
/// use it as a Bluetooth link.
@frozen public struct SeqPacketPair: ~Copyable {
    public var first: FileDescriptor
    public var second: FileDescriptor

    public init(nonBlocking: Bool = true) throws(Errno) {
        var fds: (Int32, Int32) = (-1, -1)
        var type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let rc = withUnsafeMutablePointer(to: &fds) {
            $0.withMemoryRebound(to: Int32.self, capacity: 2) { socketpair(AF_UNIX, type, 0, $0) }
        }
        if rc != 0 { throw Errno.current }
        first = FileDescriptor(adopting: fds.0)
        second = FileDescriptor(adopting: fds.1)
    }
}
