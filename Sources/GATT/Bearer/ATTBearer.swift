import ATTCodec
import HAL
import Loop

/// The ATT bearer: one connected `PacketChannel` carrying both directions of
/// the Attribute Protocol (the watch is a GATT client of the phone and a GATT
/// server for it at the same time).
///
/// Rules it enforces (Core Specification Vol 3, Part F, 3.3):
/// - one outstanding request per direction: further requests wait in a
///   fixed-capacity queue and go out as responses arrive;
/// - one outstanding indication; every received indication is confirmed;
/// - the 30-second transaction timeout: a request or indication left
///   unanswered closes the link (no more PDUs may be sent on it);
/// - Exchange MTU in both directions; the peer's Exchange MTU Request is
///   answered at once, whatever our own requests are doing;
/// - PDUs longer than ATT_MTU are rejected (requests get "Invalid PDU");
///   unknown requests get "Request Not Supported", unknown commands are ignored;
/// - an Error Response "Insufficient Authentication / Encryption" makes the
///   bearer ask `security` for a higher level and resend the request once
///   when the link reports the new level.
///
/// Steady state allocates nothing: the receive buffer, the request and
/// indication queues (with their PDU bytes) and the deferred-send backlog are
/// allocated in `init`, handlers are stored once, and decoded PDUs reference
/// the receive buffer.
public final class ATTBearer {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    public struct Configuration: Sendable {
        /// Our receive MTU, offered in Exchange MTU (23...517).
        public var localMTU: Int = ATT.maximumMTU
        /// Requests that can wait behind the outstanding one.
        public var requestQueueCapacity: Int = 16
        /// Indications that can wait behind the outstanding one.
        public var indicationQueueCapacity: Int = 4
        /// PDUs that can wait for the link to become writable.
        public var backlogCapacity: Int = 8
        /// The ATT transaction timeout.
        public var transactionTimeout: Duration = ATT.transactionTimeout
        /// How long a security upgrade (pairing, with its user dialog) may take.
        public var securityTimeout: Duration = .seconds(60)
        public init() {}
    }

    // MARK: - public state and handlers

    public let channel: PacketChannel
    public let security: LinkSecurityControl?
    public let configuration: Configuration
    /// The current ATT_MTU (23 until an exchange completes).
    public private(set) var mtu: Int = ATT.defaultMTU
    /// True once an Exchange MTU completed in either direction.
    public private(set) var mtuExchanged = false
    public private(set) var isClosed = false
    /// Why the bearer closed, once it has.
    public private(set) var closeReason: ATTBearerError?
    public private(set) var statistics = ATTBearerStatistics()

    /// Handle Value Notifications from the peer's server. The value is valid
    /// only during the call.
    public var notificationHandler: ((_ handle: UInt16, _ value: UnsafeRawBufferPointer) -> Void)?
    /// Handle Value Indications; the bearer confirms each one (before calling this).
    public var indicationHandler: ((_ handle: UInt16, _ value: UnsafeRawBufferPointer) -> Void)?
    /// Called once when the bearer closes, after every pending request failed.
    public var closeHandler: ((ATTBearerError) -> Void)?
    /// Called when ATT_MTU changes.
    public var mtuHandler: ((Int) -> Void)?
    /// Called when the link's security level changes (after the bearer retried what waited for it).
    public var securityHandler: ((LinkSecurityLevel) -> Void)?
    /// Every PDU in and out (for logs and the decode tool). Nil costs nothing.
    public var traceHandler: ((ATTTraceDirection, UnsafeRawBufferPointer) -> Void)?
    /// The local GATT server; without one every request is answered "Request Not Supported".
    /// Not retained (the server is owned with the bearer by the session);
    /// whichever of the two goes first clears the other's reference in deinit.
    public unowned(unsafe) var server: ATTRequestServing?

    // MARK: - private state

    private let io: IOWatching
    private let timers: TimerScheduling
    private var sourceID: SourceID?
    private var watchingWritable = false

