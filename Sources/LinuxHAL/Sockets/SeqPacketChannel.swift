import CLinux
import HAL

/// A `PacketChannel` over a connected, non-blocking message socket: one end of
/// an `AF_UNIX`/`SOCK_SEQPACKET` socket pair (tests, the simulator) or an
/// L2CAP LE socket on the ATT channel (the watch). Both keep message
/// boundaries, so the code is the same.
///
/// Owns the descriptor and closes it in `close()` or on deinit.
public final class SeqPacketChannel: PacketChannel {
    private var fd: FileDescriptor?
    /// Kept after close for diagnostics.
    public let name: String

    /// Takes ownership of a connected descriptor and makes it non-blocking.
    public init(adopting descriptor: consuming FileDescriptor, name: String = "link") throws(HALError) {
        let raw = descriptor.rawValue
        let flags = wc_fcntl(raw, F_GETFL)
        if flags < 0 || wc_fcntl_int(raw, F_SETFL, flags | O_NONBLOCK) < 0 {
            let e = Errno.current
            throw e.halError("make \(name) non-blocking")
        }
        self.fd = consume descriptor
        self.name = name
    }

    /// Both ends of a fresh `socketpair(AF_UNIX, SOCK_SEQPACKET)`, as channels.
    public static func pair(names: (String, String) = ("watch", "phone")) throws(HALError) -> (SeqPacketChannel, SeqPacketChannel) {
        var fds: (Int32, Int32) = (-1, -1)
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let rc = withUnsafeMutablePointer(to: &fds) {
            $0.withMemoryRebound(to: Int32.self, capacity: 2) { socketpair(AF_UNIX, type, 0, $0) }
        }
        if rc != 0 { throw Errno.current.halError("socketpair(AF_UNIX, SOCK_SEQPACKET)") }
        let (a, b) = fds
        let first = try SeqPacketChannel(adopting: FileDescriptor(adopting: a), name: names.0)
        let second = try SeqPacketChannel(adopting: FileDescriptor(adopting: b), name: names.1)
        return (first, second)
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }
    public var isOpen: Bool { fd != nil }

    public func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        guard let raw = fd?.rawValue else { throw Errno(EBADF).halError("send on closed \(name)") }
        while true {
            let n = CLinux.send(raw, message.baseAddress, message.count, Int32(MSG_NOSIGNAL))
            if n == message.count { return .sent }
            if n >= 0 {
                // SEQPACKET sends are atomic; a short count means the transport is not what we think.
                throw HALError(operation: "send on \(name)", errno: 0, reason: "short send of \(n) of \(message.count) bytes")
            }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return .wouldBlock }
            throw e.halError("send on \(name)")
        }
    }

    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        guard let raw = fd?.rawValue else { return .closed }
        while true {
            // MSG_TRUNC makes recv return the real message length, so an
            // oversized message is detected instead of silently cut.
            let n = CLinux.recv(raw, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC))
            if n > buffer.count {
                throw HALError(
                    operation: "receive on \(name)", errno: EMSGSIZE,
                    reason: "message of \(n) bytes exceeds the \(buffer.count)-byte buffer")
            }
            if n > 0 { return .packet(n) }
            if n == 0 { return .closed }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return .wouldBlock }
            if e.rawValue == ECONNRESET || e.rawValue == ENOTCONN || e.rawValue == EPIPE { return .closed }
            throw e.halError("receive on \(name)")
        }
    }

    public func close() {
        if let d = fd.take() { d.close() }
    }
}
