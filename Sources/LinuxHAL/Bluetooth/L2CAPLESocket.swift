import CBluetooth
import CLinux
import HAL

/// A listening L2CAP LE socket on a fixed channel (CID 4, ATT), and the
/// central-side `connect`. Accepting gives an `L2CAPChannel`.
///
/// Only one program can listen on the ATT channel of an adapter: when
/// bluetoothd runs it already does, and `listen` fails with EADDRINUSE.
public final class L2CAPLESocket: BluetoothLinkListener {
    /// The ATT fixed channel.
    public static let attChannel: UInt16 = 4

    private var fd: FileDescriptor?
    public let localAddress: BluetoothAddress

    private init(fd: consuming FileDescriptor, localAddress: BluetoothAddress) {
        self.fd = consume fd
        self.localAddress = localAddress
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }
    public var isOpen: Bool { fd != nil }

    /// The public address of adapter hciN (HCIGETDEVINFO through libbluetooth).
    public static func adapterAddress(hciIndex: Int) throws(HALError) -> BluetoothAddress {
        var out = [UInt8](repeating: 0, count: 6)
        if wc_hci_device_address(Int32(hciIndex), &out) != 0 {
            let e = Errno.current
            throw e.halError("read the address of hci\(hciIndex)", hint: "check 'ls /sys/class/bluetooth' and the board file's bluetooth.hci")
        }
        return BluetoothAddress(wire: out)!
    }

    /// Listens for LE connections to adapter hciN on `cid`.
    public static func listen(hciIndex: Int, cid: UInt16 = attChannel, addressType: BluetoothAddressType = .lePublic) throws(HALError) -> L2CAPLESocket {
        try listen(address: adapterAddress(hciIndex: hciIndex), cid: cid, addressType: addressType)
    }

    /// Listens for LE connections to the adapter with `address` (`.any` for all adapters) on `cid`.
    public static func listen(address: BluetoothAddress, cid: UInt16 = attChannel, addressType: BluetoothAddressType = .lePublic) throws(HALError) -> L2CAPLESocket {
        let socket = try makeSocket()
        let raw = socket.rawValue
        try bindLE(raw, address: address, cid: cid, type: addressType, what: "listen for LE connections on CID \(cid) of \(address)")
        if CLinux.listen(raw, 1) != 0 {
            throw Errno.current.halError("listen for LE connections on CID \(cid)")
        }
        return L2CAPLESocket(fd: socket, localAddress: address)
    }

    /// `accept()` as the peripheral sees it.
    public func acceptLink() throws(HALError) -> (any BluetoothLink)? { try accept() }

    /// Accepts one waiting connection; nil when none is waiting.
    public func accept() throws(HALError) -> L2CAPChannel? {
        guard let raw = fd?.rawValue else { throw Errno(EBADF).halError("accept on a closed L2CAP socket") }
        var peer = sockaddr_l2()
        var length = socklen_t(MemoryLayout<sockaddr_l2>.size)
        while true {
            let c = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    CLinux.accept(raw, $0, &length)
                }
            }
            if c >= 0 {
                _ = wc_fcntl_int(c, F_SETFD, FD_CLOEXEC)  // L2CAPChannel makes it non-blocking
                let descriptor = FileDescriptor(adopting: c)
                let (address, type) = Self.decode(peer)
                return try L2CAPChannel(adopting: descriptor, peer: address, peerType: type)
            }
            let e = Errno.current
            if e == .interrupted || e.rawValue == ECONNABORTED { continue }
            if e == .wouldBlock { return nil }
            throw e.halError("accept an LE connection")
        }
    }

    /// Central side (the phone emulator): connects from the adapter with
    /// `localAddress` to `peer` on `cid`, waiting up to `timeout`, and
    /// returns the connected, non-blocking channel.
    public static func connect(
        from localAddress: BluetoothAddress, to peer: BluetoothAddress, peerType: BluetoothAddressType,
        cid: UInt16 = attChannel, timeout: Duration = .seconds(20)
    ) throws(HALError) -> L2CAPChannel {
        let socket = try makeSocket()
        let raw = socket.rawValue
        try bindLE(raw, address: localAddress, cid: cid, type: .lePublic, what: "bind the central's L2CAP socket to \(localAddress)")
        var target = sockaddr_l2()
        let wire = peer.wireBytes
        wc_sockaddr_l2_le(&target, wire, cid, peerType.rawValue)
        var rc = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { CLinux.connect(raw, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
        if rc != 0 && Errno.current.rawValue == EINPROGRESS {
            let ms = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            var p = pollfd(fd: raw, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&p, 1, ms)
            if ready == 0 { throw Errno(ETIMEDOUT).halError("connect to \(peer) (\(peerType))") }
            var err: Int32 = 0
            var len = socklen_t(4)
            getsockopt(raw, SOL_SOCKET, SO_ERROR, &err, &len)
            if err != 0 { throw Errno(err).halError("connect to \(peer) (\(peerType))") }
            rc = 0
        }
        if rc != 0 { throw Errno.current.halError("connect to \(peer) (\(peerType))") }
        return try L2CAPChannel(adopting: socket, peer: peer, peerType: peerType)
    }

    /// Central side by controller index.
    public static func connect(fromHCI hciIndex: Int, to peer: BluetoothAddress, peerType: BluetoothAddressType,
                               cid: UInt16 = attChannel, timeout: Duration = .seconds(20)) throws(HALError) -> L2CAPChannel {
        try connect(from: adapterAddress(hciIndex: hciIndex), to: peer, peerType: peerType, cid: cid, timeout: timeout)
    }

    public func close() {
        if let d = fd.take() { d.close() }
    }

    // MARK: - helpers

    private static func makeSocket() throws(HALError) -> FileDescriptor {
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let raw = socket(wc_af_bluetooth(), type, wc_bt_proto_l2cap())
        if raw < 0 {
            let e = Errno.current
            throw e.halError("open an L2CAP socket", hint: BluetoothManagementSocket.hint(for: e))
        }
        return FileDescriptor(adopting: raw)
    }

    private static func bindLE(_ raw: Int32, address: BluetoothAddress, cid: UInt16, type: BluetoothAddressType, what: String) throws(HALError) {
        var local = sockaddr_l2()
        let wire = address.wireBytes
        wc_sockaddr_l2_le(&local, wire, cid, type.rawValue)
        let rc = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
        if rc != 0 {
            let e = Errno.current
            let hint: String? = e.rawValue == EADDRINUSE
                ? "another program (usually bluetoothd) already serves ATT on this adapter: 'sudo systemctl disable --now bluetooth.service', or run WristCore from deploy/wristcore.service (Conflicts=bluetooth.service)"
                : BluetoothManagementSocket.hint(for: e)
            throw e.halError(what, hint: hint)
        }
    }

    private static func decode(_ a: sockaddr_l2) -> (BluetoothAddress, BluetoothAddressType) {
        var copy = a
        var out = [UInt8](repeating: 0, count: 6)
        wc_sockaddr_l2_address(&copy, &out)
        return (BluetoothAddress(wire: out)!, BluetoothAddressType(rawValue: wc_sockaddr_l2_type(&copy)) ?? .lePublic)
    }
}
