import ANCS
import Notifications
import Decode

@testable import Decode

/// Writes btsnoop files the way `btmon -w` (datalink 2001, Linux monitor)
/// and HCI UART loggers (datalink 1002, H4) do, so capture decoding is
/// tested against bytes built here, not a checked-in binary.
struct BtsnoopWriter {
    enum Datalink: UInt32 { case uart = 1002, monitor = 2001 }

    let datalink: Datalink
    private(set) var bytes: [UInt8]

    init(_ datalink: Datalink) {
        self.datalink = datalink
        bytes = Array("btsnoop".utf8) + [0]
        append32(1)
        append32(datalink.rawValue)
    }

    mutating func append32(_ v: UInt32) {
        bytes += [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    /// One record; `unixMicroseconds` is converted to btsnoop's 0 AD epoch.
    mutating func record(flags: UInt32, unixMicroseconds: Int64, _ data: [UInt8]) {
        record(flags: flags, btsnoopTime: UInt64(unixMicroseconds + DecodeTime.btsnoopEpochOffset), data)
    }

    /// One record with the raw timestamp of the file (microseconds since btsnoop's 0 AD).
    mutating func record(flags: UInt32, btsnoopTime ts: UInt64, _ data: [UInt8]) {
        append32(UInt32(data.count))
        append32(UInt32(data.count))
        append32(flags)
        append32(0)
        append32(UInt32(ts >> 32))
        append32(UInt32(truncatingIfNeeded: ts))
        bytes += data
    }

    /// An HCI packet: `h4Type` 1 command, 2 ACL, 4 event; `sent` by the host.
    mutating func hci(h4Type: UInt8, sent: Bool, unixMicroseconds: Int64, _ packet: [UInt8]) {
        switch datalink {
        case .uart:
            record(flags: (sent ? 0 : 1) | (h4Type == 2 ? 0 : 2), unixMicroseconds: unixMicroseconds, [h4Type] + packet)
        case .monitor:
            let opcode: UInt32 = switch h4Type {
            case 1: 2
            case 4: 3
            default: sent ? 4 : 5
            }
            record(flags: opcode, unixMicroseconds: unixMicroseconds, packet)
        }
    }
}

/// HCI / L2CAP framing for the test conversation.
enum HCIFrames {
    /// ACL data: handle with packet-boundary flag (0b10 start, 0b01 continuation), length, data.
    static func acl(handle: UInt16, start: Bool, _ data: [UInt8]) -> [UInt8] {
        let h = handle | (start ? 0x2000 : 0x1000)
        return [UInt8(h & 0xFF), UInt8(h >> 8), UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data
    }

    /// An L2CAP basic frame on `cid`.
    static func l2cap(cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), UInt8(cid & 0xFF), UInt8(cid >> 8)] + payload
    }

    static func event(_ code: UInt8, _ parameters: [UInt8]) -> [UInt8] { [code, UInt8(parameters.count)] + parameters }

    static func uuid128(_ u: String) -> [UInt8] {
        // "9FBF120D-..." → little-endian bytes.
        let hex = u.filter { $0 != "-" }
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out.reversed()
    }
}

/// The watch's side of a session, as a capture taken on the watch shows it:
/// connection, ANCS discovery, subscriptions, one notification, its
/// attributes asked for and answered in two Data Source notifications (the
/// second one split across two ACL fragments), disconnection.
enum TestCapture {
    static let handle: UInt16 = 0x0040
    /// 2024-03-14T18:30:05Z
    static let start: Int64 = 1_710_441_005_000_000

    enum Item {
        case att(watchSends: Bool, [UInt8])
        /// An ATT PDU whose L2CAP frame is cut into two ACL fragments after `at` bytes.
        case attFragmented(watchSends: Bool, [UInt8], at: Int)
        case event([UInt8])
    }

    static let ancs = HCIFrames.uuid128("7905F431-B5CE-4E99-A40F-4B1E122D00D0")
    static let ns = HCIFrames.uuid128("9FBF120D-6301-42D9-8C58-25E699A21DBD")
    static let cp = HCIFrames.uuid128("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")
    static let ds = HCIFrames.uuid128("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB")

    static let command = ControlPoint.getNotificationAttributes(uid: NotificationUID(42), attributes: AttributeList([
        .notification(.appIdentifier, maxLength: 64), .notification(.title, maxLength: 32),
        .notification(.message, maxLength: 64), .notification(.date, maxLength: 16),
    ]))

