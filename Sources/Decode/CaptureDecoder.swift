import ATTCodec
import TextFormat
/// Where the capture was taken: it decides which HCI direction is the
/// watch's. `btmon -w` on the watch: sent = watch → phone. A PacketLogger
/// trace from the iPhone: sent = phone → watch.
public enum CaptureSide: String, Sendable, CaseIterable {
    case watch, phone
}

/// What decoding a capture produced: the records, and the problem that
/// stopped reading the file if any (the records before it are valid).
public struct CaptureDecoding: Sendable {
    public var format: CaptureFile.Format
    public var records: [DecodedRecord]
    public var error: DecodeError?
}

/// Decodes a capture: HCI ACL data is reassembled into L2CAP frames (start
/// and continuation fragments, per connection and direction), CID 4 (ATT)
/// goes to one `ATTConversation` per connection, CID 6 (SMP) and the HCI
/// events that change a link (connection, encryption, disconnection) are
/// shown briefly; HCI commands and other events are skipped.
public struct CaptureDecoder {
    public var side: CaptureSide

    public init(side: CaptureSide = .watch) { self.side = side }

    public func decode(_ bytes: [UInt8]) throws(DecodeError) -> CaptureDecoding {
        let file = try CaptureFile.parse(bytes)
        var state = State(side: side)
        for p in file.packets { state.handle(p) }
        state.finish()
        return CaptureDecoding(format: file.format, records: state.records, error: file.error)
    }

    struct LinkKey: Hashable {
        var controller: UInt16
        var handle: UInt16
    }

    struct FragmentKey: Hashable {
        var link: LinkKey
        var sent: Bool
    }

    struct State {
        let side: CaptureSide
        var records: [DecodedRecord] = []
        var partial: [FragmentKey: [UInt8]] = [:]
        var conversations: [LinkKey: ATTConversation] = [:]

        init(side: CaptureSide) { self.side = side }

        func direction(sent: Bool) -> DecodedRecord.Direction {
            (sent == (side == .watch)) ? .watchToPhone : .phoneToWatch
        }

        /// Appends a record of packet `p`. A record that already has its
        /// packet (a Data Source response found complete later, when the
        /// phone had left optional attributes out) keeps it, and `finish`
        /// moves it back to where that packet's records are.
        mutating func emit(_ r: DecodedRecord, _ p: CaptureFile.Packet) {
            var r = r
            if r.packet == nil {
                r.packet = p.record
                r.timeMicroseconds = p.timeMicroseconds
            }
            records.append(r)
        }

        /// The end of the capture: responses still waiting for optional
        /// attributes end there, those cut off are reported, and records are
        /// put in packet order (records with no packet, about the end of the
        /// capture itself, last).
        mutating func finish() {
            let links = Array(conversations.keys)
            for i in StableOrder.indices(links.count, by: { (links[$0].controller, links[$0].handle) < (links[$1].controller, links[$1].handle) }) {
                records += conversations[links[i]]!.endSession(because: nil)
            }
            var sorted = true
            var last = 0
            for r in records {
                let packet = r.packet ?? Int.max
                if packet < last { sorted = false; break }
                last = packet
            }
            guard !sorted else { return }
            let unordered = records
            records = StableOrder.indices(unordered.count) { (unordered[$0].packet ?? Int.max) < (unordered[$1].packet ?? Int.max) }
                .map { unordered[$0] }
        }

        mutating func malformed(_ what: String, _ message: String, _ p: CaptureFile.Packet, direction: DecodedRecord.Direction? = nil) {
            emit(DecodedRecord(
                direction: direction, layer: .malformed, type: "malformed", summary: "\(what): \(message)",
                fields: [DecodeField("error", .string(message))]), p)
        }

        mutating func handle(_ p: CaptureFile.Packet) {
            // A response that waits only for optional attributes ends once
            // the Data Source has been quiet long enough, as on the watch.
            for conversation in conversations.values where conversation.isAwaitingOptionalAttributes {
                for r in conversation.advance(to: p.timeMicroseconds) { emit(r, p) }
            }
            switch p.kind {
            case .aclSent, .aclReceived: acl(p, sent: p.kind == .aclSent)
            case .event: event(p)
            case .command, .other: break
            }
        }

        // MARK: ACL → L2CAP

