import ATTCodec
import HAL

/// The GATT client the watch runs against the phone's database.
///
/// It discovers the primary services it is told to watch (by UUID, with Find
/// By Type Value), their characteristics and CCCDs, subscribes to Service
/// Changed, and keeps the picture up to date: a Service Changed indication
/// removes the services in the changed range (reporting `serviceRemoved`) and
/// rediscovers that range (reporting `serviceAdded`). Notifications and
/// indications are routed to handlers registered per value handle.
///
/// Discovery allocates (it builds the service list); the steady-state paths
/// (notification routing, `write(handle:value:then:)` with a stored handler)
/// do not.
public final class GATTClient {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    deinit { lifetime.end() }

    public let bearer: ATTBearer
    /// Service UUIDs to discover (Generic Attribute is always added).
    public let watchedServices: [BluetoothUUID]
    /// Known services (watched ones and Generic Attribute).
    public private(set) var services: [GATTService] = []
    /// Value handle of the phone's Service Changed characteristic, once known.
    public private(set) var serviceChangedHandle: UInt16?
    public var eventHandler: ((GATTClientEvent) -> Void)?
    /// True while a discovery runs.
    public var isDiscovering: Bool { discovering }

    private struct Route {
        var handle: UInt16
        var handler: (UnsafeRawBufferPointer) -> Void
    }
    private var routes: [Route] = []
    private var discovering = false
    private var pendingChange: ATTHandleRange?
    private var started = false
    private var earlyIndications: [(UInt16, [UInt8])] = []
    private lazy var longWrites = LongWriteProcedure(bearer: bearer)

    public init(bearer: ATTBearer, watching services: [BluetoothUUID]) {
        self.bearer = bearer
        self.watchedServices = services
        routes.reserveCapacity(16)
        bearer.notificationHandler = { [unowned(unsafe) self] handle, value in self.route(handle, value) }
        bearer.indicationHandler = { [unowned(unsafe) self] handle, value in
            if handle == self.serviceChangedHandle, handle != 0 {
                self.serviceChangedIndication(value)
            } else if self.serviceChangedHandle == nil, self.discovering, value.count == 4 {
                // A bonded phone may indicate Service Changed before we know its
                // handle; keep it until the first discovery tells us.
                self.earlyIndications.append((handle, Array(value)))
            } else {
                self.route(handle, value)
            }
        }
        let previousClose = bearer.closeHandler
        bearer.closeHandler = { [lifetime, unowned(unsafe) self] reason in
            previousClose?(reason)
            if !lifetime.isOver { self.eventHandler?(.closed(reason)) }
        }
    }

    /// Exchanges MTU (unless the phone already did) and runs the first discovery.
    public func start() {
        precondition(!started, "GATTClient.start() called twice")
        started = true
        if !bearer.mtuExchanged { _ = try? bearer.exchangeMTU() }
        runDiscovery(range: .all, includeGATT: true, initial: true)
    }

    // MARK: - routing

    @inline(__always)
    private func route(_ handle: UInt16, _ value: UnsafeRawBufferPointer) {
        for i in routes.indices where routes[i].handle == handle {
            routes[i].handler(value)
        }
    }

    /// Routes notifications / indications of `valueHandle` to `handler`
    /// (replacing an earlier route for the same handle).
    public func setNotificationHandler(valueHandle: UInt16, _ handler: @escaping (UnsafeRawBufferPointer) -> Void) {
        removeNotificationHandler(valueHandle: valueHandle)
        routes.append(Route(handle: valueHandle, handler: handler))
    }

    public func removeNotificationHandler(valueHandle: UInt16) {
        routes.removeAll { $0.handle == valueHandle }
    }

    // MARK: - procedures

    /// Write With Response; `handler` gets the raw outcome. Pass a handler
    /// stored once to keep this allocation-free (the ANCS Control Point path).
    /// `GATTError(outcome)` interprets it.
    ///
    /// A value longer than ATT_MTU − 3 goes as a long write (Prepare Write
    /// Requests, then Execute Write: Core Specification Vol 3 Part G 4.9.4);
    /// `handler` then gets the Execute Write's outcome, or the first failure.
    @discardableResult
    public func write(handle: UInt16, value: UnsafeRawBufferPointer, then handler: ATTResponseHandler?) throws(ATTBearerError) -> ATTRequestID {
        if value.count <= bearer.mtu - 3 {
            return try bearer.send(request: ATTWriteRequest(handle: handle, value: value), handler: handler)
        }
        return try longWrites.write(handle: handle, value: value, then: handler)
    }

