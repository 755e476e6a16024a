import ANCS
import ATTCodec
import PhoneServices

/// One ATT bearer's conversation, decoded PDU by PDU: it remembers the
/// outstanding request of each side (to read responses), learns each
/// server's handles from discovery, and decodes the ANCS, AMS, CTS and
/// Gadgetbridge values written to or notified from the characteristics it
/// has identified — Data Source responses reassembled by the real
/// `DataSourceAssembler`, registered from the Control Point writes it sees;
/// UART lines by the watch's `LineAssembler`.
public final class ATTConversation {
    /// What discovery taught about each side's server, by the direction its
    /// responses go (nil: direction unknown): the phone serves ANCS and AMS,
    /// the watch the UART, and the two servers' handles may overlap.
    private var maps: [DecodedRecord.Direction?: GATTMap] = [:]
    /// The server the PDU being decoded goes to or comes from.
    private var server: DecodedRecord.Direction?
    /// Its map.
    private var map: GATTMap {
        get { maps[server] ?? GATTMap() }
        set { maps[server] = newValue }
    }
    /// Outstanding request per requesting side (nil: direction unknown).
    private var pending: [DecodedRecord.Direction?: ATTDecoding.PendingRequest] = [:]
    private let dataSource = DataSourceTracker()
    private let ams = AMSTracker()
    /// Made when the UART carries its first value.
    private var gadgetbridge: GadgetbridgeTracker?
    /// The Control Point write waiting for its Write Response / Error Response.
    private var controlPointWriteTag: UInt32?
    /// Where the PDU being decoded sits in the capture.
    private var position: CapturePosition?

    public init() {}

    /// What discovery taught about the server whose responses go in
    /// `direction` (`.phoneToWatch`: the phone's; nil: direction unknown).
    public func map(servedIn direction: DecodedRecord.Direction?) -> GATTMap { maps[direction] ?? GATTMap() }

    /// Forget the session (disconnection, `reason` says why; nil: the
    /// capture or the PDUs given end): handles stay valid for a bonded
    /// phone, but UIDs, pending requests and partial responses do not.
    /// Returns the Data Source responses this ends: complete ones that
    /// lacked only optional attributes, and those cut off or never answered.
    @discardableResult
    public func endSession(because reason: String?) -> [DecodedRecord] {
        pending = [:]
        controlPointWriteTag = nil
        return ams.end() + dataSource.end(because: reason) + (gadgetbridge?.end(because: reason) ?? [])
    }

    /// True when a Data Source response lacks only optional attributes,
    /// which the phone may leave out: `advance` ends it after a quiet period.
    public var isAwaitingOptionalAttributes: Bool { dataSource.isAwaitingOptionalAttributes }

    /// The capture's clock reached `timeMicroseconds`: a response lacking only
    /// optional attributes ends once the Data Source has been quiet for the
    /// watch's own quiet period (250 ms); its record keeps the position of
    /// the notification that completed it.
    public func advance(to timeMicroseconds: Int64) -> [DecodedRecord] {
        dataSource.advance(to: timeMicroseconds)
    }

