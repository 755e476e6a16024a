import ATTCodec
import HAL

/// Errors from building a server database.
public enum GATTServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The requested handles are taken or the database is full.
    case noRoom(needed: Int)

    /// As Swift's reflection printed it.
    public var description: String {
        switch self {
        case .noRoom(let needed): "noRoom(needed: \(needed))"
        }
    }
}

/// A small GATT server: an attribute database answering the peer's requests
/// on an `ATTBearer` (attach it with `attach(to:)`).
///
/// Used for the watch's own database (GAP, GATT, a characteristic that needs
/// encryption) and by the simulated iPhone. Services can be published and
/// removed at run time; `serviceChanged(_:)` then indicates the change.
/// Long writes (Prepare / Execute Write) are queued in a bounded prepare queue
/// and applied on Execute. Everything a small server does not implement (Read
/// Multiple, signed writes) is answered "Request Not Supported".
public final class GATTServer: ATTRequestServing {
    struct Attribute {
        var handle: UInt16
        var type: BluetoothUUID
        var permissions: GATTPermissions
        var value: [UInt8]
        /// For service declarations: the service's last handle; else the handle itself.
        var groupEnd: UInt16
        var read: (() -> [UInt8])?
        var write: ((UnsafeRawBufferPointer) -> ATTErrorCode?)?
        /// For a CCCD: the value handle of its characteristic (0 otherwise).
        var cccdOf: UInt16 = 0
        /// For a characteristic value: its properties (notify/indicate checks).
        var properties: GATTCharacteristicProperties = []
    }

    /// Sorted by handle.
    private(set) var attributes: [Attribute] = []
    public private(set) var services: [GATTPublishedService] = []
    /// The bearer requests arrive on (set by `attach(to:)`).
    /// Not retained; cleared by `detach()`, which the bearer's deinit calls,
    /// and this server's deinit clears the bearer's reference to it.
    public private(set) unowned(unsafe) var bearer: ATTBearer?
    /// Where the link's security level comes from (nil: never encrypted).
    public var security: LinkSecurityControl?
    /// Called when the peer writes a CCCD: (characteristic value handle, new CCCD value).
    public var subscriptionHandler: ((_ valueHandle: UInt16, _ configuration: UInt16) -> Void)?
    /// Value handle of Service Changed, once `publishGenericAttributeService()` ran.
    public private(set) var serviceChangedHandle: UInt16 = 0
    /// Requests answered, for tests and diagnostics.
    public private(set) var requestsAnswered = 0
    /// The peer's prepared writes (long writes), applied on Execute Write.
    private var prepareQueue = PrepareWriteQueue()

    public init(security: LinkSecurityControl? = nil) {
        self.security = security
        attributes.reserveCapacity(64)
    }

    /// Serves requests arriving on `bearer`.
    /// Forgets the bearer (it is going away).
    func detach() { bearer = nil }

    deinit {
        if let bearer, bearer.server === self { bearer.server = nil }
    }

    public func attach(to bearer: ATTBearer) {
        self.bearer = bearer
        bearer.server = self
        for i in attributes.indices where attributes[i].cccdOf != 0 {
            attributes[i].value = [0, 0]  // CCCDs are per connection
        }
    }

    // MARK: - building the database