    /// Write With Response, with a completion (allocates; for configuration writes).
    public func write(handle: UInt16, value: [UInt8], completion: @escaping (GATTError?) -> Void) {
        let handler: ATTResponseHandler = { [lifetime, unowned(unsafe) self] outcome in
            let error = GATTError(outcome)
            if !lifetime.isOver { self.noteOutOfSync(error) }
            completion(error)
        }
        let failure: ATTBearerError? = value.withUnsafeBytes { buf -> ATTBearerError? in
            do throws(ATTBearerError) {
                _ = try bearer.send(request: ATTWriteRequest(handle: handle, value: buf), handler: handler)
                return nil
            } catch { return error }
        }
        if let failure { completion(.bearer(failure)) }
    }

    /// Write Without Response (Write Command).
    public func writeWithoutResponse(handle: UInt16, value: UnsafeRawBufferPointer) throws(ATTBearerError) {
        try bearer.send(unacknowledged: ATTWriteCommand(handle: handle, value: value))
    }

    /// Reads a value, following with Read Blob while it fills the PDU (up to
    /// 512 bytes). Allocates a procedure per call: for one-off reads
    /// (`LongReadProcedure` reads again and again without allocating).
    public func read(handle: UInt16, completion: @escaping (Result<[UInt8], GATTError>) -> Void) {
        var procedure: LongReadProcedure?
        procedure = LongReadProcedure(client: self) { result in
            completion(result.map { Array($0) })
            procedure = nil  // the read is over: let it go
        }
        do throws(ATTBearerError) {
            try procedure!.start(handle: handle)
        } catch {
            procedure = nil
            completion(.failure(.bearer(error)))
        }
    }

    /// Enables notifications (or indications) of `characteristic`, routing them
    /// to `handler`, then writes its CCCD. The route is installed at once so no
    /// value sent right after the write response is lost.
    public func subscribe(
        _ characteristic: GATTCharacteristic, indications: Bool = false,
        handler: @escaping (UnsafeRawBufferPointer) -> Void, completion: @escaping (GATTError?) -> Void
    ) {
        guard let cccd = characteristic.cccdHandle else {
            return completion(.invalidResponse("\(characteristic.uuid) has no CCCD"))
        }
        setNotificationHandler(valueHandle: characteristic.valueHandle, handler)
        write(handle: cccd, value: indications ? [0x02, 0x00] : [0x01, 0x00], completion: completion)
    }

    public func service(_ uuid: BluetoothUUID) -> GATTService? { services.first { $0.uuid == uuid } }

    // MARK: - Service Changed

    private func serviceChangedIndication(_ value: UnsafeRawBufferPointer) {
        guard value.count == 4 else { return }
        let start = UInt16(value[0]) | UInt16(value[1]) << 8
        let end = UInt16(value[2]) | UInt16(value[3]) << 8
        guard start != 0, start <= end else { return }
        serviceChanged(ATTHandleRange(start: start, end: end))
    }

    /// Handles a change of the phone's database in `range` (Service Changed,
    /// or "Database Out Of Sync" for the whole range).
    public func serviceChanged(_ range: ATTHandleRange) {
        if discovering {
            pendingChange = pendingChange.map { Self.union($0, range) } ?? range
            return
        }
        var search = range
        var removedGATT = false
        var removed: [GATTService] = []
        services.removeAll { s in
            guard s.range.overlaps(range) else { return false }
            removed.append(s)
            return true
        }
        for s in removed {
            search = Self.union(search, s.range)
            routes.removeAll { s.range.contains($0.handle) }
            if s.uuid == .genericAttribute {
                removedGATT = true
                serviceChangedHandle = nil
            }
        }
        for s in removed where s.uuid != .genericAttribute { eventHandler?(.serviceRemoved(s)) }
        runDiscovery(range: search, includeGATT: removedGATT || serviceChangedHandle == nil, initial: false)
    }

    func noteOutOfSync(_ error: GATTError?) {
        if case .att(.databaseOutOfSync, _) = error { serviceChanged(.all) }
    }

    private static func union(_ a: ATTHandleRange, _ b: ATTHandleRange) -> ATTHandleRange {
        ATTHandleRange(start: min(a.start, b.start), end: max(a.end, b.end))
    }

    // MARK: - discovery

    private func runDiscovery(range: ATTHandleRange, includeGATT: Bool, initial: Bool) {
        discovering = true
        var uuids = watchedServices
        if includeGATT { uuids.insert(.genericAttribute, at: 0) }
        let job = GATTDiscovery(bearer: bearer, range: range, uuids: uuids) { [lifetime, unowned(unsafe) self] result in
            if !lifetime.isOver { self.discoveryFinished(result, initial: initial) }
        }
        job.start()
    }

