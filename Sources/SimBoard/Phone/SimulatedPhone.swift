
import ANCS
import ATTCodec
import GATT
import HAL
import Loop
import PhoneServices

/// A simulated iPhone on the other end of a message link: an ATT bearer with
/// an iPhone-like GATT database (ANCS far from handle 1, Current Time, an
/// AMS-like service, Continuity ...) and an ANCS Notification Provider that
/// answers the Control Point as Apple's specification says.
///
/// It behaves like iOS on connect (Exchange MTU at once, then reads the
/// accessory's name), delivers pre-existing notifications when Notification
/// Source is subscribed, fragments Data Source responses at the negotiated
/// MTU, performs actions (a positive action on a call answers it, which
/// removes it), can refuse ANCS until the link is encrypted, and plays a
/// script of events (`PhoneEvent`, or its text form `PhoneScript`).
///
/// For the watch's ANCS health checks it can fail like iPhones do: go
/// silent (no Notification Source events while the subscription stays,
/// until the watch re-subscribes) and stop answering the Control Point (no
/// ATT response at all, so the watch's request times out).
public final class SimulatedPhone {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    let lifetime = Lifetime()
    deinit { lifetime.end() }

    public struct Configuration {
        public var deviceName = "Simulated iPhone"
        /// The phone's receive MTU (iOS offers 185 or 517 depending on model).
        public var mtu = 185
        /// Send Exchange MTU right after connecting, as iOS does.
        public var exchangeMTUOnConnect = true
        /// Read the accessory's Device Name after connecting, as iOS does.
        public var readWatchNameOnConnect = true
        /// ANCS answers "Insufficient Authentication" until the link is encrypted.
        public var requireEncryption = false
        /// Whether ANCS is in the database when the link comes up.
        public var ancsPublished = true
        /// Where ANCS starts (nil: after the other services).
        public var ancsStartHandle: UInt16? = nil
        /// Whether the Apple Media Service is in the database when the link comes up.
        public var amsPublished = true
        /// The media player's queue (AMS).
        public var mediaQueue = AMSProvider.defaultQueue
        /// Notifications that exist before the watch connects (announced with PreExisting).
        public var preexisting: [SimulatedNotification] = []
        /// Whether the Current Time Service is in the database (without it
        /// the watch keeps to the system clock).
        public var servesCurrentTime = true
        /// The phone's clock.
        public var time = CurrentTime(year: 2024, month: 5, day: 1, hours: 12, minutes: 0, seconds: 0, dayOfWeek: 3)
        public init() {}
    }

    public let bearer: ATTBearer
    public let server: GATTServer
    public private(set) var provider = ANCSProvider()
    /// The media player behind AMS.
    public internal(set) var media: AMSProvider
    public internal(set) var handles: IPhoneDatabase.Handles
    public let configuration: Configuration
    /// Human-readable record of what the phone did, for tests and the demo.
    public private(set) var log: [String] = []
    /// The accessory's name, once read.
    public private(set) var watchName: String?
    /// Called after every log entry.
    public var logHandler: ((String) -> Void)?
    /// Called when the script has run to its end.
    public var scriptFinished: (() -> Void)?

    let loop: EventLoop
    private let security: LinkSecurityControl?
    private var time: CurrentTime
    /// The phone's battery, as its Battery Service reports it (`battery N`).
    public private(set) var batteryLevel: UInt8 = 87
    private var script: [PhoneEvent] = []
    private var scriptIndex = 0
    private var ancsSession = false
    private let gate: ControlPointResponseGate
    /// Notification Source events are not sent (`goSilent`).
    public private(set) var isSilent = false
    /// A re-subscription does not end the silence (a phone that stays broken).
    public var silenceSurvivesResubscribe = false
    /// Control Point writes are answered (see `stopAnsweringControlPoint`).
    public private(set) var answersControlPoint = true
    /// Notification Source events held back by the silence.
    public private(set) var eventsWithheld = 0
    /// Times the watch re-subscribed to Notification Source (off, then on).
    public private(set) var resubscriptions = 0
    private var ancsEverSubscribed = false

