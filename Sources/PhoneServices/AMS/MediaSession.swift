import AMS
import ATTCodec
import GATT
import HAL
import Loop

/// The Apple Media Service over GATT: wires the pure `AMSClient` to the
/// phone's AMS characteristics, for the PhoneSession that owns it.
///
/// When the GATT client finds AMS it subscribes Remote Command, then Entity
/// Update, then lets the client register for the Player and Track
/// attributes. Entity Attribute writes and reads, Remote Command writes and
/// the registrations go out as Write Requests with handlers made once here;
/// the read of a truncated value (Read, then Read Blob while a response
/// fills the PDU) lands in a fixed buffer. AMS going away (Service Changed)
/// or the link closing ends the client's session: `MediaState` is reset and
/// `.unavailable` reported. Nothing on the update and command paths allocates.
public final class MediaSession: AMSClientSink {
    public let client: AMSClient
    /// Called for every media event (set once).
    public var eventHandler: ((MediaEvent) -> Void)?
    /// The phone's AMS, once subscribed.
    public private(set) var service: GATTService?

    private let gatt: GATTClient
    private let loop: EventLoop
    private var remoteCommandHandle: UInt16 = 0
    private var entityUpdateHandle: UInt16 = 0
    private var entityAttributeHandle: UInt16 = 0
    private var generation = 0

    private var remoteCommandRoute: ((UnsafeRawBufferPointer) -> Void)!
    private var entityUpdateRoute: ((UnsafeRawBufferPointer) -> Void)!
    private var entityUpdateWritten: ATTResponseHandler!
    private var entityAttributeWritten: ATTResponseHandler!
    private var entityAttributeReadStep: ATTResponseHandler!
    private var remoteCommandWritten: ATTResponseHandler!

    /// The Entity Attribute value being read.
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var readCount = 0
    private var readLimit = 0

    init(gatt: GATTClient, loop: EventLoop) {
        self.gatt = gatt
        self.loop = loop
        client = AMSClient()
        readBuffer = .allocate(byteCount: ATT.maximumAttributeValueLength, alignment: 1)
        client.sink = self
        remoteCommandRoute = { [unowned self] value in self.client.remoteCommandReceived(value, now: self.loop.now) }
        entityUpdateRoute = { [unowned self] value in self.client.entityUpdateReceived(value, now: self.loop.now) }
        entityUpdateWritten = { [unowned self] outcome in
            self.client.entityUpdateWritten(attErrorCode: Self.errorCode(outcome), now: self.loop.now)
        }
        entityAttributeWritten = { [unowned self] outcome in
            self.client.entityAttributeWritten(attErrorCode: Self.errorCode(outcome), now: self.loop.now)
        }
        entityAttributeReadStep = { [unowned self] outcome in self.readStep(outcome) }
        remoteCommandWritten = { [unowned self] outcome in
            var code: UInt8?
            var failed = false
            switch outcome {
            case .response: break
            case .error(let e): code = e.error.rawValue
            case .failed: failed = true
            }
            self.client.remoteCommandWritten(attErrorCode: code, failed: failed, now: self.loop.now)
        }
    }

    deinit { readBuffer.deallocate() }

    /// What the phone's player is doing.
    public var state: MediaState { client.state }

    /// See `PhoneSession.sendRemoteCommand`.
    public func sendRemoteCommand(_ id: RemoteCommandID) -> Bool { client.sendRemoteCommand(id) }

    // MARK: - AMS appearing and going away

    /// Remote Command, then Entity Update; then the client registers.
    func serviceAdded(_ s: GATTService) {
        guard let rc = s.characteristic(.amsRemoteCommand), let eu = s.characteristic(.amsEntityUpdate),
            let ea = s.characteristic(.amsEntityAttribute)
        else { return }
        end()
        generation += 1
        let g = generation
        remoteCommandHandle = rc.valueHandle
        entityUpdateHandle = eu.valueHandle
        entityAttributeHandle = ea.valueHandle
        gatt.subscribe(rc, handler: remoteCommandRoute) { [weak self] error in
            guard let self, g == self.generation else { return }
            if error != nil { return self.eventHandler?(.unavailable) ?? () }
            self.gatt.subscribe(eu, handler: self.entityUpdateRoute) { [weak self] error in
                guard let self, g == self.generation else { return }
                if error != nil { return self.eventHandler?(.unavailable) ?? () }
                self.service = s
                self.client.sessionStarted(now: self.loop.now)
            }
        }
    }