    private static let slotSize = ATT.maximumMTU
    private let receiveBuffer: UnsafeMutableRawBufferPointer
    private let responseBuffer: UnsafeMutableRawBufferPointer
    private let requestArena: UnsafeMutableRawBufferPointer
    private let indicationArena: UnsafeMutableRawBufferPointer
    private let backlogArena: UnsafeMutableRawBufferPointer

    private struct PendingRequest {
        var id: UInt32 = 0
        var opcode: UInt8 = 0
        var length: Int = 0
        var handler: ATTResponseHandler?
        var cancelled = false
        var securityAttempted = false
        var deferredError: ATTErrorResponse?
    }
    private var requests: [PendingRequest]
    private var requestHead = 0
    private var requestCount = 0
    private var requestOutstanding = false
    private var awaitingSecurity: LinkSecurityLevel?
    private var nextRequestID: UInt32 = 1

    private struct PendingIndication {
        var length: Int = 0
        var handler: ((ATTBearerError?) -> Void)?
    }
    private var indications: [PendingIndication]
    private var indicationHead = 0
    private var indicationCount = 0
    private var indicationOutstanding = false

    private var backlog: [Int]
    private var backlogHead = 0
    private var backlogCount = 0

    private var requestTimer: TimerID!
    private var indicationTimer: TimerID!
    private var securityTimer: TimerID!

    // MARK: - life cycle

    /// Creates a bearer over a connected channel. Call `start()` to begin
    /// receiving. `security` is the link's security control when it has one
    /// (a real Bluetooth link; the simulator's link).
    public init(
        channel: PacketChannel, loop: IOWatching & TimerScheduling,
        security: LinkSecurityControl? = nil, configuration: Configuration = Configuration()
    ) {
        precondition((ATT.defaultMTU...ATT.maximumMTU).contains(configuration.localMTU), "localMTU must be 23...517")
        self.channel = channel
        self.io = loop
        self.timers = loop
        self.security = security
        self.configuration = configuration
        let size = Self.slotSize
        receiveBuffer = .allocate(byteCount: size, alignment: 8)
        responseBuffer = .allocate(byteCount: size, alignment: 8)
        requestArena = .allocate(byteCount: size * configuration.requestQueueCapacity, alignment: 8)
        indicationArena = .allocate(byteCount: size * configuration.indicationQueueCapacity, alignment: 8)
        backlogArena = .allocate(byteCount: size * configuration.backlogCapacity, alignment: 8)
        requests = Array(repeating: PendingRequest(), count: configuration.requestQueueCapacity)
        indications = Array(repeating: PendingIndication(), count: configuration.indicationQueueCapacity)
        backlog = Array(repeating: 0, count: configuration.backlogCapacity)
        requestTimer = timers.makeTimer { [unowned(unsafe) self] in self.timedOut() }
        indicationTimer = timers.makeTimer { [unowned(unsafe) self] in self.timedOut() }
        securityTimer = timers.makeTimer { [unowned(unsafe) self] in self.securityTimedOut() }
        security?.securityChangeHandler = { [lifetime, unowned(unsafe) self] level in
            if !lifetime.isOver { self.securityChanged(to: level) }
        }
    }

    deinit {
        lifetime.end()
        if let server = server as? GATTServer, server.bearer === self { server.detach() }
        if let id = sourceID { io.removeSource(id) }
        timers.destroyTimer(requestTimer)
        timers.destroyTimer(indicationTimer)
        timers.destroyTimer(securityTimer)
        receiveBuffer.deallocate()
        responseBuffer.deallocate()
        requestArena.deallocate()
        indicationArena.deallocate()
        backlogArena.deallocate()
    }

    /// Starts watching the channel on the loop.
    public func start() throws(HALError) {
        precondition(sourceID == nil, "ATTBearer.start() called twice")
        guard !isClosed, channel.isOpen else {
            throw HALError(operation: "start ATT bearer", errno: 0, reason: "link already closed")
        }
        sourceID = try io.addSource(fd: channel.pollDescriptor, events: .readable) { [unowned(unsafe) self] events in
            self.handle(events)
        }
    }