    /// Decodes one PDU sent in `direction`; returns its ATT record and any
    /// ANCS / CTS records it completes. A malformed PDU gives one
    /// `malformed` record (the conversation goes on). `position`: where the
    /// PDU is in a capture.
    public func decode(_ pdu: [UInt8], direction: DecodedRecord.Direction?, at position: CapturePosition? = nil) -> [DecodedRecord] {
        self.position = position
        let requester: DecodedRecord.Direction? = direction?.opposite
        guard let raw = pdu.first else {
            return [malformed("ATT", .at(0, "an ATT PDU has at least 1 byte (the opcode), got none"), direction)]
        }
        let kind = ATTOpcode.kind(ofRaw: raw)
        // Requests, commands and confirmations go to the server; the rest come from it.
        server = kind == .request || kind == .command || kind == .confirmation ? requester : direction
        let answered = (kind == .response || kind == .confirmation) ? pending[requester] : nil
        var att: DecodedRecord
        do {
            att = try ATTDecoding.decode(pdu, context: ATTDecoding.Context(map: map, request: answered))
        } catch {
            if kind == .response { pending[requester] = nil }
            return [malformed("ATT \(ATTDecoding.opcodeName(raw))", error, direction)]
        }
        att.direction = direction
        var out = [att]

        pdu.withUnsafeBytes { bytes in
            guard let decoded = try? ATTPDU.decode(bytes, mtu: Int(UInt16.max)) else { return }
            // An Entity Attribute value the reader stopped reading ends before this PDU.
            out.insert(contentsOf: ams.saw(decoded, direction: direction, kind: kind), at: 0)
            learn(from: decoded, answering: answered)
            out += interpret(decoded, answering: answered, direction: direction)
            switch kind {
            case .request: pending[direction] = request(for: decoded)
            case .response: pending[requester] = nil
            default: break
            }
        }
        return out
    }

    private func malformed(_ what: String, _ e: DecodeError, _ direction: DecodedRecord.Direction?) -> DecodedRecord {
        Self.malformedRecord(what, e, direction)
    }

    static func malformedRecord(_ what: String, _ e: DecodeError, _ direction: DecodedRecord.Direction?) -> DecodedRecord {
        var fields = [DecodeField("error", .string(e.message))]
        if case .byte(let o) = e.location { fields.insert(DecodeField("offset", .int(o)), at: 0) }
        return DecodedRecord(direction: direction, layer: .malformed, type: "malformed", summary: "\(what): \(e)", fields: fields)
    }

    private func request(for pdu: ATTPDU) -> ATTDecoding.PendingRequest {
        switch pdu {
        case .readRequest(let r): .init(opcode: pdu.opcode, handle: r.handle)
        case .readBlobRequest(let r): .init(opcode: pdu.opcode, handle: r.handle)
        case .writeRequest(let w): .init(opcode: pdu.opcode, handle: w.handle)
        case .readByTypeRequest(let r): .init(opcode: pdu.opcode, type: r.type)
        case .readByGroupTypeRequest(let r): .init(opcode: pdu.opcode, type: r.type)
        case .findByTypeValueRequest(let r):
            .init(opcode: pdu.opcode, type: BluetoothUUID(littleEndian: Array(r.value)))
        default: .init(opcode: pdu.opcode)
        }
    }

    /// Discovery responses teach the map.
    private func learn(from pdu: ATTPDU, answering request: ATTDecoding.PendingRequest?) {
        switch pdu {
        case .readByGroupTypeResponse(let r):
            guard request == nil || request?.type == .primaryService || request?.type == .secondaryService else { return }
            for i in 0..<r.count {
                let e = r[i]
                if let u = BluetoothUUID(littleEndian: e.value) { map.addService(e.range, u) }
            }
        case .findByTypeValueResponse(let r):
            guard let u = request?.type, request?.opcode == ATTOpcode.findByTypeValueRequest.rawValue else { return }
            for i in 0..<r.count { map.addService(r[i], u) }
        case .readByTypeResponse(let r):
            let declarations = request.map { $0.type == .characteristic } ?? (r.elementLength == 7 || r.elementLength == 21)
            guard declarations else { return }
            for i in 0..<r.count {
                let e = r[i]
                let v = e.value
                guard v.count == 5 || v.count == 19,
                    let u = BluetoothUUID(littleEndian: UnsafeRawBufferPointer(rebasing: v[3...]))
                else { continue }
                map.addCharacteristic(.init(
                    uuid: u, declarationHandle: e.handle, valueHandle: UInt16(v[1]) | UInt16(v[2]) << 8, properties: v[0]))
            }
        case .findInformationResponse(let r):
            for i in 0..<r.count { map.addDescriptor(r[i].handle, r[i].type) }
        default:
            break
        }
    }

