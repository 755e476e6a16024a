import AMS
import ANCS
import ATTCodec
import GATT
import HAL
import Loop
import Notifications
import PhoneFeeds

/// Everything the watch runs over one Bluetooth link to the phone:
/// the ATT bearer, the watch's GATT server (GAP, GATT, pairing trigger), the
/// GATT client watching ANCS, Current Time, AMS and the Battery Service, the ANCS Notification
/// Consumer, the Current Time client and the media session (AMS).
///
/// It routes the GATT client's discoveries to their services: ANCS to
/// `ANCSSource` (the notification source for an iPhone), Current Time to
/// `CurrentTimeClient`, AMS to `MediaSession`, and hands their events on
/// as one `Event` stream.
///
/// Steady state (a notification's Notification Source → Control Point →
/// Data Source → attributes, and the liveness probe) allocates nothing:
/// every closure is created once.
public final class PhoneSession {
    /// Which phone is on the link, as far as the watch can tell.
    public enum PhoneKind: String, Sendable, Equatable {
        /// Not known yet (or a phone that offers neither).
        case unknown
        /// ANCS is subscribed.
        case iPhone
        /// Gadgetbridge spoke on the UART.
        case android
    }

    /// What happened to the ANCS/CTS session, for logs and the UI.
    public enum Event {
        case ancs(ANCSEvent)
        /// ANCS is subscribed (Data Source, then Notification Source).
        case ancsSubscribed
        /// Subscribing failed (after any pairing attempt).
        case ancsSubscriptionFailed(GATTError)
        case ancsUnavailable
        case phoneTime(PhoneClock)
        case discoveryFailed(GATTError)
        case closed(ATTBearerError)
        /// A Control Point command could not be sent (the consumer was told
        /// its write failed). Reported once per reason per ANCS session, so
        /// a burst of commands cannot flood the log.
        case ancsCommandNotSent(CommandFailure)
        /// The subscriptions are being rewritten (the consumer recommended it).
        case ancsResubscribing(ResubscribeReason)
        /// They were rewritten: a new ANCS session runs.
        case ancsResubscribed
        /// Rewriting them failed: the link is being dropped.
        case ancsResubscribeFailed(GATTError)
        /// Apple Media Service: available, gone, what changed, a refused Remote
        /// Command (or Gadgetbridge's player, on an Android phone).
        case media(MediaEvent)
        /// The phone spoke Gadgetbridge on this link (an Android phone): the
        /// watch reads `notifications` anew (it is Gadgetbridge's source now).
        case gadgetbridgeStarted
        /// From a notification source other than ANCS (Gadgetbridge's).
        case notification(NotificationEvent)
        /// A line from Gadgetbridge was dropped (each reason once per link).
        case gadgetbridgeLineDropped(GadgetbridgeSession.LineProblem)
        /// A reply to Gadgetbridge could not be written (once per link).
        case gadgetbridgeReplyDropped
        /// A Gadgetbridge message this watch does not act on (its type; valid during the call).
        case gadgetbridgeUnsupported(UnsafeRawBufferPointer)
        /// The phone asks the watch to make itself found (true), or to stop.
        case findWatch(Bool)
        /// The phone asks the watch to buzz `count` times.
        case buzz(count: Int)
        /// The phone sent the weather (Gadgetbridge's `weather`).
        case weather(WeatherReport)
        /// A calendar event added or changed, its times on the watch's clock.
        case calendarEvent(CalendarEvent)
        /// A calendar event deleted on the phone.
        case calendarEventRemoved(id: Int64)
        /// The phone wants the ids of the events the watch holds
        /// (`sendCalendarSync`): on connecting, and when Gadgetbridge asks.
        case calendarSyncRequested
        /// The phone set the watch's alarms (the whole list, Gadgetbridge's `alarm`).
        case alarms(PhoneAlarms)
        /// The phone's battery level (its Battery Service), nil when no longer known.
        case phoneBattery(Int?)
    }

    /// How long rewriting the ANCS subscriptions may take before the link is dropped.
    public static let resubscribeTimeout: Duration = ANCSSource.resubscribeTimeout

    /// Why a Control Point command could not be sent.
    public enum CommandFailure: Equatable, Sendable, CustomStringConvertible {
        /// ANCS is not subscribed (gone, or not yet there).
        case noControlPoint
        /// The ATT request queue had no room (long writes need one slot per part).
        case queueFull
        /// The link is closed.
        case linkClosed
        /// The command does not fit a write, even a long one.
        case tooLong(Int)
        /// Anything else the bearer refused with.
        case bearer(ATTBearerError)

        init(_ error: ATTBearerError, length: Int) {
            switch error {
            case .queueFull: self = .queueFull
            case .linkClosed, .transactionTimeout: self = .linkClosed
            case .encoding: self = .tooLong(length)
            default: self = .bearer(error)
            }
        }