    /// Closes the link: pending requests and indications fail with `reason`
    /// (the closing handler sees it too). Idempotent.
    public func close(reason: ATTBearerError = .linkClosed) {
        guard !isClosed else { return }
        isClosed = true
        closeReason = reason
        if let id = sourceID {
            io.removeSource(id)
            sourceID = nil
        }
        timers.disarm(requestTimer)
        timers.disarm(indicationTimer)
        timers.disarm(securityTimer)
        channel.close()
        requestOutstanding = false
        awaitingSecurity = nil
        while requestCount > 0 {
            let slot = popRequest()
            if !slot.cancelled, let h = slot.handler { h(.failed(reason)) }
        }
        indicationOutstanding = false
        while indicationCount > 0 {
            let ind = indications[indicationHead]
            indications[indicationHead] = PendingIndication()
            indicationHead = (indicationHead + 1) % indications.count
            indicationCount -= 1
            ind.handler?(reason)
        }
        backlogCount = 0
        closeHandler?(reason)
    }

    // MARK: - sending

    /// Queues a request; `handler` runs once with its outcome. Pass a handler
    /// stored once (not a fresh closure literal) to keep the call allocation-free.
    @discardableResult
    public func send<P: ATTPDUProtocol>(request: P, handler: ATTResponseHandler?) throws(ATTBearerError) -> ATTRequestID {
        guard !isClosed else { throw .linkClosed }
        guard P.opcode.kind == .request else { throw .wrongPDUKind(P.opcode.rawValue) }
        guard requestCount < requests.count else { throw .queueFull }
        let index = (requestHead + requestCount) % requests.count
        let n: Int
        do { n = try request.encode(into: slot(requestArena, index), mtu: mtu) } catch { throw .encoding(error) }
        let id = nextRequestID
        nextRequestID &+= 1
        if nextRequestID == 0 { nextRequestID = 1 }
        requests[index] = PendingRequest(id: id, opcode: P.opcode.rawValue, length: n, handler: handler)
        requestCount += 1
        pumpRequests()
        return ATTRequestID(rawValue: id)
    }

    /// Sends a PDU that has no answer: Write Command or Handle Value Notification.
    public func send<P: ATTPDUProtocol>(unacknowledged pdu: P) throws(ATTBearerError) {
        guard !isClosed else { throw .linkClosed }
        let kind = P.opcode.kind
        guard kind == .command || kind == .notification else { throw .wrongPDUKind(P.opcode.rawValue) }
        let n: Int
        do { n = try pdu.encode(into: responseBuffer, mtu: mtu) } catch { throw .encoding(error) }
        transmit(UnsafeRawBufferPointer(rebasing: responseBuffer[..<n]))
    }

    /// Sends a Handle Value Notification.
    public func notify(handle: UInt16, value: UnsafeRawBufferPointer) throws(ATTBearerError) {
        try send(unacknowledged: ATTHandleValueNotification(handle: handle, value: value))
    }

    /// Queues a Handle Value Indication; `handler` gets nil when confirmed.
    public func indicate(
        handle: UInt16, value: UnsafeRawBufferPointer, handler: ((ATTBearerError?) -> Void)? = nil
    ) throws(ATTBearerError) {
        guard !isClosed else { throw .linkClosed }
        guard indicationCount < indications.count else { throw .queueFull }
        let index = (indicationHead + indicationCount) % indications.count
        let n: Int
        do {
            n = try ATTHandleValueIndication(handle: handle, value: value).encode(into: slot(indicationArena, index), mtu: mtu)
        } catch { throw .encoding(error) }
        indications[index] = PendingIndication(length: n, handler: handler)
        indicationCount += 1
        pumpIndications()
    }

    /// Starts the client side of Exchange MTU, offering `configuration.localMTU`.
    /// `handler` (optional) sees the raw outcome; `mtu` is updated before it runs.
    @discardableResult
    public func exchangeMTU(handler: ATTResponseHandler? = nil) throws(ATTBearerError) -> ATTRequestID {
        try send(request: ATTExchangeMTURequest(clientRxMTU: UInt16(configuration.localMTU)), handler: handler)
    }