    private func discoveryFinished(_ result: Result<[GATTService], GATTError>, initial: Bool) {
        discovering = false
        switch result {
        case .success(let found):
            for s in found where !services.contains(where: { $0.range.overlaps(s.range) }) {
                services.append(s)
            }
            services.sort { $0.range.start < $1.range.start }
            if let gatt = found.first(where: { $0.uuid == .genericAttribute }),
                let sc = gatt.characteristic(.serviceChanged)
            {
                serviceChangedHandle = sc.valueHandle
                if let cccd = sc.cccdHandle, sc.properties.contains(.indicate) {
                    write(handle: cccd, value: [0x02, 0x00]) { _ in }
                }
            }
            for s in found where s.uuid != .genericAttribute { eventHandler?(.serviceAdded(s)) }
            if let sc = serviceChangedHandle {
                for (handle, value) in earlyIndications where handle == sc {
                    value.withUnsafeBytes { serviceChangedIndication($0) }
                }
            }
        case .failure(let error):
            eventHandler?(.discoveryFailed(error))
        }
        earlyIndications.removeAll()
        if initial { eventHandler?(.ready) }
        if let change = pendingChange, !bearer.isClosed {
            pendingChange = nil
            serviceChanged(change)
        }
    }
}

/// One run of "discover these primary services in this range, with their
/// characteristics and CCCDs" (Core Specification Vol 3, Part G, 4.4.2, 4.6.1, 4.7.1).
/// Each step checks that the peer makes progress, so a hostile or broken
/// server cannot make it loop. Public for clients that need their own
/// connect order (the simulated Android phone discovers before its MTU exchange).
public final class GATTDiscovery {
    private let bearer: ATTBearer
    private let range: ATTHandleRange
    private let uuids: [BluetoothUUID]
    private var completion: ((Result<[GATTService], GATTError>) -> Void)?
    private var found: [GATTService] = []
    private var retain: GATTDiscovery?

    public init(bearer: ATTBearer, range: ATTHandleRange, uuids: [BluetoothUUID], completion: @escaping (Result<[GATTService], GATTError>) -> Void) {
        self.bearer = bearer
        self.range = range
        self.uuids = uuids
        self.completion = completion
    }

    public func start() {
        retain = self  // alive until finished
        findServices(uuidIndex: 0, from: range.start)
    }

    private func finish(_ result: Result<[GATTService], GATTError>) {
        let c = completion
        completion = nil
        retain = nil
        c?(result)
    }

    private func send<P: ATTPDUProtocol>(_ request: P, _ handler: @escaping ATTResponseHandler) {
        do { try bearer.send(request: request, handler: handler) } catch { finish(.failure(.bearer(error))) }
    }

    // Step 1: Find By Type Value (Primary Service, uuid) for each UUID.
    private func findServices(uuidIndex: Int, from start: UInt16) {
        guard uuidIndex < uuids.count else {
            found.sort { $0.range.start < $1.range.start }
            return findCharacteristics(serviceIndex: 0, from: found.first?.range.start ?? 0)
        }
        guard start <= range.end, start != 0 else { return findServices(uuidIndex: uuidIndex + 1, from: range.start) }
        let uuid = uuids[uuidIndex]
        let value = uuid.littleEndianBytes
        value.withUnsafeBytes { v in
            send(ATTFindByTypeValueRequest(range: ATTHandleRange(start: start, end: range.end), type: 0x2800, value: v)) {
                [self] outcome in
                switch outcome {
                case .response(.findByTypeValueResponse(let rsp)):
                    var last: UInt16 = 0
                    for i in 0..<rsp.count {
                        let r = rsp[i]
                        guard r.start >= start, r.start <= r.end, r.start > last else {
                            return finish(.failure(.invalidResponse("service range \(r) out of order")))
                        }
                        if !found.contains(where: { $0.range.overlaps(r) }) {
                            found.append(GATTService(uuid: uuid, range: r))
                        }
                        last = r.end
                    }
                    if last >= range.end || last == 0xFFFF {
                        findServices(uuidIndex: uuidIndex + 1, from: range.start)
                    } else {
                        findServices(uuidIndex: uuidIndex, from: last + 1)
                    }
                case .error(let e) where e.error == .attributeNotFound:
                    findServices(uuidIndex: uuidIndex + 1, from: range.start)
                default:
                    finish(.failure(GATTError(outcome) ?? .invalidResponse("unexpected response to Find By Type Value")))
                }
            }
        }
    }

