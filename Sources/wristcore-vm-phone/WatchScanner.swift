import LinuxLoop
import HAL
import LinuxHAL
import Loop

/// Finds the watch the way a phone does: LE discovery (mgmt Start Discovery
/// on its own control socket) until an advertisement carries the watch's
/// name. The watch advertises from a resolvable private address when privacy
/// is on, so its public address alone would not reach it.
///
/// Uses raw mgmt packets: Start / Stop Discovery (0x0023 / 0x0024) and the
/// Device Found (0x0012) and Discovering (0x0013) events are only needed by
/// this test tool, so they are not part of the HAL's typed codecs.
final class WatchScanner {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    deinit { lifetime.end() }

    private let loop: EpollLoop
    private let index: UInt16
    private let name: String
    private var socket: BluetoothManagementSocket?
    private var source: SourceID?
    private var buffer = [UInt8](repeating: 0, count: 1024)
    private var found: ((BluetoothAddress, BluetoothAddressType) -> Void)?

    private static let startDiscovery: UInt16 = 0x0023
    private static let stopDiscovery: UInt16 = 0x0024
    private static let deviceFound: UInt16 = 0x0012
    private static let discovering: UInt16 = 0x0013
    /// LE public + LE random.
    private static let leAddressTypes: UInt8 = 0x06

    init(loop: EpollLoop, index: Int, name: String) {
        self.loop = loop
        self.index = UInt16(index)
        self.name = name
    }

    /// Scans until the watch shows up; calls `found` once with its address.
    func scan(found: @escaping (BluetoothAddress, BluetoothAddressType) -> Void) throws(HALError) {
        self.found = found
        let s = try BluetoothManagementSocket()
        socket = s
        source = try loop.addSource(fd: s.pollDescriptor, events: .readable) { [unowned(unsafe) self] _ in self.readable() }
        PhoneOutput.emit("SCANNING name=\(PhoneOutput.quoted(name))")
        send(Self.startDiscovery)
    }

    func stop() {
        if let s = source { loop.removeSource(s) }
        source = nil
        if socket != nil { send(Self.stopDiscovery) }
        socket?.close()
        socket = nil
        found = nil
    }

    private func send(_ opcode: UInt16) {
        let packet: [UInt8] = [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(index & 0xFF), UInt8(index >> 8), 1, 0, Self.leAddressTypes]
        _ = packet.withUnsafeBytes { try? socket?.send($0) }
    }

    private func readable() {
        while let s = socket {
            var event: (code: UInt16, index: UInt16, parameters: [UInt8])?
            var failure: HALError?
            buffer.withUnsafeMutableBytes { b in
                do throws(HALError) {
                    event = try s.readEvent(into: b).map { ($0.code, $0.index, Array($0.parameters)) }
                } catch {
                    failure = error
                }
            }
            if let failure {
                PhoneOutput.emit("ERROR scanning: \(failure)")
                return
            }
            guard let event else { return }
            guard event.index == index else { continue }
            switch event.code {
            case Self.deviceFound: deviceFound(event.parameters)
            case Self.discovering:
                // LE discovery ends by itself after about 10 s: start it again.
                if event.parameters.count >= 2, event.parameters[1] == 0, found != nil {
                    loop.schedule(after: .milliseconds(200)) { [lifetime, unowned(unsafe) self] in
                        if !lifetime.isOver, self.found != nil { self.send(Self.startDiscovery) }
                    }
                }
            case 0x0001, 0x0002:
                // Command Complete / Status of Start Discovery: Busy (0x0A) means try again.
                if event.parameters.count >= 3, event.parameters[2] != 0,
                   event.parameters[0] == UInt8(Self.startDiscovery & 0xFF) {
                    loop.schedule(after: .seconds(1)) { [lifetime, unowned(unsafe) self] in
                        if !lifetime.isOver, self.found != nil { self.send(Self.startDiscovery) }
                    }
                }
            default: break
            }
        }
    }

    /// Device Found: address(6) type(1) rssi(1) flags(4) eir_len(2) eir.
    private func deviceFound(_ p: [UInt8]) {
        guard p.count >= 14, let address = BluetoothAddress(wire: p[0..<6]),
              let type = BluetoothAddressType(rawValue: p[6]) else { return }
        let length = Int(p[12]) | Int(p[13]) << 8
        guard p.count >= 14 + length else { return }
        // A shortened name (when the full one does not fit) matches as a prefix.
        guard let advertised = Self.localName(Array(p[14..<(14 + length)])), !advertised.isEmpty, name.hasPrefix(advertised) else { return }
        PhoneOutput.emit("FOUND addr=\(address) type=\(PhoneController.name(type)) name=\(PhoneOutput.quoted(advertised))")
        let callback = found
        stop()
        callback?(address, type)
    }

    /// The complete (0x09) or shortened (0x08) local name in EIR / AD data.
    static func localName(_ eir: [UInt8]) -> String? {
        var i = 0
        var short: String?
        while i < eir.count {
            let length = Int(eir[i])
            guard length > 0, i + 1 + length <= eir.count else { break }
            let type = eir[i + 1]
            let data = eir[(i + 2)..<(i + 1 + length)]
            if type == 0x09 { return String(decoding: data, as: UTF8.self) }
            if type == 0x08 { short = String(decoding: data, as: UTF8.self) }
            i += 1 + length
        }
        return short
    }
}
