import CBluetooth
import CLinux
import HAL

/// A connected L2CAP LE channel on the ATT fixed channel (CID 4): one ATT PDU
/// per message (SOCK_SEQPACKET), non-blocking, plus the link's security
/// through `BT_SECURITY`.
///
/// ## How security completion is learned (kernel net/bluetooth/l2cap_sock.c)
/// `setsockopt(BT_SECURITY)` on a connected ATT channel calls
/// `smp_conn_security()`. If the link is already at the level that returns
/// non-zero and the kernel answers **EINVAL**; we then read the level back
/// and report it at once. Otherwise SMP starts (a Security Request from the
/// peripheral, or encryption with a stored key), the kernel sets
/// `FLAG_PENDING_SECURITY` and moves the socket to `BT_CONFIG`, in which
/// `bt_sock_poll()` reports **no POLLOUT** (reads still work). When
/// encryption completes, `l2cap_security_cfm()` → `l2cap_sock_resume_cb()`
/// puts it back to `BT_CONNECTED` and wakes the socket: it becomes
/// **writable** again, and `getsockopt(BT_SECURITY)` returns the new level.
/// Pairing that fails ends either in a disconnect (SMP timeout, HCI
/// Encryption Change failure: the socket hangs up) or in an mgmt
/// Authentication Failed event, which the owner forwards with
/// `securityRequestFailed()`.
///
/// So: after `requestSecurity`, the owner watches `securityWatchDescriptor`
/// (a dup of the socket, so it can sit in the same epoll set as the bearer's
/// registration) for writability and then calls `pollSecurity()`, which
/// reads the level back and fires `securityChangeHandler`.
/// `securityRequestStarted` tells the owner when to start watching.
public final class L2CAPChannel: BluetoothLink {
    private let link: SeqPacketChannel
    /// dup() of the socket for the security watch (-1 until asked for); closed with the channel.
    private var watchDescriptor: Int32 = -1
    /// The peer's address and its type, as the kernel reported at accept/connect.
    public let peerAddress: BluetoothAddress
    public let peerAddressType: BluetoothAddressType
    /// The level asked for, while a request is in flight.
    public private(set) var pendingSecurity: LinkSecurityLevel?
    private var lastLevel: LinkSecurityLevel = .none

    public var securityChangeHandler: ((LinkSecurityLevel) -> Void)?
    /// A second observer of level changes (the Bluetooth peripheral's state),
    /// so the ATT bearer can keep `securityChangeHandler`.
    public var securityObserver: ((LinkSecurityLevel) -> Void)?
    /// Called when a request went to the kernel and completes later: start
    /// watching `securityWatchDescriptor` for writability.
    public var securityRequestStarted: (() -> Void)?

    /// Takes ownership of a connected L2CAP socket.
    public init(adopting descriptor: consuming FileDescriptor, peer: BluetoothAddress, peerType: BluetoothAddressType) throws(HALError) {
        peerAddress = peer
        peerAddressType = peerType
        link = try SeqPacketChannel(adopting: descriptor, name: "L2CAP ATT link to \(peer)")
        lastLevel = (try? readLevel()) ?? .none
    }

    deinit { close() }

    public var pollDescriptor: Int32 { link.pollDescriptor }
    public var isOpen: Bool { link.isOpen }

    public func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        do { return try link.send(message) } catch {
            // l2cap_sock_sendmsg() answers ENOTCONN while the socket is in
            // BT_CONFIG (security pending): that is "wait for writable", which
            // comes when SMP finishes. A link that really went down hangs up,
            // and the next receive reports it closed.
            if error.errno == ENOTCONN || error.errno == ECONNRESET || error.errno == EPIPE { return .wouldBlock }
            throw error
        }
    }

    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        try link.receive(into: buffer)
    }

    public func close() {
        pendingSecurity = nil
        if watchDescriptor >= 0 { _ = CLinux.close(watchDescriptor); watchDescriptor = -1 }
        link.close()
    }

    // MARK: - security

    /// The current level, read from the kernel (the last known one once closed).
    public var securityLevel: LinkSecurityLevel {
        if let level = try? readLevel() { lastLevel = level }
        return lastLevel
    }

    public func requestSecurity(_ level: LinkSecurityLevel) throws(HALError) {
        let raw = link.pollDescriptor
        guard raw >= 0 else { throw Errno(ENOTCONN).halError("raise security on a closed link") }
        var sec = bt_security(level: UInt8(level.rawValue), key_size: 0)
        let rc = setsockopt(raw, wc_sol_bluetooth(), wc_bt_security_opt(), &sec, socklen_t(MemoryLayout<bt_security>.size))
        if rc != 0 {
            let e = Errno.current
            // EINVAL from an ATT channel: smp_conn_security() found the link
            // already secure enough (or gone). Report what it is now.
            let now = securityLevel
            if e.rawValue == EINVAL && now >= level {
                report(now)
                return
            }
            throw e.halError("raise the link's security to \(level) (BT_SECURITY)")
        }
        pendingSecurity = level
        if pollSecurity() { return }
        securityRequestStarted?()
    }

    /// A second descriptor for the same socket, for a writability watch
    /// while a security request is pending. Owned by the channel.
    public var securityWatchDescriptor: Int32 {
        if watchDescriptor >= 0 || !link.isOpen { return watchDescriptor }
        watchDescriptor = wc_fcntl_int(link.pollDescriptor, F_DUPFD_CLOEXEC, 0)
        return watchDescriptor
    }

    /// Checks (without blocking) whether a pending request finished: the
    /// socket is writable again or hung up. Fires `securityChangeHandler`
    /// with the level read back and returns true when it did; false while
    /// SMP is still running or nothing is pending.
    @discardableResult
    public func pollSecurity() -> Bool {
        guard pendingSecurity != nil else { return false }
        var p = pollfd(fd: link.pollDescriptor, events: Int16(POLLOUT), revents: 0)
        guard link.isOpen, poll(&p, 1, 0) > 0 else { return false }
        if p.revents & Int16(POLLOUT | POLLHUP | POLLERR) == 0 { return false }
        pendingSecurity = nil
        report(securityLevel)
        return true
    }

    /// The management interface reported Authentication Failed for this
    /// peer: the request is over, at the level the link still has.
    public func securityRequestFailed() {
        guard pendingSecurity != nil else { return }
        pendingSecurity = nil
        report(securityLevel)
    }

    private func report(_ level: LinkSecurityLevel) {
        securityObserver?(level)
        securityChangeHandler?(level)
    }

    private func readLevel() throws(HALError) -> LinkSecurityLevel {
        let raw = link.pollDescriptor
        guard raw >= 0 else { throw Errno(ENOTCONN).halError("read the link's security") }
        var sec = bt_security(level: 0, key_size: 0)
        var length = socklen_t(MemoryLayout<bt_security>.size)
        if getsockopt(raw, wc_sol_bluetooth(), wc_bt_security_opt(), &sec, &length) != 0 {
            throw Errno.current.halError("read the link's security (BT_SECURITY)")
        }
        return LinkSecurityLevel(rawValue: Int(sec.level)) ?? (sec.level > 4 ? .secureConnections : .none)
    }
}
