import AMS
import ATTCodec

/// The Apple Media Service of one conversation, as the watch would read it:
/// the Remote Command and Entity Update writes that an Error Response may
/// refuse, the attribute the last Entity Attribute write selected, and the
/// value read from Entity Attribute after it — a Read, then Read Blobs while
/// each response fills ATT_MTU − 1 bytes — put back together into one record.
final class AMSTracker {
    /// A value being read from Entity Attribute.
    private struct Read {
        var handle: UInt16
        var requester: DecodedRecord.Direction?
        var bytes: [UInt8] = []
        var reads = 0
        /// The response that brought the last bytes.
        var last: CapturePosition?
        var direction: DecodedRecord.Direction?
    }

    /// What the last write to each characteristic asked for (for its error).
    private var remoteCommand: UInt8?
    private var registeredEntity: UInt8?
    /// The attribute the last Entity Attribute write selected.
    private var selected: EntityAttributeCommand?
    private var read: Read?
    /// The negotiated ATT_MTU: a response shorter than MTU − 1 ends a value.
    private var mtu = ATT.defaultMTU
    private var proposedMTU: Int?

    // MARK: the conversation's PDUs

    /// Every PDU of the conversation, before its own meaning is decoded:
    /// Exchange MTU sets the MTU; a request or command from the reader that
    /// does not continue the Entity Attribute read ends it (the reader read
    /// no further). Returns the value that ends, if any.
    func saw(_ pdu: ATTPDU, direction: DecodedRecord.Direction?, kind: ATTOpcode.Kind?) -> [DecodedRecord] {
        switch pdu {
        case .exchangeMTURequest(let m): proposedMTU = Int(m.clientRxMTU)
        case .exchangeMTUResponse(let m):
            mtu = max(ATT.defaultMTU, min(proposedMTU ?? Int(m.serverRxMTU), Int(m.serverRxMTU)))
        default: break
        }
        guard let r = read, kind == .request || kind == .command, direction == r.requester else { return [] }
        if case .readBlobRequest(let b) = pdu, b.handle == r.handle, Int(b.offset) == r.bytes.count { return [] }
        return finishRead(complete: false)
    }

    // MARK: Remote Command

    func remoteCommandWrite(_ value: [UInt8]) throws(DecodeError) -> DecodedRecord {
        remoteCommand = value.count == 1 ? value[0] : nil
        return try AMSDecoding.remoteCommand(value)
    }

    func remoteCommandNotification(_ value: [UInt8]) -> DecodedRecord {
        AMSDecoding.remoteCommandNotification(value)
    }

    // MARK: Entity Update

    func entityUpdateWrite(_ value: [UInt8]) throws(DecodeError) -> DecodedRecord {
        registeredEntity = value.first
        return try AMSDecoding.entityUpdateCommand(value)
    }

    func entityUpdateNotification(_ value: [UInt8]) throws(DecodeError) -> DecodedRecord {
        try AMSDecoding.entityUpdate(value)
    }

    // MARK: Entity Attribute

    func entityAttributeWrite(_ value: [UInt8]) throws(DecodeError) -> DecodedRecord {
        selected = nil
        let command = try AMSDecoding.parseEntityAttribute(value)
        selected = command
        return try AMSDecoding.entityAttributeCommand(value)
    }

    /// A Read or Read Blob request of Entity Attribute: a new value starts
    /// unless it continues the one being read.
    func readRequested(handle: UInt16, offset: Int, requester: DecodedRecord.Direction?) {
        if let r = read, r.handle == handle, r.bytes.count == offset, offset > 0 { return }
        read = Read(handle: handle, requester: requester)
    }

    /// A Read or Read Blob response from Entity Attribute: the value ends
    /// with a response shorter than ATT_MTU − 1.
    func readResponse(_ value: [UInt8], at position: CapturePosition?, direction: DecodedRecord.Direction?) -> [DecodedRecord] {
        guard read != nil else { return [] }
        read!.bytes += value
        read!.reads += 1
        read!.last = position
        read!.direction = direction
        return value.count < mtu - 1 ? finishRead(complete: true) : []
    }

    /// An Error Response to a request on an AMS characteristic. A read past
    /// the end (Invalid Offset, Attribute Not Long) ends the value whole.
    func error(
        _ e: ATTErrorResponse, on characteristic: BluetoothUUID, direction: DecodedRecord.Direction?
    ) -> [DecodedRecord] {
        let code = e.error.rawValue
        let isRead = e.requestOpcode == ATTOpcode.readRequest.rawValue || e.requestOpcode == ATTOpcode.readBlobRequest.rawValue
        var out: [DecodedRecord] = []
        let refused: AMSDecoding.Refused
        switch characteristic {
        case .amsRemoteCommand:
            refused = .remoteCommand(remoteCommand)
        case .amsEntityUpdate:
            refused = .entityUpdate(entity: registeredEntity)
        default:
            refused = .entityAttribute(entity: selected?.entityIDRaw, attribute: selected?.attributeIDRaw, read: isRead)
            if isRead, read != nil {
                let endOfValue = e.error == .invalidOffset || e.error == .attributeNotLong
                if endOfValue, read!.reads > 0 { return finishRead(complete: true) }
                read = nil
            } else if !isRead {
                selected = nil  // a refused selection selects nothing
            }
        }
        if let r = AMSDecoding.errorRecord(refused, code: code) { out.append(stamped(r, direction)) }
        return out
    }

    /// The link or the capture ended: a value still being read is shown with what arrived.
    func end() -> [DecodedRecord] {
        let out = finishRead(complete: false)
        remoteCommand = nil
        registeredEntity = nil
        selected = nil
        return out
    }

    private func finishRead(complete: Bool) -> [DecodedRecord] {
        guard let r = read else { return [] }
        read = nil
        guard r.reads > 0 else { return [] }  // asked, never answered: the ATT lines say so
        var record: DecodedRecord
        do {
            record = try AMSDecoding.entityAttributeValue(
                entity: selected?.entityIDRaw, attribute: selected?.attributeIDRaw, value: r.bytes, reads: r.reads,
                complete: complete)
        } catch {
            record = ATTConversation.malformedRecord("AMS Entity Attribute", error, r.direction)
        }
        record.direction = r.direction
        // Shown with the response that brought its last bytes.
        if let last = r.last {
            record.packet = last.packet
            record.timeMicroseconds = last.timeMicroseconds
        }
        return [record]
    }

    private func stamped(_ r: DecodedRecord, _ direction: DecodedRecord.Direction?) -> DecodedRecord {
        var r = r
        r.direction = direction
        return r
    }
}