    static let response = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(42), [
        EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "Mom"),
        EncodedAttribute(.message, "Dinner at 7? 🍝"), EncodedAttribute(.date, "20240314T183005"),
    ])

    static var items: [Item] {
        [
            .event(HCIFrames.event(0x3E, [0x01, 0x00, 0x40, 0x00, 0x01, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])),
            .att(watchSends: true, [0x02, 0xB9, 0x00]),
            .att(watchSends: false, [0x03, 0xB9, 0x00]),
            .att(watchSends: true, [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
            .att(watchSends: false, [0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x09, 0x00, 0x01, 0x18]),
            .att(watchSends: true, [0x10, 0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
            .att(watchSends: false, [0x11, 0x14, 0x30, 0x00, 0x3A, 0x00] + ancs),
            .att(watchSends: true, [0x08, 0x30, 0x00, 0x3A, 0x00, 0x03, 0x28]),
            .att(watchSends: false, [0x09, 0x15]
                + [0x31, 0x00, 0x10, 0x32, 0x00] + ns
                + [0x34, 0x00, 0x88, 0x35, 0x00] + cp
                + [0x37, 0x00, 0x10, 0x38, 0x00] + ds),
            .att(watchSends: true, [0x04, 0x33, 0x00, 0x33, 0x00]),
            .att(watchSends: false, [0x05, 0x01, 0x33, 0x00, 0x02, 0x29]),
            .att(watchSends: true, [0x04, 0x39, 0x00, 0x3A, 0x00]),
            .att(watchSends: false, [0x05, 0x01, 0x39, 0x00, 0x02, 0x29]),
            .att(watchSends: true, [0x12, 0x39, 0x00, 0x01, 0x00]),
            .att(watchSends: false, [0x13]),
            .att(watchSends: true, [0x12, 0x33, 0x00, 0x01, 0x00]),
            .att(watchSends: false, [0x13]),
            .att(watchSends: false, [0x1B, 0x32, 0x00, 0x00, 0x12, 0x04, 0x01, 0x2A, 0x00, 0x00, 0x00]),
            .att(watchSends: true, [0x12, 0x35, 0x00] + command),
            .att(watchSends: false, [0x13]),
            .att(watchSends: false, [0x1B, 0x38, 0x00] + Array(response[..<30])),
            .attFragmented(watchSends: false, [0x1B, 0x38, 0x00] + Array(response[30...]), at: 20),
            .att(watchSends: true, [0x12, 0x35, 0x00, 0x02, 0x2A, 0x00, 0x00, 0x00, 0x01]),
            .att(watchSends: false, [0x01, 0x12, 0x35, 0x00, 0xA2]),
            .event(HCIFrames.event(0x05, [0x00, 0x40, 0x00, 0x13])),
        ]
    }

    /// Records 1–17: the connection, discovery and subscriptions (Control
    /// Point value handle 0x0035, Data Source 0x0038).
    static var discovery: [Item] { Array(items[..<17]) }

    /// The capture as `btmon -w` (monitor) or an H4 logger writes it, one
    /// item every `step` microseconds.
    static func file(_ datalink: BtsnoopWriter.Datalink, _ items: [Item] = items, step: Int64 = 1000) -> [UInt8] {
        var w = BtsnoopWriter(datalink)
        var t = start
        for item in items {
            switch item {
            case .event(let e):
                w.hci(h4Type: 4, sent: false, unixMicroseconds: t, e)
            case .att(let watchSends, let pdu):
                w.hci(h4Type: 2, sent: watchSends, unixMicroseconds: t, HCIFrames.acl(handle: handle, start: true, HCIFrames.l2cap(cid: 4, pdu)))
            case .attFragmented(let watchSends, let pdu, let at):
                let frame = HCIFrames.l2cap(cid: 4, pdu)
                w.hci(h4Type: 2, sent: watchSends, unixMicroseconds: t, HCIFrames.acl(handle: handle, start: true, Array(frame[..<at])))
                t += 250
                w.hci(h4Type: 2, sent: watchSends, unixMicroseconds: t, HCIFrames.acl(handle: handle, start: false, Array(frame[at...])))
            }
            t += step
        }
        return w.bytes
    }
}