    public init(channel: PacketChannel, loop: EventLoop, security: LinkSecurityControl? = nil, configuration: Configuration = Configuration()) {
        var bearerConfig = ATTBearer.Configuration()
        bearerConfig.localMTU = configuration.mtu
        // A phone queues what the link cannot take yet (an iPhone sends a
        // burst of notifications over several connection events); the watch
        // side keeps its small bounded backlog.
        bearerConfig.backlogCapacity = 1024
        self.loop = loop
        self.security = security
        self.configuration = configuration
        self.time = configuration.time
        gate = ControlPointResponseGate(channel)
        bearer = ATTBearer(channel: gate, loop: loop, security: security, configuration: bearerConfig)
        server = GATTServer(security: security)
        handles = IPhoneDatabase.Handles()
        media = AMSProvider(queue: configuration.mediaQueue)
        for n in configuration.preexisting { provider.add(n) }
        var amsDefinition: GATTServiceDefinition?
        if configuration.amsPublished { amsDefinition = Self.amsDefinition(phone: { [unowned(unsafe) self] in self }, configuration) }
        handles = IPhoneDatabase.publishBase(
            into: server, deviceName: configuration.deviceName, ams: amsDefinition, currentTime: configuration.servesCurrentTime,
            battery: { [unowned(unsafe) self] in [self.batteryLevel] }
        ) {
            [unowned(unsafe) self] in self.time.bytes
        }
        if configuration.ancsPublished { publishANCS(at: configuration.ancsStartHandle, announce: false) }
        server.attach(to: bearer)
        server.subscriptionHandler = { [unowned(unsafe) self] valueHandle, value in self.subscriptionChanged(valueHandle, value) }
        bearer.closeHandler = { [unowned(unsafe) self] reason in self.record("link closed: \(reason)") }
    }

    /// Starts serving and behaves like iOS right after a connection.
    public func start() throws(HALError) {
        try bearer.start()
        record("connected")
        if configuration.exchangeMTUOnConnect {
            _ = try? bearer.exchangeMTU { [unowned(unsafe) self] _ in self.record("mtu \(self.bearer.mtu)") }
        }
        if configuration.readWatchNameOnConnect {
            _ = try? bearer.send(request: ATTReadByTypeRequest(range: .all, type: .deviceName)) { [unowned(unsafe) self] outcome in
                if case .response(.readByTypeResponse(let r)) = outcome, r.count > 0 {
                    self.watchName = String(decoding: r[0].value, as: UTF8.self)
                    self.record("watch name \(self.watchName!)")
                }
            }
        }
    }

    // MARK: - script

    /// Plays events in order (waits use the loop's timers).
    public func run(_ events: [PhoneEvent]) {
        script = events
        scriptIndex = 0
        step()
    }

