import CLinux
import HAL
import TextFormat

/// `sd_notify` without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or
/// an abstract socket written "@name"). The daemon sends READY=1 once the
/// Bluetooth controller is up, WATCHDOG=1 from a loop timer at half of
/// `$WATCHDOG_USEC` (so a hung loop gets restarted by systemd) while the
/// Bluetooth side is healthy, STATUS= lines, and STOPPING=1 at shutdown
/// (WristCore's `SystemdSupervisor` decides what and when).
public final class SystemdNotifier {
    private let fd: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    /// The socket named by `$NOTIFY_SOCKET`, as given.
    public let socketName: String

    /// The notifier for this process, or nil when not started by systemd with Type=notify.
    public static func fromEnvironment() throws(HALError) -> SystemdNotifier? {
        guard let v = getenv("NOTIFY_SOCKET"), v.pointee != 0 else { return nil }
        return try SystemdNotifier(socket: String(cString: v))
    }

    /// How often to send WATCHDOG=1: half of `$WATCHDOG_USEC`, when the
    /// watchdog is on for this process (`$WATCHDOG_PID` unset or ours).
    public static func watchdogPingInterval() -> Duration? {
        watchdogTimeout().map { $0 / 2 }
    }

    /// The unit's watchdog timeout (`$WATCHDOG_USEC`, from WatchdogSec=),
    /// when the watchdog is on for this process (`$WATCHDOG_PID` unset or ours).
    public static func watchdogTimeout() -> Duration? {
        guard let usecText = getenv("WATCHDOG_USEC"), let usec = IntegerText.uint64(String(cString: usecText)), usec > 0 else { return nil }
        if let pidText = getenv("WATCHDOG_PID"), let pid = IntegerText.integer(String(cString: pidText), in: Int64(Int32.min)...Int64(Int32.max)).map({ Int32($0) }), pid != getpid() { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    /// A notifier for `socket`: a filesystem path or "@abstract-name".
    public init(socket name: String) throws(HALError) {
        socketName = name
        var path = Array(name.utf8)
        guard path.first == UInt8(ascii: "/") || path.first == UInt8(ascii: "@") else {
            throw HALError(operation: "use NOTIFY_SOCKET=\(name)", errno: EINVAL, reason: "not an absolute path or @abstract name")
        }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else {
            throw HALError(operation: "use NOTIFY_SOCKET=\(name)", errno: ENAMETOOLONG, reason: "socket name too long")
        }
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }  // Linux abstract namespace: leading NUL, no terminator
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { p in
            for (i, b) in path.enumerated() { p[i] = b }
        }
        let pathOffset = wc_sockaddr_un_path_offset()
        addressLength = socklen_t(pathOffset + path.count + (abstract ? 0 : 1))
        fd = CLinux.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw Errno.current.halError("open the systemd notification socket") }
    }

    deinit { _ = CLinux.close(fd) }

    /// Sends one state block, e.g. "READY=1\nSTATUS=advertising".
    public func notify(_ state: String) throws(HALError) {
        let bytes = Array(state.utf8)
        let n = bytes.withUnsafeBytes { b in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, b.baseAddress, b.count, Int32(MSG_NOSIGNAL), $0, addressLength)
                }
            }
        }
        if n < 0 { throw Errno.current.halError("notify systemd (\(socketName))") }
    }

    public func ready(status: String? = nil) throws(HALError) {
        try notify("READY=1" + (status.map { "\nSTATUS=\($0)" } ?? ""))
    }
    public func watchdog() throws(HALError) { try notify("WATCHDOG=1") }
    public func stopping() throws(HALError) { try notify("STOPPING=1") }
    public func status(_ text: String) throws(HALError) { try notify("STATUS=\(text)") }
    /// A ping that also changes the watchdog timeout, counted from now
    /// (WATCHDOG_USEC= needs systemd 236+; older ones keep WatchdogSec=).
    public func watchdog(timeout: Duration) throws(HALError) {
        try notify("WATCHDOG=1\nWATCHDOG_USEC=\(max(1, timeout.nanosecondsClamped / 1000))")
    }
}
