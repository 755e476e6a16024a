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
/// fills the PDU: `LongReadProcedure`) lands in fixed storage. AMS going
/// away (Service Changed) or the link closing ends the client's session:
/// `MediaState` is reset and `.unavailable` reported. Nothing on the update and command paths allocates.
public final class MediaSession: AMSClientSink {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    deinit { lifetime.end() }

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
    private var remoteCommandWritten: ATTResponseHandler!
    /// Reads the Entity Attribute value (Read, then Read Blob) into fixed storage.
    private var entityAttributeRead: LongReadProcedure!

    init(gatt: GATTClient, loop: EventLoop) {
        self.gatt = gatt
        self.loop = loop
        client = AMSClient()
        client.sink = self
        remoteCommandRoute = { [unowned(unsafe) self] value in self.client.remoteCommandReceived(value, now: self.loop.now) }
        entityUpdateRoute = { [unowned(unsafe) self] value in self.client.entityUpdateReceived(value, now: self.loop.now) }
        entityUpdateWritten = { [unowned(unsafe) self] outcome in
            self.client.entityUpdateWritten(attErrorCode: Self.errorCode(outcome), now: self.loop.now)
        }
        entityAttributeWritten = { [unowned(unsafe) self] outcome in
            self.client.entityAttributeWritten(attErrorCode: Self.errorCode(outcome), now: self.loop.now)
        }
        entityAttributeRead = LongReadProcedure(client: gatt) { [unowned(unsafe) self] result in
            guard case .success(let value) = result else { return self.client.entityAttributeRead(nil, now: self.loop.now) }
            self.client.entityAttributeRead(value, now: self.loop.now)
        }
        remoteCommandWritten = { [unowned(unsafe) self] outcome in
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

    /// What the phone's player is doing.
    public var state: MediaState { client.state }

    /// See `PhoneSession.sendRemoteCommand`.
    public func sendRemoteCommand(_ id: RemoteCommandID) -> Bool { client.sendRemoteCommand(id) }

    // MARK: - AMS appearing and going away

    /// Remote Command, then Entity Update, each when the phone offers it
    /// (the specification allows any subset); then the client starts with
    /// what is there. Nothing to do without both.
    func serviceAdded(_ s: GATTService) {
        let rc = s.characteristic(.amsRemoteCommand)
        let eu = s.characteristic(.amsEntityUpdate)
        let ea = s.characteristic(.amsEntityAttribute)
        guard rc != nil || eu != nil else { return }
        end()
        generation += 1
        let g = generation
        var offered = AMSClient.Characteristics()
        if let rc { offered.insert(.remoteCommand); remoteCommandHandle = rc.valueHandle }
        if let eu { offered.insert(.entityUpdate); entityUpdateHandle = eu.valueHandle }
        // Entity Attribute reads whole values of cut ones: only useful with updates.
        if let ea, eu != nil { offered.insert(.entityAttribute); entityAttributeHandle = ea.valueHandle }
        let start = { [lifetime, unowned(unsafe) self] in
            guard !lifetime.isOver, g == self.generation else { return }
            self.service = s
            self.client.sessionStarted(now: self.loop.now, characteristics: offered)
        }
        let subscribeUpdates = { [lifetime, unowned(unsafe) self] in
            guard !lifetime.isOver, g == self.generation else { return }
            guard let eu else { return start() }
            self.gatt.subscribe(eu, handler: self.entityUpdateRoute) { [lifetime, unowned(unsafe) self] error in
                guard !lifetime.isOver, g == self.generation else { return }
                if error != nil { return self.eventHandler?(.unavailable) ?? () }
                start()
            }
        }
        guard let rc else { return subscribeUpdates() }
        gatt.subscribe(rc, handler: remoteCommandRoute) { [lifetime, unowned(unsafe) self] error in
            guard !lifetime.isOver, g == self.generation else { return }
            if error != nil { return self.eventHandler?(.unavailable) ?? () }
            subscribeUpdates()
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
        guard entityAttributeHandle != 0 else { return false }
        do throws(ATTBearerError) {
            try entityAttributeRead.start(handle: entityAttributeHandle, limit: limit)
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

    private static func errorCode(_ outcome: ATTRequestOutcome) -> UInt8? {
        switch outcome {
        case .response: nil
        case .error(let e): e.error.rawValue
        case .failed: ATTErrorCode.unlikelyError.rawValue
        }
    }
}