        mutating func acl(_ p: CaptureFile.Packet, sent: Bool) {
            let dir = direction(sent: sent)
            let d = p.data
            if p.isCut {
                return malformed("HCI ACL", "the capture kept only \(d.count) bytes of this packet", p, direction: dir)
            }
            guard d.count >= 4 else {
                return malformed("HCI ACL", "byte \(d.count): an ACL packet has a 4-byte header, got \(d.count) bytes", p, direction: dir)
            }
            let header = UInt16(d[0]) | UInt16(d[1]) << 8
            let handle = header & 0x0FFF
            let boundary = (header >> 12) & 0x3
            let length = Int(d[2]) | Int(d[3]) << 8
            guard length == d.count - 4 else {
                return malformed("HCI ACL", "byte 2: the ACL header says \(length) bytes of data, the packet has \(d.count - 4)", p, direction: dir)
            }
            let key = FragmentKey(link: LinkKey(controller: p.controller, handle: handle), sent: sent)
            let payload = d[4...]
            if boundary == 0b01 {
                guard partial[key] != nil else {
                    return malformed("L2CAP", "continuation fragment on handle \(HexFormat.handle(handle)) without a start fragment (dropped)", p, direction: dir)
                }
                partial[key]! += payload
            } else {
                if let old = partial[key] {
                    malformed("L2CAP", "frame on handle \(HexFormat.handle(handle)) incomplete (\(old.count) bytes) when a new one started (dropped)", p, direction: dir)
                }
                partial[key] = Array(payload)
            }
            guard let frame = partial[key], frame.count >= 4 else { return }
            let need = 4 + (Int(frame[0]) | Int(frame[1]) << 8)
            if frame.count < need { return }
            partial[key] = nil
            guard frame.count == need else {
                return malformed("L2CAP", "frame is \(frame.count) bytes, its header says \(need)", p, direction: dir)
            }
            l2cap(UInt16(frame[2]) | UInt16(frame[3]) << 8, Array(frame[4...]), link: key.link, p, dir)
        }

        mutating func l2cap(_ cid: UInt16, _ payload: [UInt8], link: LinkKey, _ p: CaptureFile.Packet, _ dir: DecodedRecord.Direction) {
            switch cid {
            case 0x0004:
                let conversation = conversations[link] ?? ATTConversation()
                conversations[link] = conversation
                for r in conversation.decode(payload, direction: dir, at: CapturePosition(packet: p.record, timeMicroseconds: p.timeMicroseconds)) {
                    emit(r, p)
                }
            case 0x0006:
                emit(SMPNames.record(payload, direction: dir), p)
            case 0x0005:
                emit(DecodedRecord(
                    direction: dir, layer: .l2cap, type: "le_signaling",
                    summary: "LE signaling code \(payload.first.map(HexFormat.byteValue) ?? "none"), \(payload.count) bytes",
                    fields: [DecodeField("cid", .int(cid)), DecodeField("value_hex", .hex(payload))]), p)
            default:
                emit(DecodedRecord(
                    direction: dir, layer: .l2cap, type: "l2cap",
                    summary: "CID \(HexFormat.handle(cid)), \(payload.count) bytes",
                    fields: [DecodeField("cid", .int(cid)), DecodeField("value_hex", .hex(payload))]), p)
            }
        }

        // MARK: events

