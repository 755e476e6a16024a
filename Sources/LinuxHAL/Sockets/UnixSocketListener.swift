import CLinux
import HAL

/// A listening `AF_UNIX` socket at a filesystem path: the simulated phone
/// endpoint (`SOCK_SEQPACKET`: one message per ATT PDU, like L2CAP) and the
/// harness endpoint (`SOCK_STREAM`: a line protocol).
///
/// Whoever can connect can press the watch's buttons and read its
/// notifications, so the socket file is made 0600 whatever the umask: it is
/// chmodded after `bind` and before `listen`. The file exists with the
/// umask's mode for that moment, but nobody can connect to a socket that is
/// not listening yet (ECONNREFUSED), so there is no window. (Narrowing the
/// umask around `bind` would do the same, but the umask is process-wide: in
/// a test process running suites on several threads it would change the mode
/// of files other threads create meanwhile.)
///
/// An existing socket file is probed first: if something answers, another
/// daemon is using it and this one refuses to start; a stale file nobody
/// answers on is replaced. On close the file is removed only if it is still
/// the one this listener created (same device and inode).
///
/// Non-blocking; the run loop watches `pollDescriptor` and calls `accept()`
/// until it returns nil.
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

    /// The socket file's mode: the owner only.
    public static let fileMode: mode_t = 0o600

    public let path: String
    public let kind: Kind
    private var fd: FileDescriptor?
    /// The socket file this listener created (device, inode), so close
    /// removes only its own file, never one a later daemon put there.
    private let file: (device: UInt, inode: UInt)

    /// Binds (mode 0600) and listens with a backlog of `SOMAXCONN` (the
    /// kernel caps it at net.core.somaxconn). A stale socket file left by a
    /// crashed run is replaced; a live one (something accepts connections
    /// on it) or any other existing file is an error, and is never deleted.
    public init(path: String, kind: Kind, backlog: Int32 = SOMAXCONN) throws(HALError) {
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
            guard (st.st_mode & wc_s_ifmt()) == wc_s_ifsock() else {
                throw HALError(operation: "listen on \(path)", errno: EEXIST, reason: "a file that is not a socket is in the way",
                               hint: "pick another path or remove that file")
            }
            if try Self.someoneListens(at: path, kind: kind) {
                throw HALError(operation: "listen", errno: EADDRINUSE, reason: "another wristcore is listening on \(path)",
                               hint: "stop it first, or give this one another path")
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
        // Before listen: until then nobody can connect, whatever the mode.
        var created = stat()
        if chmod(path, Self.fileMode) != 0 || lstat(path, &created) != 0 || (created.st_mode & wc_s_ifmt()) != wc_s_ifsock() {
            let e = Errno.current
            unlink(path)
            throw e.halError("make \(path) private (mode 0600)")
        }
        file = (UInt(created.st_dev), UInt(created.st_ino))
        if listen(raw, backlog) != 0 {
            let e = Errno.current
            unlink(path)
            throw e.halError("listen on \(path)")
        }
        fd = consume descriptor
    }

    /// Whether a connection to `path` is accepted, or at least queued (a full
    /// backlog answers EAGAIN, a listener of the other socket type
    /// EPROTOTYPE: live listeners too). "Refused" (or the file gone) means
    /// nobody is there; anything else (EACCES) cannot be decided and is thrown.
    private static func someoneListens(at path: String, kind: Kind) throws(HALError) -> Bool {
        do {
            let probe = try connect(path: path, kind: kind, nonBlocking: true)
            probe.close()
            return true
        } catch {
            switch error.errno {
            case ECONNREFUSED, ENOENT: return false
            case EAGAIN, EPROTOTYPE: return true
            default: throw HALError(operation: "check whether something listens on \(path)", errno: error.errno, reason: error.reason)
            }
        }
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }

    /// The next pending connection (non-blocking, close-on-exec), or nil.
    /// Throws when the kernel cannot give one (EMFILE at the descriptor
    /// limit): the caller must stop watching for a while, since the
    /// connection stays pending and the socket stays readable.
    public func accept() throws(HALError) -> FileDescriptor? {
        guard let raw = fd?.rawValue else { return nil }
        while true {
            let c = CLinux.accept(raw, nil, nil)
            if c >= 0 {
                // accept4 is not in Glibc's Swift overlay: set the flags by hand.
                _ = wc_fcntl_int(c, F_SETFD, FD_CLOEXEC)
                _ = wc_fcntl_int(c, F_SETFL, wc_fcntl(c, F_GETFL) | O_NONBLOCK)
                return FileDescriptor(adopting: c)
            }
            let e = Errno.current
            if e == .interrupted || e.rawValue == ECONNABORTED { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return nil }
            throw e.halError("accept on \(path)")
        }
    }

    /// Stops listening and removes the socket file if it is still the one
    /// this listener created (idempotent).
    public func close() {
        guard let d = fd.take() else { return }
        d.close()
        var st = stat()
        if lstat(path, &st) == 0, UInt(st.st_dev) == file.device, UInt(st.st_ino) == file.inode {
            unlink(path)
        }
    }

    deinit { close() }

    /// Connects to a listening socket (used by tests and tools that play the
    /// phone or drive the harness). Blocking connect, then non-blocking.
    /// With `nonBlocking`, the connect itself does not wait (a full backlog
    /// is EAGAIN instead of a wait).
    public static func connect(path: String, kind: Kind, nonBlocking: Bool = false) throws(HALError) -> FileDescriptor {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw HALError(operation: "connect to \(path)", errno: ENAMETOOLONG, reason: "path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let type = kind.socketType | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let raw = socket(AF_UNIX, type, 0)
        if raw < 0 { throw Errno.current.halError("socket(AF_UNIX)") }
        let descriptor = FileDescriptor(adopting: raw)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { CLinux.connect(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 { throw Errno.current.halError("connect to \(path)", hint: "is 'wristcore run' listening there?") }
        let flags = wc_fcntl(raw, F_GETFL)
        _ = wc_fcntl_int(raw, F_SETFL, flags | O_NONBLOCK)
        return descriptor
    }
}