    private func stamp(_ r: DecodedRecord, _ direction: DecodedRecord.Direction?) -> DecodedRecord {
        var r = r
        r.direction = direction
        return r
    }

    /// ANCS and CTS meaning of values on identified characteristics.
    private func interpret(
        _ pdu: ATTPDU, answering request: ATTDecoding.PendingRequest?, direction: DecodedRecord.Direction?
    ) -> [DecodedRecord] {
        switch pdu {
        case .writeRequest(let w) where map.valueUUID(w.handle) == .ancsControlPoint:
            return controlPointWrite(Array(w.value), withResponse: true, direction)
        case .writeCommand(let w) where map.valueUUID(w.handle) == .ancsControlPoint:
            return controlPointWrite(Array(w.value), withResponse: false, direction)
        case .writeResponse where request.flatMap { $0.handle }.flatMap(map.valueUUID) == .ancsControlPoint:
            controlPointWriteTag = nil
            return []
        case .errorResponse(let e) where map.valueUUID(e.handle) == .ancsControlPoint && e.requestOpcode == ATTOpcode.writeRequest.rawValue:
            if let tag = controlPointWriteTag { dataSource.cancel(tag: tag) }
            controlPointWriteTag = nil
            let meaning = ANCSErrorCode(rawValue: e.error.rawValue).map { "\($0)" } ?? "\(e.error)"
            return [stamp(DecodedRecord(
                layer: .ancs, type: "control_point_error",
                summary: "Control Point: the phone refused the command: \(meaning); no Data Source response follows",
                fields: [DecodeField("error", .int(e.error.rawValue)), DecodeField("error_name", .string(e.error.name))]), direction)]
        case .handleValueNotification(let n) where map.valueUUID(n.handle) == .ancsNotificationSource:
            do {
                return [stamp(try ANCSDecoding.notificationSource(Array(n.value)), direction)]
            } catch {
                return [malformed("ANCS Notification Source", error, direction)]
            }
        case .handleValueNotification(let n) where map.valueUUID(n.handle) == .ancsDataSource:
            return dataSource.feed(n.value, at: position, direction: direction)
        case .writeRequest(let w) where map.valueUUID(w.handle) == GadgetbridgeSession.uartRX:
            return uart(w.value, .rx, direction)
        case .writeCommand(let w) where map.valueUUID(w.handle) == GadgetbridgeSession.uartRX:
            return uart(w.value, .rx, direction)
        case .handleValueNotification(let n) where map.valueUUID(n.handle) == GadgetbridgeSession.uartTX:
            return uart(n.value, .tx, direction)
        case .handleValueNotification(let n) where map.valueUUID(n.handle) == .currentTime:
            return currentTime(Array(n.value), direction)
        case .readResponse(let r) where request.flatMap { $0.handle }.flatMap(map.valueUUID) == .currentTime:
            return currentTime(Array(r.value), direction)
        default:
            return interpretAMS(pdu, answering: request, direction: direction)
        }
    }

