import CBluetooth
import Glibc
import HAL

/// The kernel's Bluetooth management interface: a raw HCI socket bound to
/// `HCI_DEV_NONE` on `HCI_CHANNEL_CONTROL` (BlueZ doc/mgmt-api.txt). Every
/// write is one command, every read one event; it is a `PacketChannel`, so
/// the controller logic above runs unchanged over a socket pair in tests.
///
/// Opening it needs CAP_NET_ADMIN (the kernel refuses commands otherwise).
public final class BluetoothManagementSocket: PacketChannel {
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
        case EPERM, EACCES: "needs CAP_NET_ADMIN: run as root or through deploy/wristcore.service (AmbientCapabilities=CAP_NET_ADMIN CAP_NET_RAW)"
        default: nil
        }
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }
    public var isOpen: Bool { fd != nil }

    /// Sends one command packet.
    public func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        guard let raw = fd?.rawValue else { throw Errno(EBADF).halError("send on a closed management socket") }
        while true {
            let n = Glibc.write(raw, message.baseAddress, message.count)
            if n == message.count { return .sent }
            if n >= 0 { throw HALError(operation: "send a management command", errno: 0, reason: "short write of \(n) of \(message.count) bytes") }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock { return .wouldBlock }
            throw e.halError("send a management command", hint: Self.hint(for: e))
        }
    }

    /// Sends a command by opcode, controller index and parameter bytes.
    public func send(_ opcode: ManagementOpcode, index: UInt16, parameters: [UInt8]) throws(HALError) -> PacketSendResult {
        let packet = ManagementPacket.command(opcode, index: index, parameters: parameters)
        var result: Result<PacketSendResult, HALError> = .success(.sent)
        packet.withUnsafeBytes { b in
            do throws(HALError) { result = .success(try self.send(b)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Sends a typed command.
    public func send(_ command: some ManagementCommand, index: UInt16) throws(HALError) -> PacketSendResult {
        try send(command.opcode, index: index, parameters: command.encodeParameters())
    }

    /// Receives one event packet (header included).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        guard let raw = fd?.rawValue else { return .closed }
        while true {
            let n = Glibc.recv(raw, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC))
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

    /// Reads one event without blocking: its code, controller index and
    /// parameters (a slice of `buffer`); nil when none is waiting or it is malformed.
    public func readEvent(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> (code: UInt16, index: UInt16, parameters: UnsafeRawBufferPointer)? {
        guard case .packet(let n) = try receive(into: buffer) else { return nil }
        return ManagementPacket.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }

    public func close() {
        if let d = fd.take() { d.close() }
    }

    /// For command-line tools without a run loop (`wristcore doctor`,
    /// `wristcore forget`): sends `command` and waits up to `timeout` for its
    /// Command Complete / Command Status, skipping other events. Returns the
    /// status byte and return parameters.
    public func query(_ command: some ManagementCommand, index: UInt16, timeout: Duration = .seconds(2)) throws(HALError) -> (status: UInt8, parameters: [UInt8]) {
        let what = "\(command.opcode) on hci\(index)"
        guard try send(command, index: index) == .sent else { throw Errno(EAGAIN).halError(what) }
        let deadline = SystemMonotonicClock.read().advanced(by: timeout)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let now = SystemMonotonicClock.read()
            guard now < deadline else { throw Errno(ETIMEDOUT).halError(what, hint: "the kernel did not answer; check 'dmesg' for Bluetooth errors") }
            let left = deadline.duration(since: now)
            var p = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            if poll(&p, 1, ms) < 0 && Errno.current != .interrupted { throw Errno.current.halError(what) }
            while true {
                var result: Result<PacketReceiveResult, HALError> = .success(.wouldBlock)
                buffer.withUnsafeMutableBytes { b in
                    do throws(HALError) { result = .success(try receive(into: b)) } catch { result = .failure(error) }
                }
                guard case .packet(let n) = try result.get() else { break }
                let answer: (UInt8, [UInt8])? = buffer.withUnsafeBytes { b in
                    guard let (_, i, event) = ManagementEvent.decode(packet: UnsafeRawBufferPointer(rebasing: b[0..<n])).map({ (0, $0.index, $0.event) }),
                          i == index else { return nil }
                    switch event {
                    case .commandComplete(let op, let status, let params) where op == command.opcode.rawValue: return (status, params)
                    case .commandStatus(let op, let status) where op == command.opcode.rawValue: return (status, [])
                    default: return nil
                    }
                }
                if let answer { return answer }
            }
        }
    }
}