        /// The events shown, with the parameter bytes each needs (every
        /// index read below is inside them; shorter ones are reported).
        mutating func event(_ p: CaptureFile.Packet) {
            let d = p.data
            guard let code = d.first else { return }
            let subevent = d.count >= 3 ? d[2] : nil
            let name: String
            let needed: Int
            switch code {
            case 0x05: (name, needed) = ("Disconnection Complete", 4)
            case 0x08: (name, needed) = ("Encryption Change", 4)
            case 0x3E where subevent == 0x01: (name, needed) = ("LE Connection Complete", 19)
            case 0x3E where subevent == 0x0A: (name, needed) = ("LE Enhanced Connection Complete", 31)
            default: return  // not shown
            }
            guard d.count >= 2, !p.isCut, d.count - 2 == Int(d[1]) else {
                let got = d.count >= 2 ? "the header says \(d[1]) parameter bytes, the packet has \(d.count - 2)" : "the event has no parameter length"
                return malformed("HCI \(name)", "\(got)\(p.isCut ? " (the capture kept only \(d.count) bytes)" : "")", p)
            }
            guard d.count - 2 >= needed else {
                return malformed("HCI \(name)", "\(d.count - 2) parameter bytes, the event has \(needed)", p)
            }
            func u16(_ o: Int) -> UInt16 { UInt16(d[o]) | UInt16(d[o + 1]) << 8 }
            switch code {
            case 0x05:  // status 2, handle 3-4, reason 5
                let handle = u16(3) & 0x0FFF
                let link = LinkKey(controller: p.controller, handle: handle)
                for r in conversations[link]?.endSession(because: "the link closed") ?? [] { emit(r, p) }
                partial[FragmentKey(link: link, sent: true)] = nil
                partial[FragmentKey(link: link, sent: false)] = nil
                emit(DecodedRecord(
                    layer: .hci, type: "disconnection_complete",
                    summary: "Disconnection Complete handle \(HexFormat.handle(handle)), status \(HexFormat.byteValue(d[2])), reason \(HexFormat.byteValue(d[5]))\(HCIReasons.name(d[5]).map { " (\($0))" } ?? "")",
                    fields: [DecodeField("handle", .int(handle)), DecodeField("status", .int(d[2])), DecodeField("reason", .int(d[5]))]), p)
            case 0x08:  // status 2, handle 3-4, enabled 5
                let handle = u16(3) & 0x0FFF
                emit(DecodedRecord(
                    layer: .hci, type: "encryption_change",
                    summary: "Encryption Change handle \(HexFormat.handle(handle)), status \(HexFormat.byteValue(d[2])), encryption \(d[5] != 0 ? "on" : "off")",
                    fields: [DecodeField("handle", .int(handle)), DecodeField("status", .int(d[2])), DecodeField("encrypted", .bool(d[5] != 0))]), p)
            default:  // LE (Enhanced) Connection Complete: subevent 2, status 3, handle 4-5, role 6, peer type 7, peer 8-13
                let handle = u16(4) & 0x0FFF
                let role = d[6] == 0 ? "central" : "peripheral"
                let address = (8..<14).reversed().map { HexFormat.byte(d[$0]) }.joined(separator: ":")
                let link = LinkKey(controller: p.controller, handle: handle)
                if d[3] == 0 {
                    // A new link on a handle still open in the capture: its disconnection was not captured.
                    for r in conversations[link]?.endSession(because: "a new connection took its handle") ?? [] { emit(r, p) }
                    conversations[link] = ATTConversation()
                }
                emit(DecodedRecord(
                    layer: .hci, type: "le_connection_complete",
                    summary: "LE Connection Complete handle \(HexFormat.handle(handle)), status \(HexFormat.byteValue(d[3])), local role \(role), peer \(address)",
                    fields: [DecodeField("handle", .int(handle)), DecodeField("status", .int(d[3])), DecodeField("role", .string(role)), DecodeField("peer", .string(address))]), p)
            }
        }
    }
}

/// Names of HCI disconnection reasons worth recognising.
enum HCIReasons {
    static func name(_ r: UInt8) -> String? {
        switch r {
        case 0x05: "Authentication Failure"
        case 0x06: "PIN or Key Missing"
        case 0x08: "Connection Timeout"
        case 0x13: "Remote User Terminated Connection"
        case 0x16: "Connection Terminated By Local Host"
        case 0x22: "LL Response Timeout"
        case 0x3B: "Unacceptable Connection Parameters"
        case 0x3D: "Connection Terminated due to MIC Failure"
        case 0x3E: "Connection Failed to be Established"
        default: nil
        }
    }
}

/// The Security Manager's PDUs (pairing), by code.
enum SMPNames {
    static let names: [UInt8: String] = [
        0x01: "Pairing Request", 0x02: "Pairing Response", 0x03: "Pairing Confirm", 0x04: "Pairing Random",
        0x05: "Pairing Failed", 0x06: "Encryption Information", 0x07: "Central Identification",
        0x08: "Identity Information", 0x09: "Identity Address Information", 0x0A: "Signing Information",
        0x0B: "Security Request", 0x0C: "Pairing Public Key", 0x0D: "Pairing DHKey Check", 0x0E: "Keypress Notification",
    ]

    static func record(_ payload: [UInt8], direction: DecodedRecord.Direction) -> DecodedRecord {
        guard let code = payload.first else {
            return DecodedRecord(direction: direction, layer: .malformed, type: "malformed", summary: "SMP: empty PDU",
                fields: [DecodeField("error", .string("empty SMP PDU"))])
        }
        let name = names[code] ?? "SMP code \(HexFormat.byteValue(code))"
        var summary = name
        var fields = [DecodeField("code", .int(code)), DecodeField("name", .string(name))]
        if code == 0x05, payload.count >= 2 {
            summary += ": reason \(HexFormat.byteValue(payload[1]))"
            fields.append(DecodeField("reason", .int(payload[1])))
        }
        return DecodedRecord(direction: direction, layer: .smp, type: "smp", summary: summary, fields: fields)
    }
}