    /// AMS went away (Service Changed) or the link closed.
    func end() {
        generation += 1
        if remoteCommandHandle != 0 { gatt.removeNotificationHandler(valueHandle: remoteCommandHandle) }
        if entityUpdateHandle != 0 { gatt.removeNotificationHandler(valueHandle: entityUpdateHandle) }
        service = nil
        remoteCommandHandle = 0
        entityUpdateHandle = 0
        entityAttributeHandle = 0
        readCount = 0
        client.sessionEnded()
    }

    // MARK: - AMSClientSink

    public func amsWriteEntityUpdate(_ command: UnsafeRawBufferPointer) -> Bool {
        write(entityUpdateHandle, command, entityUpdateWritten)
    }

    public func amsWriteEntityAttribute(_ command: UnsafeRawBufferPointer) -> Bool {
        write(entityAttributeHandle, command, entityAttributeWritten)
    }

    public func amsWriteRemoteCommand(_ command: UnsafeRawBufferPointer) -> Bool {
        write(remoteCommandHandle, command, remoteCommandWritten)
    }

    public func amsReadEntityAttribute(limit: Int) -> Bool {
        guard entityAttributeHandle != 0, !gatt.bearer.isClosed else { return false }
        readCount = 0
        readLimit = min(limit, readBuffer.count)
        do throws(ATTBearerError) {
            try gatt.bearer.send(request: ATTReadRequest(handle: entityAttributeHandle), handler: entityAttributeReadStep)
            return true
        } catch { return false }
    }

    public func amsEvent(_ event: MediaEvent) { eventHandler?(event) }

    private func write(_ handle: UInt16, _ value: UnsafeRawBufferPointer, _ handler: @escaping ATTResponseHandler) -> Bool {
        guard handle != 0 else { return false }
        do throws(ATTBearerError) {
            try gatt.write(handle: handle, value: value, then: handler)
            return true
        } catch { return false }
    }

    /// One Read / Read Blob response of the Entity Attribute value: keep it,
    /// and ask for more while the response filled the PDU (ATT_MTU − 1
    /// bytes) and the client wants more.
    private func readStep(_ outcome: ATTRequestOutcome) {
        let part: UnsafeRawBufferPointer
        switch outcome {
        case .response(.readResponse(let r)): part = r.value
        case .response(.readBlobResponse(let r)): part = r.value
        case .error(let e) where readCount > 0 && (e.error == .attributeNotLong || e.error == .invalidOffset):
            return readFinished(ok: true)
        default:
            return readFinished(ok: false)
        }
        let n = min(part.count, readBuffer.count - readCount)
        if n > 0 {
            UnsafeMutableRawBufferPointer(rebasing: readBuffer[readCount..<(readCount + n)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: part[0..<n]))
        }
        readCount += n
        guard part.count == gatt.bearer.mtu - 1, readCount < readLimit, !gatt.bearer.isClosed else {
            return readFinished(ok: true)
        }
        do throws(ATTBearerError) {
            try gatt.bearer.send(
                request: ATTReadBlobRequest(handle: entityAttributeHandle, offset: UInt16(readCount)),
                handler: entityAttributeReadStep)
        } catch { readFinished(ok: false) }
    }

    private func readFinished(ok: Bool) {
        let value = UnsafeRawBufferPointer(rebasing: readBuffer[0..<readCount])
        client.entityAttributeRead(ok ? value : nil, now: loop.now)
    }

    private static func errorCode(_ outcome: ATTRequestOutcome) -> UInt8? {
        switch outcome {
        case .response: nil
        case .error(let e): e.error.rawValue
        case .failed: ATTErrorCode.unlikelyError.rawValue
        }
    }
}
