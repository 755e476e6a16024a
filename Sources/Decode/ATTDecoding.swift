import ATTCodec
import PhoneServices
import TextFormat

/// Turns one ATT PDU into a record. `context` names handles (from the
/// capture's discovery) and says which request a response answers.
public enum ATTDecoding {
    /// What the decoder knows besides the PDU's own bytes.
    public struct Context {
        public var map: GATTMap
        /// The request this PDU answers, when it is a response.
        public var request: PendingRequest?
        public init(map: GATTMap = GATTMap(), request: PendingRequest? = nil) {
            self.map = map
            self.request = request
        }
    }

    /// The parts of a request needed to read its response.
    public struct PendingRequest: Equatable, Sendable {
        public var opcode: UInt8
        public var handle: UInt16?
        public var type: BluetoothUUID?
        public init(opcode: UInt8, handle: UInt16? = nil, type: BluetoothUUID? = nil) {
            self.opcode = opcode
            self.handle = handle
            self.type = type
        }
    }

    /// `Write Request` → `write_request`; unknown opcodes `opcode_0x23`.
    public static func typeName(_ raw: UInt8) -> String {
        guard let op = ATTOpcode(rawValue: raw) else { return "opcode_\(HexFormat.byteValue(raw))" }
        return snake(op.description)
    }

    public static func opcodeName(_ raw: UInt8) -> String {
        ATTOpcode(rawValue: raw)?.description ?? "ATT opcode \(HexFormat.byteValue(raw))"
    }