    private func step() {
        while scriptIndex < script.count {
            let event = script[scriptIndex]
            scriptIndex += 1
            if case .wait(let d) = event {
                loop.schedule(after: d) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.step() } }
                return
            }
            perform(event)
        }
        scriptFinished?()
    }

    /// Performs one event now.
    public func perform(_ event: PhoneEvent) {
        switch event {
        case .wait: break
        case .add(let n):
            provider.add(n)
            record("add \(n.uid) \(n.category) \"\(n.title)\"")
            sendNotificationSource(event: 0, n)
        case .modify(let uid, let title, let subtitle, let message, let flags):
            guard var n = provider.notification(uid) else { return record("modify \(uid): no such notification") }
            if let title { n.title = title }
            if let subtitle { n.subtitle = subtitle }
            if let message { n.message = message }
            if let flags { n.flags = flags }
            provider.update(n)
            record("modify \(uid)")
            sendNotificationSource(event: 1, n)
        case .remove(let uid):
            removeNotification(uid, reason: "remove")
        case .publishANCS(let at):
            publishANCS(at: at, announce: true)
        case .unpublishANCS:
            guard let range = handles.ancs else { return record("unpublish-ancs: not published") }
            server.unpublish(serviceAt: range.start)
            handles.ancs = nil
            handles.notificationSource = 0
            handles.controlPoint = 0
            handles.dataSource = 0
            ancsSession = false
            record("ancs unpublished \(range)")
            server.serviceChanged(range)
        case .setTime(let t):
            time = t
            record("time \(t)")
            if handles.currentTime != 0 { _ = t.bytes.withUnsafeBytes { server.notify(valueHandle: handles.currentTime, value: $0) } }
        case .battery(let level):
            setBattery(level)
        case .appName(let id, let name):
            provider.appNames[id] = name
        case .pair:
            record("pairing requested")
            _ = try? bearer.send(request: ATTReadByTypeRequest(range: .all, type: WatchGATTDatabase.pairingCharacteristic)) {
                [unowned(unsafe) self] outcome in
                switch outcome {
                case .response: self.record("paired (level \(self.security?.securityLevel ?? .none))")
                case .error(let e): self.record("pairing read failed: \(e.error)")
                case .failed(let f): self.record("pairing read failed: \(f)")
                }
            }
        case .disconnect:
            record("disconnect")
            bearer.close()
        case .goSilent:
            goSilent()
        case .stopAnsweringControlPoint:
            stopAnsweringControlPoint()
        case .answerControlPoint:
            answersControlPoint = true
            record("control point answers again")
        case .media(let command):
            mediaCommand(command)
        case .publishAMS:
            publishAMS()
        case .unpublishAMS:
            unpublishAMS()
        }
    }

    /// The phone's ANCS keeps its subscription but sends no Notification
    /// Source event any more (notifications still come and go on the phone).
    /// The watch's re-subscription (CCCD off, then on) ends it, unless
    /// `silenceSurvivesResubscribe`.
    public func goSilent() {
        isSilent = true
        record("ancs silent")
    }

    /// Control Point writes get no ATT response from now on (until
    /// `.answerControlPoint`): the watch's request times out.
    public func stopAnsweringControlPoint() {
        answersControlPoint = false
        record("control point stops answering")
    }

    // MARK: - ANCS provider

    private func publishANCS(at start: UInt16?, announce: Bool) {
        guard handles.ancs == nil else { return record("publish-ancs: already published") }
        let def = IPhoneDatabase.ancs(requireEncryption: configuration.requireEncryption) { [unowned(unsafe) self] value in
            self.controlPointWritten(Array(value))
        }
        guard let s = try? server.publish(def, at: start) else { return record("publish-ancs: no room at \(start ?? 0)") }
        handles.ancs = s.range
        handles.notificationSource = s.valueHandles[0]
        handles.controlPoint = s.valueHandles[1]
        handles.dataSource = s.valueHandles[2]
        if announce {
            record("ancs published \(s.range)")
            server.serviceChanged(s.range)
        }
    }

    /// Whether the watch subscribed to Notification Source.
    public var ancsSessionActive: Bool { ancsSession }

    private func subscriptionChanged(_ valueHandle: UInt16, _ value: UInt16) {
        if valueHandle == handles.notificationSource {
            if value & 1 != 0 && !ancsSession {
                ancsSession = true
                if ancsEverSubscribed { resubscriptions += 1 }
                ancsEverSubscribed = true
                record("ancs session started")
                if isSilent && !silenceSurvivesResubscribe {
                    isSilent = false
                    record("ancs silence ended by the re-subscription")
                }
                // After the Write Response: announce what already exists.
                loop.deferWork { [lifetime, unowned(unsafe) self] in
                    guard !lifetime.isOver else { return }
                    for n in self.provider.notifications {
                        self.sendNotificationSource(event: 0, n, extraFlags: .preExisting)
                    }
                }
            } else if value & 1 == 0 && ancsSession {
                ancsSession = false
                record("ancs session ended")
            }
        } else if valueHandle == handles.dataSource {
            record(value & 1 != 0 ? "data source subscribed" : "data source unsubscribed")
        } else if valueHandle == handles.batteryLevel {
            record(value & 1 != 0 ? "battery level subscribed" : "battery level unsubscribed")
        } else if valueHandle == handles.currentTime {
            record(value & 1 != 0 ? "current time subscribed" : "current time unsubscribed")
        } else if valueHandle == handles.remoteCommand || valueHandle == handles.entityUpdate {
            amsSubscriptionChanged(valueHandle, value)
        } else if valueHandle == handles.serviceChanged {
            record("service changed subscribed")
        }
    }

    private func sendNotificationSource(event: UInt8, _ n: SimulatedNotification, extraFlags: SimulatedNotification.Flags = []) {
        guard ancsSession, handles.notificationSource != 0 else { return }
        if isSilent {
            eventsWithheld += 1
            return
        }
        let bytes = provider.notificationSource(event: event, n, extraFlags: extraFlags)
        _ = bytes.withUnsafeBytes { server.notify(valueHandle: handles.notificationSource, value: $0) }
    }

    private func removeNotification(_ uid: UInt32, reason: String) {
        guard let n = provider.notification(uid) else { return record("\(reason) \(uid): no such notification") }
        provider.remove(uid)
        record("\(reason) \(uid)")
        // The removed event carries the category count after removal.
        sendNotificationSource(event: 2, n)
    }

    private func controlPointWritten(_ bytes: [UInt8]) -> ATTErrorCode? {
        guard answersControlPoint else {
            record("control point \(Self.describe(bytes)) -> no answer")
            gate.swallowNextResponse()
            return nil
        }
        let result = provider.handle(command: bytes)
        switch result {
        case .error(let code):
            record("control point \(Self.describe(bytes)) -> error 0x\(String(code.rawValue, radix: 16, uppercase: true))")
            return ATTErrorCode(code.rawValue)
        case .response(let response):
            record("control point \(Self.describe(bytes))")
            // Data Source follows the Write Response, in ATT_MTU-3 fragments.
            loop.deferWork { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.sendDataSource(response) } }
            return nil
        case .action(let uid, let positive):
            record("action \(positive ? "positive" : "negative") \(uid)")
            loop.deferWork { [lifetime, unowned(unsafe) self] in
                guard !lifetime.isOver else { return }
                self.removeNotification(uid, reason: positive ? "answered" : "dismissed")
            }
            return nil
        }
    }

    private func sendDataSource(_ response: [UInt8]) {
        guard handles.dataSource != 0 else { return }
        let chunk = bearer.mtu - 3
        var offset = 0
        var fragments = 0
        while offset < response.count {
            let end = min(offset + chunk, response.count)
            let sent = response.withUnsafeBytes {
                server.notify(valueHandle: handles.dataSource, value: UnsafeRawBufferPointer(rebasing: $0[offset..<end]))
            }
            if !sent { return record("data source not subscribed: response dropped") }
            fragments += 1
            offset = end
        }
        record("data source \(response.count) bytes in \(fragments) fragment\(fragments == 1 ? "" : "s")")
    }

    private static func describe(_ b: [UInt8]) -> String {
        switch b.first {
        case 0 where b.count >= 5:
            let uid = UInt32(b[1]) | UInt32(b[2]) << 8 | UInt32(b[3]) << 16 | UInt32(b[4]) << 24
            return "get notification attributes \(uid)"
        case 1: return "get app attributes"
        case 2 where b.count >= 5:
            let uid = UInt32(b[1]) | UInt32(b[2]) << 8 | UInt32(b[3]) << 16 | UInt32(b[4]) << 24
            return "perform action \(uid)"
        default: return "command \(b.first.map { String($0) } ?? "empty")"
        }
    }

    /// The loop's time in milliseconds (the player's clock).
    var nowMilliseconds: Int64 {
        let c = (loop.now - MonotonicInstant(nanoseconds: 0)).components
        return c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000
    }

    /// Changes the phone's battery level and notifies it (Battery Service).
    public func setBattery(_ level: UInt8) {
        batteryLevel = min(level, 100)
        record("battery \(batteryLevel)%")
        if handles.batteryLevel != 0 {
            _ = withUnsafeBytes(of: batteryLevel) { server.notify(valueHandle: handles.batteryLevel, value: $0) }
        }
    }

    func record(_ line: String) {
        log.append(line)
        logHandler?(line)
    }
}