    /// AMS meaning of values on its identified characteristics.
    private func interpretAMS(
        _ pdu: ATTPDU, answering request: ATTDecoding.PendingRequest?, direction: DecodedRecord.Direction?
    ) -> [DecodedRecord] {
        func decoded(_ what: String, _ body: () throws(DecodeError) -> DecodedRecord) -> [DecodedRecord] {
            do { return [stamp(try body(), direction)] } catch { return [malformed("AMS \(what)", error, direction)] }
        }
        switch pdu {
        case .writeRequest(let w) where map.valueUUID(w.handle) == .amsRemoteCommand:
            return decoded("Remote Command") { () throws(DecodeError) in try ams.remoteCommandWrite(Array(w.value)) }
        case .writeCommand(let w) where map.valueUUID(w.handle) == .amsRemoteCommand:
            return decoded("Remote Command") { () throws(DecodeError) in try ams.remoteCommandWrite(Array(w.value)) }
        case .writeRequest(let w) where map.valueUUID(w.handle) == .amsEntityUpdate:
            return decoded("Entity Update") { () throws(DecodeError) in try ams.entityUpdateWrite(Array(w.value)) }
        case .writeCommand(let w) where map.valueUUID(w.handle) == .amsEntityUpdate:
            return decoded("Entity Update") { () throws(DecodeError) in try ams.entityUpdateWrite(Array(w.value)) }
        case .writeRequest(let w) where map.valueUUID(w.handle) == .amsEntityAttribute:
            return decoded("Entity Attribute") { () throws(DecodeError) in try ams.entityAttributeWrite(Array(w.value)) }
        case .writeCommand(let w) where map.valueUUID(w.handle) == .amsEntityAttribute:
            return decoded("Entity Attribute") { () throws(DecodeError) in try ams.entityAttributeWrite(Array(w.value)) }
        case .handleValueNotification(let n) where map.valueUUID(n.handle) == .amsRemoteCommand:
            return [stamp(ams.remoteCommandNotification(Array(n.value)), direction)]
        case .handleValueNotification(let n) where map.valueUUID(n.handle) == .amsEntityUpdate:
            return decoded("Entity Update") { () throws(DecodeError) in try ams.entityUpdateNotification(Array(n.value)) }
        case .readRequest(let r) where map.valueUUID(r.handle) == .amsEntityAttribute:
            ams.readRequested(handle: r.handle, offset: 0, requester: direction)
            return []
        case .readBlobRequest(let r) where map.valueUUID(r.handle) == .amsEntityAttribute:
            ams.readRequested(handle: r.handle, offset: Int(r.offset), requester: direction)
            return []
        case .readResponse(let r) where request.flatMap { $0.handle }.flatMap(map.valueUUID) == .amsEntityAttribute:
            return ams.readResponse(Array(r.value), at: position, direction: direction)
        case .readBlobResponse(let r) where request.flatMap { $0.handle }.flatMap(map.valueUUID) == .amsEntityAttribute:
            return ams.readResponse(Array(r.value), at: position, direction: direction)
        case .errorResponse(let e):
            guard let u = map.valueUUID(e.handle), [.amsRemoteCommand, .amsEntityUpdate, .amsEntityAttribute].contains(u) else {
                return []
            }
            return ams.error(e, on: u, direction: direction)
        default:
            return []
        }
    }

    private func uart(
        _ value: UnsafeRawBufferPointer, _ c: GadgetbridgeTracker.Characteristic, _ direction: DecodedRecord.Direction?
    ) -> [DecodedRecord] {
        let tracker = gadgetbridge ?? GadgetbridgeTracker()
        gadgetbridge = tracker
        return tracker.feed(value, on: c, direction: direction)
    }

    private func currentTime(_ v: [UInt8], _ direction: DecodedRecord.Direction?) -> [DecodedRecord] {
        guard let t = CurrentTime(v) else {
            return [malformed("CTS Current Time", .at(min(v.count, 10), "Current Time is 10 bytes, got \(v.count)"), direction)]
        }
        return [stamp(DecodedRecord(
            layer: .cts, type: "current_time", summary: "Current Time: \(t)",
            fields: [DecodeField("time", .string(t.description)), DecodeField("adjust_reason", .int(t.adjustReason.rawValue))]), direction)]
    }

    private func controlPointWrite(_ value: [UInt8], withResponse: Bool, _ direction: DecodedRecord.Direction?) -> [DecodedRecord] {
        let command: ControlPointCommand
        do {
            command = try ANCSDecoding.parseCommand(value)
        } catch {
            return [malformed("ANCS Control Point", error, direction)]
        }
        let (tag, records) = dataSource.expect(command, at: position, direction: direction)
        if withResponse { controlPointWriteTag = tag }
        return [stamp(ANCSDecoding.record(command), direction)] + records
    }
}