    /// Decodes a single PDU with no context (hex input).
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        try decode(bytes, context: Context())
    }

    public static func decode(_ bytes: [UInt8], context: Context) throws(DecodeError) -> DecodedRecord {
        let result: Result<DecodedRecord, ATTPDUError> = bytes.withUnsafeBytes { raw in
            do throws(ATTPDUError) {
                return .success(record(try ATTPDU.decode(raw, mtu: Int(UInt16.max)), bytes: bytes, context: context))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let r): return r
        case .failure(let e): throw located(e, bytes: bytes)
        }
    }

    /// An `ATTPDUError` with the offset of the byte that is wrong.
    static func located(_ e: ATTPDUError, bytes: [UInt8]) -> DecodeError {
        switch e {
        case .empty:
            return .at(0, "an ATT PDU has at least 1 byte (the opcode), got none")
        case .truncated(let op, let minimum, let actual):
            return .at(actual, "\(opcodeName(op)) (\(HexFormat.byteValue(op))) needs at least \(minimum) bytes, got \(actual)")
        case .wrongLength(let op, let expected, let actual):
            return .at(min(expected, actual), "\(opcodeName(op)) (\(HexFormat.byteValue(op))) is \(expected) bytes, got \(actual)")
        case .invalidField(let op, let field):
            let offset: Int
            let what: String
            switch field {
            case .format: (offset, what) = (1, "format \(bytes.count > 1 ? String(bytes[1]) : "?") (1: 16-bit UUIDs, 2: 128-bit)")
            case .elementLength: (offset, what) = (1, "element length \(bytes.count > 1 ? String(bytes[1]) : "?")")
            case .listLength: (offset, what) = (2, "list: \(max(0, bytes.count - 2)) bytes is not a whole number of elements")
            case .uuidLength: (offset, what) = (5, "attribute type: \(max(0, bytes.count - 5)) bytes, a UUID is 2 or 16")
            case .flags: (offset, what) = (1, "flags \(bytes.count > 1 ? HexFormat.byteValue(bytes[1]) : "?") (00 cancel, 01 write)")
            case .handle: (offset, what) = (1, "handle")
            case .mtu: (offset, what) = (1, "MTU")
            case .signature: (offset, what) = (3, "signature")
            }
            return .at(offset, "\(opcodeName(op)) (\(HexFormat.byteValue(op))): invalid \(what)")
        case .exceedsMTU(let length, let mtu):
            return .at(mtu, "ATT PDU of \(length) bytes is longer than ATT_MTU \(mtu)")
        }
    }

    // MARK: formatting

    static func handleText(_ h: UInt16, _ map: GATTMap) -> String {
        if let n = map.name(of: h) { return "handle \(HexFormat.handle(h)) (\(n))" }
        return "handle \(HexFormat.handle(h))"
    }

    static func handleFields(_ h: UInt16, _ map: GATTMap) -> [DecodeField] {
        var f = [DecodeField("handle", .int(h))]
        if let n = map.name(of: h) { f.append(DecodeField("attribute", .string(n))) }
        return f
    }

    static func uuidFields(_ name: String, _ u: BluetoothUUID) -> [DecodeField] {
        var f = [DecodeField(name, .string(u.description))]
        if let n = GATTNames.name(of: u) { f.append(DecodeField(name + "_name", .string(n))) }
        return f
    }

    static func valueText(_ v: [UInt8]) -> String { v.isEmpty ? "(empty)" : HexFormat.spaced(v) }

    /// `01 00 (notifications on)` for a CCCD value.
    static func cccdMeaning(_ v: [UInt8]) -> String? {
        guard v.count == 2 else { return nil }
        switch UInt16(v[0]) | UInt16(v[1]) << 8 {
        case 0: return "off"
        case 1: return "notifications on"
        case 2: return "indications on"
        case 3: return "notifications and indications on"
        default: return nil
        }
    }

    static func record(_ pdu: ATTPDU, bytes: [UInt8], context: Context) -> DecodedRecord {
        let map = context.map
        let raw = pdu.opcode
        var summary = opcodeName(raw)
        var fields = [DecodeField("opcode", .int(raw)), DecodeField("opcode_name", .string(opcodeName(raw)))]

        func handleValue(_ handle: UInt16, _ value: UnsafeRawBufferPointer, offset: UInt16? = nil) {
            let v = Array(value)
            summary += " \(handleText(handle, map))\(offset.map { " offset \($0)" } ?? ""): \(valueText(v))"
            fields += handleFields(handle, map)
            if let offset { fields.append(DecodeField("offset", .int(offset))) }
            fields.append(DecodeField("value_hex", .hex(v)))
            if case .cccd = map.role(of: handle), let meaning = cccdMeaning(v) {
                summary += " (\(meaning))"
                fields.append(DecodeField("cccd", .string(snake(meaning))))
            }
        }
        func range(_ r: ATTHandleRange) {
            summary += " \(HexFormat.handle(r.start))-\(HexFormat.handle(r.end))"
            fields += [DecodeField("start_handle", .int(r.start)), DecodeField("end_handle", .int(r.end))]
        }
        func readValue(_ value: UnsafeRawBufferPointer) {
            let v = Array(value)
            if let h = context.request?.handle {
                summary += " for \(handleText(h, map))"
                fields += handleFields(h, map)
            }
            summary += ": \(valueText(v))"
            fields.append(DecodeField("value_hex", .hex(v)))
            if let h = context.request?.handle, let u = map.valueUUID(h),
                [BluetoothUUID.deviceName, BluetoothUUID(0x2A29), BluetoothUUID(0x2A24)].contains(u) {
                summary += " \(QuotedText.show(v))"
                fields.append(DecodeField("text", .string(String(decoding: v, as: UTF8.self))))
            }
        }

        switch pdu {
        case .errorResponse(let e):
            // 0xA0–0xA2 mean something else on an AMS characteristic than on ANCS's.
            let amsError = isAMS(e.handle, map) ? AMSNames.error(e.error.rawValue) : nil
            let errorName = amsError?.name ?? e.error.name
            let errorText = amsError.map { "\($0.name) (0x\(String(e.error.rawValue, radix: 16, uppercase: true)))" }
                ?? e.error.description
            summary += " to \(opcodeName(e.requestOpcode)), \(handleText(e.handle, map)): \(errorText)"
            fields += [DecodeField("request_opcode", .int(e.requestOpcode)), DecodeField("request_name", .string(opcodeName(e.requestOpcode)))]
            fields += handleFields(e.handle, map)
            fields += [DecodeField("error", .int(e.error.rawValue)), DecodeField("error_name", .string(errorName))]
        case .exchangeMTURequest(let m):
            summary += ": client Rx MTU \(m.clientRxMTU)"
            fields.append(DecodeField("mtu", .int(m.clientRxMTU)))
        case .exchangeMTUResponse(let m):
            summary += ": server Rx MTU \(m.serverRxMTU)"
            fields.append(DecodeField("mtu", .int(m.serverRxMTU)))
        case .findInformationRequest(let r):
            range(r.range)
        case .findInformationResponse(let r):
            var items: [String] = []
            var json: [DecodeValue] = []
            for i in 0..<r.count {
                let e = r[i]
                items.append("\(HexFormat.handle(e.handle)) \(GATTNames.describe(e.type))")
                json.append(.object([DecodeField("handle", .int(e.handle))] + uuidFields("uuid", e.type)))
            }
            summary += ": " + items.joined(separator: ", ")
            fields.append(DecodeField("entries", .array(json)))
        case .findByTypeValueRequest(let r):
            range(r.range)
            let type = BluetoothUUID(r.type)
            let v = Array(r.value)
            summary += ": \(GATTNames.describe(type)) = "
            fields += uuidFields("attribute_type", type)
            if (type == .primaryService || type == .secondaryService), let u = BluetoothUUID(littleEndian: v) {
                summary += GATTNames.describe(u)
                fields += uuidFields("uuid", u)
            } else {
                summary += valueText(v)
            }
            fields.append(DecodeField("value_hex", .hex(v)))
        case .findByTypeValueResponse(let r):
            var items: [String] = []
            var json: [DecodeValue] = []
            for i in 0..<r.count {
                let g = r[i]
                items.append("\(HexFormat.handle(g.start))-\(HexFormat.handle(g.end))")
                json.append(.object([DecodeField("start_handle", .int(g.start)), DecodeField("end_handle", .int(g.end))]))
            }
            if let u = context.request?.type { summary += " (\(GATTNames.describe(u)))" }
            summary += ": " + items.joined(separator: ", ")
            fields.append(DecodeField("ranges", .array(json)))
        case .readByTypeRequest(let r):
            range(r.range)
            summary += ": \(GATTNames.describe(r.type))"
            fields += uuidFields("attribute_type", r.type)
        case .readByTypeResponse(let r):
            let declarations = context.request.map { $0.type == .characteristic }
                ?? (r.elementLength == 7 || r.elementLength == 21)
            var items: [String] = []
            var json: [DecodeValue] = []
            for i in 0..<r.count {
                let e = r[i]
                let v = Array(e.value)
                if declarations, v.count == 5 || v.count == 19, let u = BluetoothUUID(littleEndian: Array(v[3...])) {
                    let valueHandle = UInt16(v[1]) | UInt16(v[2]) << 8
                    let props = propertyNames(v[0])
                    items.append("\(HexFormat.handle(e.handle)) characteristic \(GATTNames.describe(u)) value \(HexFormat.handle(valueHandle)) [\(props.joined(separator: ","))]")
                    json.append(.object(
                        [DecodeField("handle", .int(e.handle)), DecodeField("value_handle", .int(valueHandle))]
                            + uuidFields("uuid", u)
                            + [DecodeField("properties", .array(props.map { .string($0) })), DecodeField("properties_raw", .int(v[0]))]))
                } else {
                    items.append("\(HexFormat.handle(e.handle)): \(valueText(v))")
                    json.append(.object([DecodeField("handle", .int(e.handle)), DecodeField("value_hex", .hex(v))]))
                }
            }
            summary += ": " + items.joined(separator: "; ")
            fields.append(DecodeField("entries", .array(json)))
        case .readRequest(let r):
            summary += " \(handleText(r.handle, map))"
            fields += handleFields(r.handle, map)
        case .readResponse(let r):
            readValue(r.value)
        case .readBlobRequest(let r):
            summary += " \(handleText(r.handle, map)) offset \(r.offset)"
            fields += handleFields(r.handle, map)
            fields.append(DecodeField("offset", .int(r.offset)))
        case .readBlobResponse(let r):
            readValue(r.value)
        case .readMultipleRequest(let r):
            let handles = (0..<r.count).map { r[$0] }
            summary += ": " + handles.map { handleText($0, map) }.joined(separator: ", ")
            fields.append(DecodeField("handles", .array(handles.map { .int($0) })))
        case .readMultipleResponse(let r):
            summary += ": \(valueText(Array(r.values)))"
            fields.append(DecodeField("value_hex", .hex(Array(r.values))))
        case .readByGroupTypeRequest(let r):
            range(r.range)
            summary += ": \(GATTNames.describe(r.type))"
            fields += uuidFields("attribute_type", r.type)
        case .readByGroupTypeResponse(let r):
            var items: [String] = []
            var json: [DecodeValue] = []
            for i in 0..<r.count {
                let e = r[i]
                let v = Array(e.value)
                var o: [DecodeField] = [DecodeField("start_handle", .int(e.range.start)), DecodeField("end_handle", .int(e.range.end))]
                var item = "\(HexFormat.handle(e.range.start))-\(HexFormat.handle(e.range.end))"
                if let u = BluetoothUUID(littleEndian: v) {
                    item += " \(GATTNames.describe(u))"
                    o += uuidFields("uuid", u)
                } else {
                    item += " \(valueText(v))"
                    o.append(DecodeField("value_hex", .hex(v)))
                }
                items.append(item)
                json.append(.object(o))
            }
            summary += ": " + items.joined(separator: "; ")
            fields.append(DecodeField("entries", .array(json)))
        case .writeRequest(let w):
            handleValue(w.handle, w.value)
        case .writeCommand(let w):
            handleValue(w.handle, w.value)
        case .signedWriteCommand(let w):
            handleValue(w.handle, w.value)
            summary += " signature \(HexFormat.compact(w.signature))"
            fields.append(DecodeField("signature_hex", .hex(Array(w.signature))))
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            if let h = context.request?.handle {
                summary += " for \(handleText(h, map))"
                fields += handleFields(h, map)
            }
        case .prepareWriteRequest(let p):
            handleValue(p.handle, p.value, offset: p.offset)
        case .prepareWriteResponse(let p):
            handleValue(p.handle, p.value, offset: p.offset)
        case .executeWriteRequest(let e):
            summary += e.flags == .writeAll ? ": write all" : ": cancel all"
            fields.append(DecodeField("flags", .int(e.flags.rawValue)))
        case .handleValueNotification(let n):
            handleValue(n.handle, n.value)
        case .handleValueIndication(let n):
            handleValue(n.handle, n.value)
        case .other(let op, let parameters):
            summary += ": \(valueText(Array(parameters)))"
            fields.append(DecodeField("parameters_hex", .hex(Array(parameters))))
            _ = op
        }
        return DecodedRecord(layer: .att, type: typeName(raw), summary: summary, fields: fields)
    }

    /// `Write Request` → `write_request`.
    static func snake(_ s: String) -> String {
        String(s.asciiLowercased().map { $0 == " " ? "_" : $0 })
    }

    /// True when discovery says `handle` is an AMS characteristic's value.
    static func isAMS(_ handle: UInt16, _ map: GATTMap) -> Bool {
        guard let u = map.valueUUID(handle) else { return false }
        return u == .amsRemoteCommand || u == .amsEntityUpdate || u == .amsEntityAttribute
    }

    static func propertyNames(_ p: UInt8) -> [String] {
        let names = ["broadcast", "read", "write_without_response", "write", "notify", "indicate", "signed_write", "extended_properties"]
        return (0..<8).filter { p & (1 << $0) != 0 }.map { names[$0] }
    }
}
