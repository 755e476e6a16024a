// CBluetooth brings <sys/socket.h> in a way release (whole-module) builds see:
// Glibc alone does not show SOCK_SEQPACKET, SOCK_CLOEXEC or MSG_TRUNC there.
import CBluetooth
import Glibc
import HAL

/// A listening `AF_UNIX` socket at a filesystem path: the simulated phone
/// endpoint (`SOCK_SEQPACKET`: one message per ATT PDU, like L2CAP) and the
/// harness endpoint (`SOCK_STREAM`: a line protocol).
///
/// Non-blocking; the run loop watches `pollDescriptor` and calls `accept()`
/// until it returns nil. The socket file is removed on close.
public final class UnixSocketListener {
    public enum Kind: Sendable {
        case seqPacket, stream
        var socketType: Int32 {
            switch self {
            case .seqPacket: Int32(SOCK_SEQPACKET.rawValue)
            case .stream: Int32(SOCK_STREAM.rawValue)
            }
        }
    }

    public let path: String
    public let kind: Kind
    private var fd: FileDescriptor?

    /// Binds and listens. A stale socket file left by a crashed run is
    /// replaced; any other existing file is an error (never deleted).
    public init(path: String, kind: Kind, backlog: Int32 = 4) throws(HALError) {
        self.path = path
        self.kind = kind
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw HALError(operation: "listen on \(path)", errno: ENAMETOOLONG, reason: "path longer than \(capacity - 1) bytes",
                           hint: "use a shorter path, e.g. /tmp/wristcore-phone.sock")
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw HALError(operation: "listen on \(path)", errno: EEXIST, reason: "a file that is not a socket is in the way",
                               hint: "pick another path or remove that file")
            }
            unlink(path)
        }
        let raw = socket(AF_UNIX, kind.socketType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        if raw < 0 { throw Errno.current.halError("socket(AF_UNIX) for \(path)") }
        let descriptor = FileDescriptor(adopting: raw)
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if bound != 0 {
            let e = Errno.current
            throw e.halError("bind \(path)", hint: e == .permissionDenied ? "the directory is not writable; pick another path" : nil)
        }
        if listen(raw, backlog) != 0 { throw Errno.current.halError("listen on \(path)") }
        fd = consume descriptor
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }

    /// The next pending connection (non-blocking, close-on-exec), or nil.
    public func accept() throws(HALError) -> FileDescriptor? {
        guard let raw = fd?.rawValue else { return nil }
        while true {
            let c = Glibc.accept(raw, nil, nil)
            if c >= 0 {
                // accept4 is not in Glibc's Swift overlay: set the flags by hand.
                _ = fcntl(c, F_SETFD, FD_CLOEXEC)
                _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
                return FileDescriptor(adopting: c)
            }
            let e = Errno.current
            if e == .interrupted || e.rawValue == ECONNABORTED { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return nil }
            throw e.halError("accept on \(path)")
        }
    }

    /// Stops listening and removes the socket file (idempotent).
    public func close() {
        if let d = fd.take() {
            d.close()
            unlink(path)
        }
    }

    deinit { close() }

    /// Connects to a listening socket (used by tests and tools that play the
    /// phone or drive the harness). Blocking connect, then non-blocking.
    public static func connect(path: String, kind: Kind) throws(HALError) -> FileDescriptor {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw HALError(operation: "connect to \(path)", errno: ENAMETOOLONG, reason: "path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let raw = socket(AF_UNIX, kind.socketType | Int32(SOCK_CLOEXEC.rawValue), 0)
        if raw < 0 { throw Errno.current.halError("socket(AF_UNIX)") }
        let descriptor = FileDescriptor(adopting: raw)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 { throw Errno.current.halError("connect to \(path)", hint: "is 'wristcore run' listening there?") }
        let flags = fcntl(raw, F_GETFL)
        _ = fcntl(raw, F_SETFL, flags | O_NONBLOCK)
        return descriptor
    }
}
