import Glibc
import HAL

/// `socketpair(AF_UNIX, SOCK_SEQPACKET)`: two connected ends that keep message
/// boundaries exactly like an L2CAP channel. Tests and the simulator use it as
/// a Bluetooth link.
public func makeSeqPacketPair(nonBlocking: Bool = true) throws(Errno) -> (FileDescriptor, FileDescriptor) {
    var fds: (Int32, Int32) = (-1, -1)
    var type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
    let rc = withUnsafeMutablePointer(to: &fds) {
        $0.withMemoryRebound(to: Int32.self, capacity: 2) { socketpair(AF_UNIX, type, 0, $0) }
    }
    if rc != 0 { throw Errno.current }
    return (FileDescriptor(adopting: fds.0), FileDescriptor(adopting: fds.1))
}