        /// One bit per kind, for reporting each once per session.
        var bit: UInt8 {
            switch self {
            case .noControlPoint: 1
            case .queueFull: 2
            case .linkClosed: 4
            case .tooLong: 8
            case .bearer: 16
            }
        }

        public var description: String {
            switch self {
            case .noControlPoint: "ANCS has no Control Point (not subscribed)"
            case .queueFull: "the ATT request queue is full"
            case .linkClosed: "the link is closed"
            case .tooLong(let n): "\(n) bytes do not fit an ATT write"
            case .bearer(let e): "\(e)"
            }
        }
    }

    public let bearer: ATTBearer
    public let server: GATTServer
    public let client: GATTClient
    /// ANCS over this link: the consumer, its subscriptions and health.
    public private(set) var ancs: ANCSSource!
    public var consumer: NotificationConsumer { ancs.consumer }
    /// Gadgetbridge over the UART (an Android phone).
    public private(set) var gadgetbridge: GadgetbridgeSession!
    /// The store the watch reads (protocol-neutral): Gadgetbridge's once the
    /// phone spoke it, else the ANCS consumer's.
    public var notifications: any NotificationSource {
        gadgetbridge.isActive ? gadgetbridge.source : ancs.consumer
    }
    /// Which kind of phone this link has turned out to be.
    public var phoneKind: PhoneKind {
        gadgetbridge.isActive ? .android : ancs.service != nil ? .iPhone : .unknown
    }
    public let currentTime: CurrentTimeClient
    /// The phone's Battery Service client.
    public let phoneBattery: PhoneBatteryClient
    /// The Apple Media Service client (optional: a phone without AMS works as before).
    public let mediaSession: MediaSession
    /// Called for every event (set once; passing a stored closure keeps it allocation-free).
    public var eventHandler: ((Event) -> Void)?
    /// The phone's ANCS, once subscribed.
    public var ancsService: GATTService? { ancs.service }
    /// True while the ANCS subscriptions are being rewritten.
    public var isResubscribing: Bool { ancs.isResubscribing }

    private let loop: EventLoop
    /// Fires `ancsAbsenceGrace` after discovery found no ANCS.
    private var ancsAbsenceTimer: TimerID!
    /// How long after discovery without ANCS the watch waits for Gadgetbridge
    /// before it says "the phone offers no ANCS" (an iPhone's setting).
    public var ancsAbsenceGrace: Duration = .seconds(3)

    /// - Parameters:
    ///   - channel: the connected ATT link (an L2CAP LE socket on CID 4, or a
    ///     SEQPACKET socket in the simulator and tests).
    ///   - security: the link's security control, used when the phone asks
    ///     for pairing ("Insufficient Authentication").
    ///   - firmwareRevision: what the watch says it runs (the pairing
    ///     characteristic's value; Gadgetbridge's `ver`).
    public init(
        channel: PacketChannel, loop: EventLoop, security: LinkSecurityControl?, deviceName: String = "WristCore",
        firmwareRevision: String = "WristCore",
        consumerConfiguration: NotificationConsumer.Configuration = .init(),
        bearerConfiguration: ATTBearer.Configuration = .init(),
        gadgetbridgeLimits: GadgetbridgeSession.Limits = .init(), uartRequiresEncryption: Bool = false
    ) {
        self.loop = loop
        bearer = ATTBearer(channel: channel, loop: loop, security: security, configuration: bearerConfiguration)
        let c = consumerConfiguration
        var fields = InlineArray<6, Int>(repeating: Int(c.actionLabelMaxLength))
        fields[NotificationField.appIdentifier.rawValue] = Int(c.appNameMaxLength)
        fields[NotificationField.title.rawValue] = Int(c.titleMaxLength)
        fields[NotificationField.subtitle.rawValue] = Int(c.subtitleMaxLength)
        fields[NotificationField.message.rawValue] = Int(c.messageMaxLength)
        let uart = GadgetbridgeSession(
            capacity: c.storeCapacity, fieldCapacities: fields, limits: gadgetbridgeLimits, loop: loop,
            emit: { _ in })
        let (server, handles) = WatchGATTDatabase.makeServer(
            deviceName: deviceName, security: security, firmwareRevision: firmwareRevision,
            uartReceived: { [unowned(unsafe) uart] bytes in uart.received(bytes) }, uartRequiresEncryption: uartRequiresEncryption)
        self.server = server
        server.attach(to: bearer)
        uart.attach(server: server, txHandle: handles.uartTX, firmware: firmwareRevision)
        server.subscriptionHandler = { [unowned(unsafe) uart] handle, value in
            uart.subscriptionChanged(valueHandle: handle, configuration: value)
        }
        client = GATTClient(bearer: bearer, watching: [.ancsService, .currentTimeService, .amsService, .battery])
        currentTime = CurrentTimeClient(client: client, clock: loop)
        phoneBattery = PhoneBatteryClient(client: client)
        mediaSession = MediaSession(gatt: client, loop: loop)
        ancs = ANCSSource(
            configuration: consumerConfiguration, bearer: bearer, client: client, loop: loop,
            emit: { [unowned(unsafe) self] event in self.eventHandler?(event) })
        currentTime.timeHandler = { [unowned(unsafe) self] clock in self.eventHandler?(.phoneTime(clock)) }
        phoneBattery.levelHandler = { [unowned(unsafe) self] level in self.eventHandler?(.phoneBattery(level)) }
        client.eventHandler = { [unowned(unsafe) self] event in self.clientEvent(event) }
        mediaSession.eventHandler = { [unowned(unsafe) self] event in self.eventHandler?(.media(event)) }
        uart.emit = { [unowned(unsafe) self] event in self.eventHandler?(event) }
        gadgetbridge = uart
        ancsAbsenceTimer = loop.makeTimer { [unowned(unsafe) self] in self.ancsStillAbsent() }
    }