    /// Publishes a service at the first free range (or at `start`), returning its handles.
    @discardableResult
    public func publish(_ service: GATTServiceDefinition, at start: UInt16? = nil) throws(GATTServerError) -> GATTPublishedService {
        let count = service.handleCount
        guard let first = start ?? firstFreeHandle(count: count), rangeIsFree(first, count) else {
            throw .noRoom(needed: count)
        }
        let end = UInt16(Int(first) + count - 1)
        var new: [Attribute] = []
        var h = first
        new.append(Attribute(
            handle: h, type: service.isPrimary ? .primaryService : .secondaryService, permissions: .read,
            value: service.uuid.littleEndianBytes, groupEnd: end))
        var valueHandles: [UInt16] = []
        var cccdHandles: [UInt16] = []
        for c in service.characteristics {
            let declHandle = h + 1
            let valueHandle = h + 2
            var decl: [UInt8] = [c.properties.rawValue, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)]
            decl += c.uuid.littleEndianBytes
            new.append(Attribute(handle: declHandle, type: .characteristic, permissions: .read, value: decl, groupEnd: declHandle))
            new.append(Attribute(
                handle: valueHandle, type: c.uuid, permissions: c.permissions, value: c.value, groupEnd: valueHandle,
                read: c.read, write: c.write, properties: c.properties))
            h = valueHandle
            valueHandles.append(valueHandle)
            var cccd: UInt16 = 0
            if !c.properties.isDisjoint(with: [.notify, .indicate]) {
                h += 1
                cccd = h
                var perms: GATTPermissions = .readWrite
                if !c.permissions.isDisjoint(with: [.readEncrypted, .writeEncrypted]) {
                    perms.formUnion([.readEncrypted, .writeEncrypted])
                }
                new.append(Attribute(
                    handle: h, type: .clientCharacteristicConfiguration, permissions: perms, value: [0, 0],
                    groupEnd: h, cccdOf: valueHandle, properties: c.properties))
            }
            cccdHandles.append(cccd)
            for d in c.descriptors {
                h += 1
                new.append(Attribute(handle: h, type: d.uuid, permissions: d.permissions, value: d.value, groupEnd: h))
            }
        }
        precondition(h == end, "GATTServer: handle accounting")
        let insertAt = attributes.firstIndex { $0.handle > first } ?? attributes.endIndex
        attributes.insert(contentsOf: new, at: insertAt)
        let published = GATTPublishedService(
            uuid: service.uuid, range: ATTHandleRange(start: first, end: end),
            valueHandles: valueHandles, cccdHandles: cccdHandles)
        services.append(published)
        services.sort { $0.range.start < $1.range.start }
        return published
    }

    /// Removes the service whose declaration is at `start`; returns its range.
    @discardableResult
    public func unpublish(serviceAt start: UInt16) -> ATTHandleRange? {
        guard let i = services.firstIndex(where: { $0.range.start == start }) else { return nil }
        let range = services.remove(at: i).range
        attributes.removeAll { range.contains($0.handle) }
        return range
    }

    /// Publishes the Generic Attribute service with Service Changed (indicate).
    @discardableResult
    public func publishGenericAttributeService(at start: UInt16? = nil) throws(GATTServerError) -> GATTPublishedService {
        let s = try publish(
            GATTServiceDefinition(uuid: .genericAttribute, characteristics: [
                GATTCharacteristicDefinition(uuid: .serviceChanged, properties: [.indicate], permissions: [], value: [])
            ]), at: start)
        serviceChangedHandle = s.valueHandles[0]
        return s
    }

    private func firstFreeHandle(count: Int) -> UInt16? {
        var candidate = 1
        for a in attributes {
            if Int(a.handle) >= candidate + count { break }
            candidate = max(candidate, Int(a.handle) + 1)
        }
        return candidate + count - 1 <= 0xFFFF ? UInt16(candidate) : nil
    }

    private func rangeIsFree(_ first: UInt16, _ count: Int) -> Bool {
        guard first != 0, Int(first) + count - 1 <= 0xFFFF else { return false }
        let r = ATTHandleRange(start: first, end: UInt16(Int(first) + count - 1))
        return !attributes.contains { r.contains($0.handle) }
    }

    private func index(of handle: UInt16) -> Int? {
        var lo = 0
        var hi = attributes.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let h = attributes[mid].handle
            if h == handle { return mid }
            if h < handle { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }

    // MARK: - values, notifications, indications

    public func value(of handle: UInt16) -> [UInt8]? {
        guard let i = index(of: handle) else { return nil }
        return attributes[i].read?() ?? attributes[i].value
    }

    /// The CCCD value the peer wrote for the characteristic with `valueHandle`.
    public func clientConfiguration(of valueHandle: UInt16) -> UInt16 {
        guard let i = attributes.firstIndex(where: { $0.cccdOf == valueHandle }) else { return 0 }
        let v = attributes[i].value
        return v.count == 2 ? UInt16(v[0]) | UInt16(v[1]) << 8 : 0
    }

    /// Sends a notification if the peer subscribed to it; returns whether it was sent.
    @discardableResult
    public func notify(valueHandle: UInt16, value: UnsafeRawBufferPointer) -> Bool {
        guard clientConfiguration(of: valueHandle) & 0x0001 != 0, let bearer else { return false }
        do { try bearer.notify(handle: valueHandle, value: value) } catch { return false }
        return true
    }

    /// Sends an indication if the peer subscribed to it; returns whether it was queued.
    @discardableResult
    public func indicate(valueHandle: UInt16, value: UnsafeRawBufferPointer, handler: ((ATTBearerError?) -> Void)? = nil) -> Bool {
        guard clientConfiguration(of: valueHandle) & 0x0002 != 0, let bearer else { return false }
        do { try bearer.indicate(handle: valueHandle, value: value, handler: handler) } catch { return false }
        return true
    }

    /// Indicates Service Changed for `range` (when the peer subscribed to it).
    @discardableResult
    public func serviceChanged(_ range: ATTHandleRange, handler: ((ATTBearerError?) -> Void)? = nil) -> Bool {
        guard serviceChangedHandle != 0 else { return false }
        let bytes: [UInt8] = [
            UInt8(range.start & 0xFF), UInt8(range.start >> 8), UInt8(range.end & 0xFF), UInt8(range.end >> 8),
        ]
        return bytes.withUnsafeBytes { indicate(valueHandle: serviceChangedHandle, value: $0, handler: handler) }
    }

    // MARK: - access checks

    private var level: LinkSecurityLevel { security?.securityLevel ?? .none }

    private func readError(_ a: Attribute) -> ATTErrorCode? {
        if a.permissions.isDisjoint(with: [.read, .readEncrypted]) { return .readNotPermitted }
        if a.permissions.contains(.readEncrypted) && level < .encrypted { return .insufficientAuthentication }
        return nil
    }

    private func writeError(_ a: Attribute) -> ATTErrorCode? {
        if a.permissions.isDisjoint(with: [.write, .writeEncrypted]) { return .writeNotPermitted }
        if a.permissions.contains(.writeEncrypted) && level < .encrypted { return .insufficientAuthentication }
        return nil
    }

    // MARK: - ATTRequestServing

    public func respond(to request: ATTPDU, rawOpcode: UInt8, bearer: ATTBearer, into w: inout ATTWriter) {
        requestsAnswered += 1
        switch request {
        case .findInformationRequest(let r): findInformation(r, &w)
        case .findByTypeValueRequest(let r): findByTypeValue(r, &w)
        case .readByTypeRequest(let r): readByType(r, &w)
        case .readRequest(let r): read(handle: r.handle, offset: 0, opcode: .readRequest, &w)
        case .readBlobRequest(let r): read(handle: r.handle, offset: Int(r.offset), opcode: .readBlobRequest, &w)
        case .readByGroupTypeRequest(let r): readByGroupType(r, &w)
        case .writeRequest(let r):
            if let e = write(handle: r.handle, value: r.value) {
                error(&w, rawOpcode, r.handle, e)
            } else {
                w.u8(ATTOpcode.writeResponse.rawValue)
            }
        case .prepareWriteRequest(let r):
            prepareWrite(r, rawOpcode, &w)
        case .executeWriteRequest(let r):
            executeWrite(r, rawOpcode, &w)
        default:
            // Read Multiple (Variable), unknown requests.
            error(&w, rawOpcode, 0, .requestNotSupported)
        }
    }

    // MARK: - long writes (Core Specification Vol 3 Part F 3.4.6, Part G 4.9.4)

    private func prepareWrite(_ r: ATTPrepareWriteRequest, _ rawOpcode: UInt8, _ w: inout ATTWriter) {
        guard let i = index(of: r.handle) else { return error(&w, rawOpcode, r.handle, .invalidHandle) }
        if let e = writeError(attributes[i]) { return error(&w, rawOpcode, r.handle, e) }
        guard prepareQueue.append(handle: r.handle, offset: r.offset, value: r.value) else {
            return error(&w, rawOpcode, r.handle, .prepareQueueFull)
        }
        // The response echoes the request, so the client can check what was queued.
        w.u8(ATTOpcode.prepareWriteResponse.rawValue)
        w.u16(r.handle)
        w.u16(r.offset)
        w.bytes(r.value)
    }

    private func executeWrite(_ r: ATTExecuteWriteRequest, _ rawOpcode: UInt8, _ w: inout ATTWriter) {
        let queued = prepareQueue.take()
        if r.flags == .writeAll {
            switch PrepareWriteQueue.assemble(queued) {
            case .failure(let failure):
                return error(&w, rawOpcode, failure.handle, failure.code)
            case .success(let writes):
                for (handle, value) in writes {
                    let e = value.withUnsafeBytes { write(handle: handle, value: $0) }
                    if let e { return error(&w, rawOpcode, handle, e) }
                }
            }
        }
        w.u8(ATTOpcode.executeWriteResponse.rawValue)
    }

    public func handleCommand(_ command: ATTPDU, bearer: ATTBearer) {
        if case .writeCommand(let c) = command {
            // As a Write Request would be checked; a command has no error to answer with.
            if let i = index(of: c.handle), attributes[i].properties.contains(.writeWithoutResponse), writeError(attributes[i]) == nil {
                _ = write(handle: c.handle, value: c.value)
            }
        }
        // Signed writes and unknown commands are ignored, as the specification requires.
    }

    private func error(_ w: inout ATTWriter, _ opcode: UInt8, _ handle: UInt16, _ code: ATTErrorCode) {
        w.write(ATTErrorResponse(requestOpcode: opcode, handle: handle, error: code))
    }

    private func firstIndex(atOrAfter handle: UInt16) -> Int {
        var lo = 0
        var hi = attributes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if attributes[mid].handle < handle { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private func findInformation(_ r: ATTFindInformationRequest, _ w: inout ATTWriter) {
        let op = ATTOpcode.findInformationRequest.rawValue
        guard r.range.isValid else { return error(&w, op, r.range.start, .invalidHandle) }
        var i = firstIndex(atOrAfter: r.range.start)
        guard i < attributes.count, attributes[i].handle <= r.range.end else {
            return error(&w, op, r.range.start, .attributeNotFound)
        }
        let format: ATTFindInformationResponse.Format = attributes[i].type.encodedLength == 2 ? .uuid16 : .uuid128
        w.u8(ATTOpcode.findInformationResponse.rawValue)
        w.u8(format.rawValue)
        while i < attributes.count, attributes[i].handle <= r.range.end, w.remaining >= format.elementLength {
            let a = attributes[i]
            if (a.type.encodedLength == 2) != (format == .uuid16) { break }
            w.u16(a.handle)
            w.uuid(a.type)
            i += 1
        }
    }

    private func findByTypeValue(_ r: ATTFindByTypeValueRequest, _ w: inout ATTWriter) {
        let op = ATTOpcode.findByTypeValueRequest.rawValue
        guard r.range.isValid else { return error(&w, op, r.range.start, .invalidHandle) }
        let type = BluetoothUUID(r.type)
        var i = firstIndex(atOrAfter: r.range.start)
        var found = 0
        w.u8(ATTOpcode.findByTypeValueResponse.rawValue)
        while i < attributes.count, attributes[i].handle <= r.range.end, w.remaining >= 4 {
            let a = attributes[i]
            i += 1
            guard a.type == type, readError(a) == nil else { continue }
            let v = a.read?() ?? a.value
            guard v.count == r.value.count, v.withUnsafeBytes({ $0.elementsEqual(r.value) }) else { continue }
            w.u16(a.handle)
            w.u16(a.groupEnd)
            found += 1
        }
        if found == 0 {
            w = ATTWriter(w.buffer)
            error(&w, op, r.range.start, .attributeNotFound)
        }
    }

    private func readByType(_ r: ATTReadByTypeRequest, _ w: inout ATTWriter) {
        let op = ATTOpcode.readByTypeRequest.rawValue
        guard r.range.isValid else { return error(&w, op, r.range.start, .invalidHandle) }
        var i = firstIndex(atOrAfter: r.range.start)
        var elementLength = 0
        let maxValue = min(w.capacity - 4, 253)
        w.u8(ATTOpcode.readByTypeResponse.rawValue)
        w.u8(0)
        while i < attributes.count, attributes[i].handle <= r.range.end {
            let a = attributes[i]
            i += 1
            guard a.type == r.type else { continue }
            if let e = readError(a) {
                if elementLength == 0 {
                    w = ATTWriter(w.buffer)
                    return error(&w, op, a.handle, e)
                }
                break
            }
            let v = a.read?() ?? a.value
            let n = min(v.count, maxValue)
            if elementLength == 0 {
                elementLength = 2 + n
                w.patch(1, UInt8(elementLength))
            } else if 2 + n != elementLength {
                break
            }
            guard w.remaining >= elementLength else { break }
            w.u16(a.handle)
            v.withUnsafeBytes { w.bytes(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        if elementLength == 0 {
            w = ATTWriter(w.buffer)
            error(&w, op, r.range.start, .attributeNotFound)
        }
    }

    private func readByGroupType(_ r: ATTReadByGroupTypeRequest, _ w: inout ATTWriter) {
        let op = ATTOpcode.readByGroupTypeRequest.rawValue
        guard r.range.isValid else { return error(&w, op, r.range.start, .invalidHandle) }
        guard r.type == .primaryService || r.type == .secondaryService else {
            return error(&w, op, r.range.start, .unsupportedGroupType)
        }
        var i = firstIndex(atOrAfter: r.range.start)
        var elementLength = 0
        let maxValue = min(w.capacity - 6, 251)
        w.u8(ATTOpcode.readByGroupTypeResponse.rawValue)
        w.u8(0)
        while i < attributes.count, attributes[i].handle <= r.range.end {
            let a = attributes[i]
            i += 1
            guard a.type == r.type else { continue }
            let n = min(a.value.count, maxValue)
            if elementLength == 0 {
                elementLength = 4 + n
                w.patch(1, UInt8(elementLength))
            } else if 4 + n != elementLength {
                break
            }
            guard w.remaining >= elementLength else { break }
            w.u16(a.handle)
            w.u16(a.groupEnd)
            a.value.withUnsafeBytes { w.bytes(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        if elementLength == 0 {
            w = ATTWriter(w.buffer)
            error(&w, op, r.range.start, .attributeNotFound)
        }
    }

    private func read(handle: UInt16, offset: Int, opcode: ATTOpcode, _ w: inout ATTWriter) {
        guard let i = index(of: handle) else { return error(&w, opcode.rawValue, handle, .invalidHandle) }
        let a = attributes[i]
        if let e = readError(a) { return error(&w, opcode.rawValue, handle, e) }
        let v = a.read?() ?? a.value
        guard offset <= v.count else { return error(&w, opcode.rawValue, handle, .invalidOffset) }
        w.u8(opcode == .readRequest ? ATTOpcode.readResponse.rawValue : ATTOpcode.readBlobResponse.rawValue)
        let n = min(v.count - offset, w.remaining)
        v.withUnsafeBytes { w.bytes(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)])) }
    }

    private func write(handle: UInt16, value: UnsafeRawBufferPointer) -> ATTErrorCode? {
        guard let i = index(of: handle) else { return .invalidHandle }
        let a = attributes[i]
        if let e = writeError(a) { return e }
        guard value.count <= ATT.maximumAttributeValueLength else { return .invalidAttributeValueLength }
        if a.cccdOf != 0 {
            guard value.count == 2 else { return .invalidAttributeValueLength }
            let v = UInt16(value[0]) | UInt16(value[1]) << 8
            if v & 0x0001 != 0 && !a.properties.contains(.notify) { return .cccdImproperlyConfigured }
            if v & 0x0002 != 0 && !a.properties.contains(.indicate) { return .cccdImproperlyConfigured }
            if v & ~0x0003 != 0 { return .valueNotAllowed }
            attributes[i].value = [value[0], value[1]]
            subscriptionHandler?(a.cccdOf, v)
            return nil
        }
        if let write = a.write { return write(value) }
        attributes[i].value = Array(value)
        return nil
    }
}