    /// Drops a request: if still queued it is never sent; if outstanding its
    /// response is ignored. Its handler gets `.failed(.cancelled)`.
    public func cancel(_ id: ATTRequestID) {
        for k in 0..<requestCount {
            let i = (requestHead + k) % requests.count
            if requests[i].id == id.rawValue && !requests[i].cancelled {
                requests[i].cancelled = true
                let h = requests[i].handler
                requests[i].handler = nil
                h?(.failed(.cancelled))
                if k == 0 && !requestOutstanding && awaitingSecurity == nil {
                    _ = popRequest()
                    pumpRequests()
                }
                return
            }
        }
    }

    /// Requests queued or outstanding.
    public var pendingRequestCount: Int { requestCount }
    /// True while a request is on the air waiting for its response.
    public var hasOutstandingRequest: Bool { requestOutstanding }

    // MARK: - internals: queues

    @inline(__always)
    private func slot(_ arena: UnsafeMutableRawBufferPointer, _ index: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: arena[(index * Self.slotSize)..<((index + 1) * Self.slotSize)])
    }

    private func popRequest() -> PendingRequest {
        let s = requests[requestHead]
        requests[requestHead] = PendingRequest()
        requestHead = (requestHead + 1) % requests.count
        requestCount -= 1
        return s
    }

    private func pumpRequests() {
        while !isClosed, !requestOutstanding, awaitingSecurity == nil, requestCount > 0 {
            let head = requests[requestHead]
            if head.cancelled {
                _ = popRequest()
                continue
            }
            requestOutstanding = true
            timers.arm(requestTimer, after: configuration.transactionTimeout)
            transmit(UnsafeRawBufferPointer(rebasing: slot(requestArena, requestHead)[..<head.length]))
        }
    }

    private func pumpIndications() {
        guard !isClosed, !indicationOutstanding, indicationCount > 0 else { return }
        indicationOutstanding = true
        timers.arm(indicationTimer, after: configuration.transactionTimeout)
        let n = indications[indicationHead].length
        transmit(UnsafeRawBufferPointer(rebasing: slot(indicationArena, indicationHead)[..<n]))
    }

    // MARK: - internals: the wire

    private func transmit(_ pdu: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        if backlogCount == 0 {
            do {
                switch try channel.send(pdu) {
                case .sent:
                    statistics.pdusSent += 1
                    traceHandler?(.sent, pdu)
                    return
                case .wouldBlock:
                    break
                }
            } catch {
                close(reason: .io(error))
                return
            }
        }
        guard backlogCount < backlog.count else {
            close(reason: .io(HALError(operation: "send ATT PDU", errno: 0, reason: "link not writable, backlog full")))
            return
        }
        let i = (backlogHead + backlogCount) % backlog.count
        let dst = slot(backlogArena, i)
        dst.baseAddress!.copyMemory(from: pdu.baseAddress!, byteCount: pdu.count)
        backlog[i] = pdu.count
        backlogCount += 1
        statistics.sendsDeferred += 1
        setWatchingWritable(true)
    }

    private func flushBacklog() {
        while !isClosed, backlogCount > 0 {
            let pdu = UnsafeRawBufferPointer(rebasing: slot(backlogArena, backlogHead)[..<backlog[backlogHead]])
            do {
                switch try channel.send(pdu) {
                case .sent:
                    statistics.pdusSent += 1
                    traceHandler?(.sent, pdu)
                    backlogHead = (backlogHead + 1) % backlog.count
                    backlogCount -= 1
                case .wouldBlock:
                    return
                }
            } catch {
                close(reason: .io(error))
                return
            }
        }
        setWatchingWritable(false)
    }

    private func setWatchingWritable(_ on: Bool) {
        guard on != watchingWritable, let id = sourceID else { return }
        watchingWritable = on
        do { try io.updateSource(id, events: on ? [.readable, .writable] : .readable) } catch {
            close(reason: .io(error))
        }
    }

    private func handle(_ events: IOEvents) {
        if events.contains(.writable) { flushBacklog() }
        if !events.isDisjoint(with: [.readable, .hangUp, .error]) { drainReceive() }
    }

    /// Reads every message waiting (bounded, so one busy link cannot starve the loop).
    public func drainReceive() {
        var budget = 64
        while !isClosed, budget > 0 {
            budget -= 1
            let result: PacketReceiveResult
            do { result = try channel.receive(into: receiveBuffer) } catch {
                close(reason: .io(error))
                return
            }
            switch result {
            case .packet(let n):
                process(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<n]))
            case .wouldBlock:
                return
            case .closed:
                close(reason: .linkClosed)
                return
            }
        }
    }

    // MARK: - internals: incoming PDUs

    /// Processes one received PDU (exposed for fuzzing and benchmarks that
    /// feed bytes without a socket).
    public func process(_ pdu: UnsafeRawBufferPointer) {
        guard !isClosed, let raw = pdu.first else { return }
        statistics.pdusReceived += 1
        traceHandler?(.received, pdu)
        let kind = ATTOpcode.kind(ofRaw: raw)
        let decoded: ATTPDU
        do {
            decoded = try ATTPDU.decode(pdu, mtu: mtu)
        } catch {
            if case .exceedsMTU = error { statistics.oversizedReceived += 1 } else { statistics.malformedReceived += 1 }
            switch kind {
            case .request:
                sendErrorResponse(requestOpcode: raw, handle: 0, error: .invalidPDU)
            case .response:
                if requestOutstanding { completeHead(.failed(.malformedResponse(error))) }
            default:
                break  // commands, notifications, indications and confirmations that are malformed are dropped
            }
            return
        }
        switch kind {
        case .request: handleRequest(decoded, raw: raw)
        case .command: server?.handleCommand(decoded, bearer: self)
        case .response: handleResponse(decoded, raw: raw)
        case .notification:
            if case .handleValueNotification(let n) = decoded { notificationHandler?(n.handle, n.value) }
        case .indication:
            if case .handleValueIndication(let ind) = decoded {
                // Confirm first, so anything the handler sends (a rediscovery
                // after Service Changed) follows the confirmation on the air.
                var w = ATTWriter(responseBuffer)
                w.u8(ATTOpcode.handleValueConfirmation.rawValue)
                transmit(w.written)
                guard !isClosed else { return }
                indicationHandler?(ind.handle, ind.value)
            }
        case .confirmation:
            guard indicationOutstanding else { return }  // unexpected confirmation: ignored
            timers.disarm(indicationTimer)
            indicationOutstanding = false
            let ind = indications[indicationHead]
            indications[indicationHead] = PendingIndication()
            indicationHead = (indicationHead + 1) % indications.count
            indicationCount -= 1
            ind.handler?(nil)
            pumpIndications()
        }
    }

    private func handleRequest(_ pdu: ATTPDU, raw: UInt8) {
        if case .exchangeMTURequest(let req) = pdu {
            // Answered here, at once, whatever our own requests are doing.
            var w = ATTWriter(UnsafeMutableRawBufferPointer(rebasing: responseBuffer[..<mtu]))
            w.u8(ATTOpcode.exchangeMTUResponse.rawValue)
            w.u16(UInt16(configuration.localMTU))
            transmit(w.written)
            setMTU(clientRx: Int(req.clientRxMTU), serverRx: configuration.localMTU)
            return
        }
        var w = ATTWriter(UnsafeMutableRawBufferPointer(rebasing: responseBuffer[..<mtu]))
        if let server {
            server.respond(to: pdu, rawOpcode: raw, bearer: self, into: &w)
            if w.count == 0 {  // a server that wrote nothing still owes an answer
                w.write(ATTErrorResponse(requestOpcode: raw, handle: 0, error: .unlikelyError))
            }
        } else {
            w.write(ATTErrorResponse(requestOpcode: raw, handle: 0, error: .requestNotSupported))
        }
        transmit(w.written)
    }

    private func sendErrorResponse(requestOpcode: UInt8, handle: UInt16, error: ATTErrorCode) {
        var w = ATTWriter(responseBuffer)
        w.write(ATTErrorResponse(requestOpcode: requestOpcode, handle: handle, error: error))
        transmit(w.written)
    }

    private func setMTU(clientRx: Int, serverRx: Int) {
        let new = max(ATT.defaultMTU, min(clientRx, serverRx, ATT.maximumMTU))
        mtuExchanged = true
        if new != mtu {
            mtu = new
            mtuHandler?(new)
        }
    }

    private func handleResponse(_ pdu: ATTPDU, raw: UInt8) {
        guard requestOutstanding, requestCount > 0 else {
            close(reason: .protocolViolation("response 0x\(String(raw, radix: 16)) without a request"))
            return
        }
        let head = requests[requestHead]
        if case .errorResponse(let err) = pdu {
            guard err.requestOpcode == head.opcode else {
                close(reason: .protocolViolation("error response for opcode 0x\(String(err.requestOpcode, radix: 16))"))
                return
            }
            if !head.cancelled, !head.securityAttempted, let level = securityLevelNeeded(for: err.error) {
                timers.disarm(requestTimer)
                requestOutstanding = false
                requests[requestHead].securityAttempted = true
                requests[requestHead].deferredError = err
                awaitingSecurity = level
                statistics.securityRetries += 1
                timers.arm(securityTimer, after: configuration.securityTimeout)
                do { try security?.requestSecurity(level) } catch {
                    securityChanged(to: security?.securityLevel ?? .none)
                }
                return
            }
            completeHead(.error(err))
            return
        }
        guard raw == head.opcode &+ 1 else {
            close(reason: .protocolViolation("response 0x\(String(raw, radix: 16)) to request 0x\(String(head.opcode, radix: 16))"))
            return
        }
        if case .exchangeMTUResponse(let rsp) = pdu {
            setMTU(clientRx: configuration.localMTU, serverRx: Int(rsp.serverRxMTU))
        }
        completeHead(.response(pdu))
    }

    private func completeHead(_ outcome: ATTRequestOutcome) {
        timers.disarm(requestTimer)
        requestOutstanding = false
        let head = popRequest()
        if !head.cancelled, let h = head.handler { h(outcome) }
        pumpRequests()
    }

    // MARK: - internals: security and timeouts

    /// The level to ask for after `error`, following BlueZ's rules; nil when
    /// no retry makes sense (no security control, or already at the top).
    private func securityLevelNeeded(for error: ATTErrorCode) -> LinkSecurityLevel? {
        guard let security else { return nil }
        let current = security.securityLevel
        switch error {
        case .insufficientEncryption, .insufficientEncryptionKeySize:
            return current < .encrypted ? .encrypted : nil
        case .insufficientAuthentication:
            switch current {
            case .none: return .encrypted
            case .encrypted: return .authenticated
            case .authenticated: return .secureConnections
            case .secureConnections: return nil
            }
        default:
            return nil
        }
    }

    private func securityChanged(to level: LinkSecurityLevel) {
        if let wanted = awaitingSecurity, !isClosed {
            awaitingSecurity = nil
            timers.disarm(securityTimer)
            if level >= wanted, requestCount > 0, !requests[requestHead].cancelled {
                // Resend the same bytes: the request gets a second chance at the new level.
                requestOutstanding = true
                timers.arm(requestTimer, after: configuration.transactionTimeout)
                let head = requests[requestHead]
                transmit(UnsafeRawBufferPointer(rebasing: slot(requestArena, requestHead)[..<head.length]))
            } else if requestCount > 0 {
                let err = requests[requestHead].deferredError
                let head = popRequest()
                if !head.cancelled, let h = head.handler {
                    if let err { h(.error(err)) } else { h(.failed(.cancelled)) }
                }
                pumpRequests()
            }
        }
        securityHandler?(level)
    }

    private func securityTimedOut() {
        guard awaitingSecurity != nil else { return }
        securityChanged(to: security?.securityLevel ?? .none)
    }

    private func timedOut() {
        // No PDU may be sent on a bearer after a transaction timeout: close it.
        close(reason: .transactionTimeout)
    }
}