    deinit { loop.destroyTimer(ancsAbsenceTimer) }

    private func ancsStillAbsent() {
        guard !bearer.isClosed, ancsService == nil, client.service(.ancsService) == nil,
            !gadgetbridge.isActive, !gadgetbridge.canReply
        else { return }
        eventHandler?(.ancsUnavailable)
    }


    /// Starts the link: serves the phone's requests and discovers its services.
    public func start() throws(HALError) {
        try bearer.start()
        client.start()
    }

    /// Disconnects.
    public func close() { bearer.close() }

    /// The consumer's liveness checks (probe after quiet, re-subscribe after
    /// silence); on by default. Changing them re-arms the timer.
    public var liveness: LivenessPolicy? {
        get { ancs.liveness }
        set { ancs.liveness = newValue }
    }

    // MARK: - UI entry points (forwarded to the consumer, with the timer kept right)

    /// Performs the positive or negative action on a notification.
    public func performAction(_ action: ActionID, on uid: NotificationUID) throws(ANCSActionError) {
        if gadgetbridge.isActive { return try gadgetbridge.source.perform(action, on: uid, now: loop.now) }
        try ancs.performAction(action, on: uid)
    }

    /// Sends a reply (`text`, UTF-8) or mutes a notification's app, where
    /// the phone offers it (`notifications.offers`); false when it did not go.
    public func send(_ request: NotificationRequest, on uid: NotificationID, text: UnsafeRawBufferPointer) -> Bool {
        gadgetbridge.isActive && gadgetbridge.source.send(request, on: uid, text: text)
    }

    /// This session's store takes over what `previous` (an earlier link's
    /// session, still shown) kept from its ended session.
    public func adoptPreviousSession(from previous: PhoneSession) {
        guard previous !== self else { return }
        ancs.adoptPreviousSession(from: previous.ancs)
        // Shown once this link turns out to be Gadgetbridge's too.
        gadgetbridge.source.adopt(from: previous.gadgetbridge.source)
    }

    /// The notification is on screen (its message is fetched if needed).
    public func notificationShown(_ uid: NotificationUID) {
        if gadgetbridge.isActive { return }  // its notifications come whole
        ancs.notificationShown(uid)
    }

    // MARK: - GATT client events

    private func clientEvent(_ event: GATTClientEvent) {
        switch event {
        case .serviceAdded(let s) where s.uuid == .ancsService:
            ancs.subscribe(s)
        case .serviceAdded(let s) where s.uuid == .currentTimeService:
            currentTime.serviceAdded(s)
        case .serviceAdded(let s) where s.uuid == .amsService:
            mediaSession.serviceAdded(s)
        case .serviceAdded(let s) where s.uuid == .battery:
            phoneBattery.serviceAdded(s)
        case .serviceAdded:
            break
        case .serviceRemoved(let s) where s.uuid == .ancsService:
            ancs.serviceRemoved()
        case .serviceRemoved(let s) where s.uuid == .currentTimeService:
            currentTime.serviceRemoved()
        case .serviceRemoved(let s) where s.uuid == .amsService:
            mediaSession.end()
        case .serviceRemoved(let s) where s.uuid == .battery:
            phoneBattery.serviceRemoved()
        case .serviceRemoved:
            break
        case .ready:
            // A link that closed during discovery is not a phone without ANCS (`.closed` follows).
            // Nor is an Android phone: Gadgetbridge subscribes to the UART and
            // writes its clock line within a moment of connecting, so the
            // iPhone's hint waits `ancsAbsenceGrace` for that first.
            if !bearer.isClosed && ancsService == nil && client.service(.ancsService) == nil {
                loop.arm(ancsAbsenceTimer, after: ancsAbsenceGrace, repeating: nil)
            }
        case .discoveryFailed(let e):
            if !bearer.isClosed { eventHandler?(.discoveryFailed(e)) }
        case .closed(let reason):
            loop.disarm(ancsAbsenceTimer)
            ancs.linkClosed()
            gadgetbridge.linkClosed()
            mediaSession.end()
            eventHandler?(.closed(reason))
        }
    }
}
