import CBluetooth
import CLinux
import HAL

/// The kernel's Bluetooth management interface: a raw HCI socket bound to
/// `HCI_DEV_NONE` on `HCI_CHANNEL_CONTROL` (BlueZ doc/mgmt-api.txt). Every
/// write is one command, every read one event; it is a `PacketChannel`, so
/// the controller logic above runs unchanged over a socket pair in tests.
///
/// Opening it needs CAP_NET_ADMIN (the kernel refuses commands otherwise).
public final class BluetoothManagementSocket: BlockingPacketChannel {
    private var fd: FileDescriptor?

    /// Opens and binds the control channel (non-blocking, close-on-exec).
    public init() throws(HALError) {
        let raw = socket(wc_af_bluetooth(), Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), wc_bt_proto_hci())
        if raw < 0 {
            let e = Errno.current
            throw e.halError("open the Bluetooth management socket", hint: Self.hint(for: e))
        }
        let descriptor = FileDescriptor(adopting: raw)
        var address = sockaddr_hci()
        wc_sockaddr_hci_control(&address)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(raw, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
        if rc != 0 {
            let e = Errno.current
            throw e.halError("bind the Bluetooth management socket (HCI_CHANNEL_CONTROL)", hint: Self.hint(for: e))
        }
        fd = consume descriptor
    }

    static func hint(for e: Errno) -> String? {
        switch e.rawValue {
        case EAFNOSUPPORT: "this kernel has no Bluetooth support: load the module ('sudo modprobe bluetooth') or use a kernel built with CONFIG_BT"
        case EPERM, EACCES: "needs CAP_NET_ADMIN: run as root or through deploy/wristcore.service (AmbientCapabilities=CAP_NET_ADMIN)"
        default: nil
        }
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }
    public var isOpen: Bool { fd != nil }

    /// Sends one command packet.
    public func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        guard let raw = fd?.rawValue else { throw Errno(EBADF).halError("send on a closed management socket") }
        while true {
            let n = CLinux.write(raw, message.baseAddress, message.count)
            if n == message.count { return .sent }
            if n >= 0 { throw HALError(operation: "send a management command", errno: 0, reason: "short write of \(n) of \(message.count) bytes") }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock { return .wouldBlock }
            throw e.halError("send a management command", hint: Self.hint(for: e))
        }
    }

    /// Receives one event packet (header included).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        guard let raw = fd?.rawValue else { return .closed }
        while true {
            let n = CLinux.recv(raw, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC))
            if n > buffer.count {
                throw HALError(operation: "read a management event", errno: EMSGSIZE, reason: "event of \(n) bytes exceeds the \(buffer.count)-byte buffer")
            }
            if n > 0 { return .packet(n) }
            if n == 0 { return .closed }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock { return .wouldBlock }
            throw e.halError("read a management event")
        }
    }

    public func close() {
        if let d = fd.take() { d.close() }
    }

    /// Waits up to `timeout` for an event to read (command-line tools
    /// without a run loop: `wristcore doctor`, `wristcore forget`).
    public func waitReadable(timeout: Duration) throws(HALError) -> Bool {
        var p = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
        let ms = Int32(clamping: max(1, timeout.millisecondsClamped))
        while true {
            let n = poll(&p, 1, ms)
            if n >= 0 { return n > 0 }
            if Errno.current != .interrupted { throw Errno.current.halError("wait for a management event") }
        }
    }
}
