import ATTCodec
/// Reads HCI capture files into packets: btsnoop (datalink 1001
/// un-encapsulated HCI, 1002 HCI UART/H4, 2001 Linux monitor as written by
/// `btmon -w`) and Apple PacketLogger `.pklg` files (detected the way btmon
/// detects them). All integers of btsnoop are big-endian.
public struct CaptureFile: Sendable {
    public enum Format: Equatable, Sendable {
        case btsnoop(datalink: UInt32)
        case packetLogger(version: Int)

        public var description: String {
            switch self {
            case .btsnoop(1001): "btsnoop, un-encapsulated HCI (datalink 1001)"
            case .btsnoop(1002): "btsnoop, HCI UART H4 (datalink 1002)"
            case .btsnoop(2001): "btsnoop, Linux monitor (datalink 2001, btmon -w)"
            case .btsnoop(let d): "btsnoop, datalink \(d)"
            case .packetLogger(let v): "Apple PacketLogger v\(v)"
            }
        }
    }

    /// One HCI packet of the capture.
    public struct Packet: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            case command, event
            /// ACL data sent by the capturing host (host → controller).
            case aclSent
            /// ACL data received by the capturing host.
            case aclReceived
            /// Anything else (SCO, ISO, notes, monitor bookkeeping): skipped.
            case other
        }

        /// 1-based.
        public var record: Int
        public var fileOffset: Int
        /// Microseconds since 1970-01-01T00:00:00Z.
        public var timeMicroseconds: Int64
        public var kind: Kind
        /// Controller index (monitor format), else 0.
        public var controller: UInt16
        /// The HCI packet without its H4 type byte.
        public var data: [UInt8]
        /// The record holds fewer bytes than the packet had (capture snap length).
        public var isCut: Bool
    }

    public var format: Format
    public var packets: [Packet]
    /// A problem that stopped reading (the packets before it are kept).
    public var error: DecodeError?

    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]

    /// Fails only when nothing can be read (not a capture, unsupported datalink).
    public static func parse(_ bytes: [UInt8]) throws(DecodeError) -> CaptureFile {
        if bytes.count >= 8, Array(bytes[0..<8]) == magic {
            return try parseBtsnoop(bytes)
        }
        if bytes.count >= 2, bytes[0] == 0x00, bytes[1] == 0x00 || bytes[1] == 0x01 {
            return parsePacketLogger(bytes, version: bytes[1] == 0x01 ? 2 : 1)
        }
        throw DecodeError(.capture(format: "btsnoop", record: nil, fileOffset: 0), bytes.count < 8
            ? "the file is \(bytes.count) bytes, too short for a capture (a btsnoop header is 16)"
            : "not a btsnoop file (it does not start with \"btsnoop\\0\") nor an Apple PacketLogger .pklg file")
    }

    static func be32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
    }

    static func be64(_ b: [UInt8], _ o: Int) -> UInt64 { UInt64(be32(b, o)) << 32 | UInt64(be32(b, o + 4)) }

    static func le32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
    }

    static func parseBtsnoop(_ b: [UInt8]) throws(DecodeError) -> CaptureFile {
        guard b.count >= 16 else {
            throw DecodeError(.capture(format: "btsnoop", record: nil, fileOffset: b.count), "the btsnoop header is 16 bytes, the file has \(b.count)")
        }
        let version = be32(b, 8)
        guard version == 1 else {
            throw DecodeError(.capture(format: "btsnoop", record: nil, fileOffset: 8), "btsnoop version \(version), only version 1 exists")
        }
        let datalink = be32(b, 12)
        guard [1001, 1002, 2001].contains(datalink) else {
            let name = datalink == 1003 ? " (HCI BCSP)" : datalink == 1004 ? " (HCI Serial H5)" : ""
            throw DecodeError(.capture(format: "btsnoop", record: nil, fileOffset: 12),
                "btsnoop datalink \(datalink)\(name) is not supported; supported: 1001 (un-encapsulated HCI), 1002 (HCI UART H4), 2001 (Linux monitor, btmon -w)")
        }
        var file = CaptureFile(format: .btsnoop(datalink: datalink), packets: [], error: nil)
        var o = 16
        var record = 1
        while o < b.count {
            let left = b.count - o
            guard left >= 24 else {
                file.error = DecodeError(.capture(format: "btsnoop", record: record, fileOffset: o), "truncated: a record header is 24 bytes, \(left) left")
                break
            }
            let original = Int(be32(b, o))
            let included = Int(be32(b, o + 4))
            let flags = be32(b, o + 8)
            guard included <= left - 24 else {
                file.error = DecodeError(.capture(format: "btsnoop", record: record, fileOffset: o),
                    "truncated: the record announces \(included) bytes of packet data, \(left - 24) left")
                break
            }
            var data = Array(b[(o + 24)..<(o + 24 + included)])
            let time = DecodeTime.unixMicroseconds(btsnoop: be64(b, o + 16))
            var kind = Packet.Kind.other
            var controller: UInt16 = 0
            switch datalink {
            case 1001:
                kind = flags & 2 != 0 ? (flags & 1 != 0 ? .event : .command) : (flags & 1 != 0 ? .aclReceived : .aclSent)
            case 1002:
                if let type = data.first {
                    data.removeFirst()
                    switch type {
                    case 0x01: kind = .command
                    case 0x02: kind = flags & 1 != 0 ? .aclReceived : .aclSent
                    case 0x04: kind = .event
                    default: kind = .other
                    }
                }
            default:  // 2001
                controller = UInt16(truncatingIfNeeded: flags >> 16)
                switch flags & 0xFFFF {
                case 2: kind = .command
                case 3: kind = .event
                case 4: kind = .aclSent
                case 5: kind = .aclReceived
                default: kind = .other
                }
            }
            file.packets.append(Packet(
                record: record, fileOffset: o, timeMicroseconds: time, kind: kind, controller: controller,
                data: data, isCut: included < original))
            o += 24 + included
            record += 1
        }
        return file
    }

    /// PacketLogger: records of u32 length (of what follows it), u64 time,
    /// u8 type, data. Version 1 is big-endian (seconds in the high word),
    /// version 2 little-endian (seconds in the low word).
    static func parsePacketLogger(_ b: [UInt8], version: Int) -> CaptureFile {
        var file = CaptureFile(format: .packetLogger(version: version), packets: [], error: nil)
        var o = 0
        var record = 1
        while o < b.count {
            let left = b.count - o
            guard left >= 13 else {
                file.error = DecodeError(.capture(format: "PacketLogger", record: record, fileOffset: o), "truncated: a PacketLogger record header is 13 bytes, \(left) left")
                break
            }
            let length = Int(version == 2 ? le32(b, o) : be32(b, o))
            guard length >= 9 else {
                file.error = DecodeError(.capture(format: "PacketLogger", record: record, fileOffset: o), "record length \(length) is shorter than its 9-byte header")
                break
            }
            guard length <= left - 4 else {
                file.error = DecodeError(.capture(format: "PacketLogger", record: record, fileOffset: o), "truncated: the record announces \(length) bytes, \(left - 4) left")
                break
            }
            let seconds: UInt64
            let micros: UInt64
            if version == 2 {
                let ts = UInt64(le32(b, o + 4)) | UInt64(le32(b, o + 8)) << 32
                seconds = ts & 0xFFFF_FFFF
                micros = ts >> 32
            } else {
                seconds = UInt64(be32(b, o + 4))
                micros = UInt64(be32(b, o + 8))
            }
            let kind: Packet.Kind = switch b[o + 12] {
            case 0x00: .command
            case 0x01: .event
            case 0x02: .aclSent
            case 0x03: .aclReceived
            default: .other
            }
            file.packets.append(Packet(
                record: record, fileOffset: o, timeMicroseconds: Int64(seconds) * 1_000_000 + Int64(micros % 1_000_000),
                kind: kind, controller: 0, data: Array(b[(o + 13)..<(o + 4 + length)]), isCut: false))
            o += 4 + length
            record += 1
        }
        return file
    }
}