    // Step 2: Read By Type (Characteristic) within each service.
    private func findCharacteristics(serviceIndex: Int, from start: UInt16) {
        guard serviceIndex < found.count else { return findDescriptors(serviceIndex: 0, characteristicIndex: 0) }
        let service = found[serviceIndex]
        guard start <= service.range.end, start > 0 else {
            return findCharacteristics(serviceIndex: serviceIndex + 1, from: serviceIndex + 1 < found.count ? found[serviceIndex + 1].range.start : 0)
        }
        send(ATTReadByTypeRequest(range: ATTHandleRange(start: start, end: service.range.end), type: .characteristic)) {
            [self] outcome in
            let next = serviceIndex + 1 < found.count ? found[serviceIndex + 1].range.start : 0
            switch outcome {
            case .response(.readByTypeResponse(let rsp)):
                guard rsp.elementLength == 7 || rsp.elementLength == 21 else {
                    return finish(.failure(.invalidResponse("characteristic declaration of \(rsp.elementLength - 2) bytes")))
                }
                var last: UInt16 = start &- 1
                for i in 0..<rsp.count {
                    let e = rsp[i]
                    let v = e.value
                    let valueHandle = UInt16(v[1]) | UInt16(v[2]) << 8
                    guard e.handle > last, e.handle >= start, e.handle <= service.range.end,
                        valueHandle > e.handle, valueHandle <= service.range.end,
                        let uuid = BluetoothUUID(littleEndian: UnsafeRawBufferPointer(rebasing: v[3...]))
                    else {
                        return finish(.failure(.invalidResponse("bad characteristic declaration at 0x\(String(e.handle, radix: 16))")))
                    }
                    found[serviceIndex].characteristics.append(GATTCharacteristic(
                        uuid: uuid, declarationHandle: e.handle, valueHandle: valueHandle,
                        properties: GATTCharacteristicProperties(rawValue: v[0]), endHandle: service.range.end))
                    last = e.handle
                }
                if last >= service.range.end {
                    findCharacteristics(serviceIndex: serviceIndex + 1, from: next)
                } else {
                    findCharacteristics(serviceIndex: serviceIndex, from: last + 1)
                }
            case .error(let e) where e.error == .attributeNotFound:
                findCharacteristics(serviceIndex: serviceIndex + 1, from: next)
            default:
                finish(.failure(GATTError(outcome) ?? .invalidResponse("unexpected response to Read By Type")))
            }
        }
    }

    // Step 3: Find Information after each notifying characteristic's value, for its CCCD.
    private func findDescriptors(serviceIndex: Int, characteristicIndex: Int) {
        guard serviceIndex < found.count else { return finish(.success(found)) }
        if characteristicIndex == 0 {
            // Each characteristic ends where the next declaration starts.
            let chars = found[serviceIndex].characteristics
            for i in chars.indices where i + 1 < chars.count {
                found[serviceIndex].characteristics[i].endHandle = chars[i + 1].declarationHandle - 1
            }
        }
        let chars = found[serviceIndex].characteristics
        guard characteristicIndex < chars.count else { return findDescriptors(serviceIndex: serviceIndex + 1, characteristicIndex: 0) }
        let c = chars[characteristicIndex]
        guard !c.properties.isDisjoint(with: [.notify, .indicate]), c.valueHandle < c.endHandle else {
            return findDescriptors(serviceIndex: serviceIndex, characteristicIndex: characteristicIndex + 1)
        }
        findCCCD(serviceIndex, characteristicIndex, from: c.valueHandle + 1, to: c.endHandle)
    }

    private func findCCCD(_ s: Int, _ c: Int, from start: UInt16, to end: UInt16) {
        send(ATTFindInformationRequest(range: ATTHandleRange(start: start, end: end))) { [self] outcome in
            switch outcome {
            case .response(.findInformationResponse(let rsp)):
                var last: UInt16 = start &- 1
                for i in 0..<rsp.count {
                    let e = rsp[i]
                    guard e.handle > last, e.handle >= start, e.handle <= end else {
                        return finish(.failure(.invalidResponse("descriptor handle 0x\(String(e.handle, radix: 16)) out of range")))
                    }
                    if e.type == .clientCharacteristicConfiguration {
                        found[s].characteristics[c].cccdHandle = e.handle
                        return findDescriptors(serviceIndex: s, characteristicIndex: c + 1)
                    }
                    last = e.handle
                }
                if last >= end {
                    findDescriptors(serviceIndex: s, characteristicIndex: c + 1)
                } else {
                    findCCCD(s, c, from: last + 1, to: end)
                }
            case .error(let e) where e.error == .attributeNotFound:
                findDescriptors(serviceIndex: s, characteristicIndex: c + 1)
            default:
                finish(.failure(GATTError(outcome) ?? .invalidResponse("unexpected response to Find Information")))
            }
        }
    }
}
