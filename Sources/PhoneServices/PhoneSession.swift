import AMS
import ANCS
import ATTCodec
import GATT
import HAL
import Loop
import Notifications

/// Everything the watch runs over one Bluetooth link to the phone:
/// the ATT bearer, the watch's GATT server (GAP, GATT, pairing trigger), the
/// GATT client watching ANCS, Current Time and AMS, the ANCS Notification
/// Consumer, the Current Time client and the media session (AMS).
///
/// It wires the pure ANCS state machine to GATT: Notification Source and
/// Data Source notifications go into the consumer by value handle, its
/// Control Point commands go out as Write Requests whose outcome is reported
/// back, and one loop timer is kept armed at the consumer's `nextDeadline`.
/// ANCS appearing later (Service Changed) starts a session then; ANCS going
/// away or the link closing ends it.
///
/// ANCS health: when the consumer recommends it (a probe without an answer,
/// hours without a Notification Source event, a stuck Control Point write)
/// the session rewrites both subscriptions (Notification Source and Data
/// Source CCCDs off, then Data Source and Notification Source on); if that
/// fails, or does not finish within `resubscribeTimeout`, it drops the link
/// so the phone reconnects (docs/ancs.md).
///
/// Steady state (a notification's Notification Source → Control Point →
/// Data Source → attributes, and the liveness probe) allocates nothing:
/// every closure is created here once. Re-subscribing allocates (GATT
/// configuration writes), at most once per check period.
public final class PhoneSession: ANCSConsumerSink {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
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
        /// Apple Media Service: available, gone, what changed, a refused Remote Command.
        case media(MediaEvent)
    }

    /// How long rewriting the subscriptions may take before the link is dropped.
    public static let resubscribeTimeout: Duration = .seconds(40)

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
    public let consumer: NotificationConsumer
    /// The consumer's store as the watch reads it (protocol-neutral).
    public var notifications: any NotificationSource { consumer }
    public let currentTime: CurrentTimeClient
    /// The Apple Media Service client (optional: a phone without AMS works as before).
    public let mediaSession: MediaSession
    /// Called for every event (set once; passing a stored closure keeps it allocation-free).
    public var eventHandler: ((Event) -> Void)?
    /// The phone's ANCS, once subscribed.
    public private(set) var ancsService: GATTService?

    private let loop: EventLoop
    /// Follows the consumer's `nextDeadline`.
    private var ancsTimer: DeadlineTimer!
    private var controlPointHandle: UInt16 = 0
    private var controlPointCompletion: ATTResponseHandler!
    private var notificationSourceRoute: ((UnsafeRawBufferPointer) -> Void)!
    private var dataSourceRoute: ((UnsafeRawBufferPointer) -> Void)!
    private var subscribeGeneration = 0
    private var resubscribeTimer: TimerID!
    private var resubscribeWork: (() -> Void)!
    private var pendingResubscribe: ResubscribeReason?
    /// True while the subscriptions are being rewritten.
    public private(set) var isResubscribing = false
    /// `CommandFailure.bit`s already reported in this ANCS session.
    private var reportedCommandFailures: UInt8 = 0

    /// - Parameters:
    ///   - channel: the connected ATT link (an L2CAP LE socket on CID 4, or a
    ///     SEQPACKET socket in the simulator and tests).
    ///   - security: the link's security control, used when the phone asks
    ///     for pairing ("Insufficient Authentication").
    public init(
        channel: PacketChannel, loop: EventLoop, security: LinkSecurityControl?, deviceName: String = "WristCore",
        consumerConfiguration: NotificationConsumer.Configuration = .init(),
        bearerConfiguration: ATTBearer.Configuration = .init()
    ) {
        self.loop = loop
        bearer = ATTBearer(channel: channel, loop: loop, security: security, configuration: bearerConfiguration)
        server = WatchGATTDatabase.makeServer(deviceName: deviceName, security: security).0
        server.attach(to: bearer)
        client = GATTClient(bearer: bearer, watching: [.ancsService, .currentTimeService, .amsService])
        consumer = NotificationConsumer(configuration: consumerConfiguration)
        currentTime = CurrentTimeClient(client: client, clock: loop)
        mediaSession = MediaSession(gatt: client, loop: loop)
        consumer.sink = self
        ancsTimer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in
            self.consumer.handleDeadline(now: self.loop.now)
            self.rearm()
        }
        controlPointCompletion = { [unowned(unsafe) self] outcome in self.controlPointWritten(outcome) }
        notificationSourceRoute = { [unowned(unsafe) self] value in
            self.consumer.notificationSourceReceived(value, now: self.loop.now)
            self.rearm()
        }
        dataSourceRoute = { [unowned(unsafe) self] value in
            self.consumer.dataSourceReceived(value, now: self.loop.now)
            self.rearm()
        }
        resubscribeTimer = loop.makeTimer { [unowned(unsafe) self] in
            self.resubscribeFailed(.bearer(.transactionTimeout))
        }
        resubscribeWork = { [unowned(unsafe) self] in self.resubscribeIfPending() }
        currentTime.timeHandler = { [unowned(unsafe) self] clock in self.eventHandler?(.phoneTime(clock)) }
        client.eventHandler = { [unowned(unsafe) self] event in self.clientEvent(event) }
        mediaSession.eventHandler = { [unowned(unsafe) self] event in self.eventHandler?(.media(event)) }
    }

    deinit {
        lifetime.end()
        if consumer.sink === self { consumer.sink = nil }
        loop.destroyTimer(resubscribeTimer)
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
        get { consumer.liveness }
        set {
            consumer.liveness = newValue
            rearm()
        }
    }

    // MARK: - UI entry points (forwarded to the consumer, with the timer kept right)

    /// Performs the positive or negative action on a notification.
    public func performAction(_ action: ActionID, on uid: NotificationUID) throws(ANCSActionError) {
        try consumer.performAction(action, on: uid, now: loop.now)
        rearm()
    }

    /// This session's store takes over what `previous` (an earlier link's
    /// session, still shown) kept from its ended session.
    public func adoptPreviousSession(from previous: PhoneSession) {
        guard previous !== self else { return }
        consumer.adoptPreviousSession(from: previous.consumer, now: loop.now)
        rearm()
    }

    /// The notification is on screen (its message is fetched if needed).
    public func notificationShown(_ uid: NotificationUID) {
        consumer.notificationShown(uid, now: loop.now)
        rearm()
    }

    // MARK: - GATT client events

    private func clientEvent(_ event: GATTClientEvent) {
        switch event {
        case .serviceAdded(let s) where s.uuid == .ancsService:
            subscribeANCS(s)
        case .serviceAdded(let s) where s.uuid == .currentTimeService:
            currentTime.serviceAdded(s)
        case .serviceAdded(let s) where s.uuid == .amsService:
            mediaSession.serviceAdded(s)
        case .serviceAdded:
            break
        case .serviceRemoved(let s) where s.uuid == .ancsService:
            subscribeGeneration += 1
            if isResubscribing {
                isResubscribing = false
                loop.disarm(resubscribeTimer)
            }
            ancsService = nil
            controlPointHandle = 0
            consumer.sessionEnded(.serviceChanged, now: loop.now)
            rearm()
            eventHandler?(.ancsUnavailable)
        case .serviceRemoved(let s) where s.uuid == .currentTimeService:
            currentTime.serviceRemoved()
        case .serviceRemoved(let s) where s.uuid == .amsService:
            mediaSession.end()
        case .serviceRemoved:
            break
        case .ready:
            // A link that closed during discovery is not a phone without ANCS (`.closed` follows).
            if !bearer.isClosed && ancsService == nil && client.service(.ancsService) == nil { eventHandler?(.ancsUnavailable) }
        case .discoveryFailed(let e):
            if !bearer.isClosed { eventHandler?(.discoveryFailed(e)) }
        case .closed(let reason):
            subscribeGeneration += 1
            if isResubscribing {
                isResubscribing = false
                loop.disarm(resubscribeTimer)
                consumer.resubscribeFailed(now: loop.now)
            }
            pendingResubscribe = nil
            consumer.sessionEnded(.disconnected, now: loop.now)
            ancsTimer.follow(nil)
            mediaSession.end()
            eventHandler?(.closed(reason))
        }
    }

    /// Data Source first (so no answer is missed), then Notification Source;
    /// the session starts when the latter is confirmed.
    private func subscribeANCS(_ s: GATTService) {
        guard let ns = s.characteristic(.ancsNotificationSource), let cp = s.characteristic(.ancsControlPoint),
            let ds = s.characteristic(.ancsDataSource)
        else {
            eventHandler?(.ancsSubscriptionFailed(.invalidResponse("ANCS without its three characteristics")))
            return
        }
        subscribeGeneration += 1
        let generation = subscribeGeneration
        controlPointHandle = cp.valueHandle
        client.subscribe(ds, handler: dataSourceRoute) { [lifetime, unowned(unsafe) self] error in
            guard !lifetime.isOver, generation == self.subscribeGeneration else { return }
            if let error { return self.eventHandler?(.ancsSubscriptionFailed(error)) ?? () }
            self.client.subscribe(ns, handler: self.notificationSourceRoute) { [lifetime, unowned(unsafe) self] error in
                guard !lifetime.isOver, generation == self.subscribeGeneration else { return }
                if let error { return self.eventHandler?(.ancsSubscriptionFailed(error)) ?? () }
                self.ancsService = s
                // A Notification Source event may already have started it.
                if !self.consumer.isSessionActive { self.consumer.sessionStarted(now: self.loop.now) }
                self.rearm()
                self.eventHandler?(.ancsSubscribed)
            }
        }
    }

    // MARK: - ANCSConsumerSink

    public func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) {
        guard controlPointHandle != 0 else {
            commandNotSent(.noControlPoint)
            consumer.controlPointWriteFailed(attErrorCode: ATTErrorCode.invalidHandle.rawValue, now: loop.now)
            return
        }
        do throws(ATTBearerError) {
            try client.write(handle: controlPointHandle, value: command, then: controlPointCompletion)
        } catch {
            // Queue full, too long or link closed: say so (once), and report
            // it to the consumer as a failed write (it retries fetches).
            commandNotSent(CommandFailure(error, length: command.count))
            consumer.controlPointWriteFailed(attErrorCode: ATTErrorCode.unlikelyError.rawValue, now: loop.now)
        }
    }

    private func commandNotSent(_ failure: CommandFailure) {
        guard reportedCommandFailures & failure.bit == 0 else { return }
        reportedCommandFailures |= failure.bit
        eventHandler?(.ancsCommandNotSent(failure))
    }

    public func ancsEvent(_ event: ANCSEvent) {
        // Each ANCS session reports each kind of unsendable command once.
        if case .sessionStarted = event { reportedCommandFailures = 0 }
        if case .resubscribeRecommended(let reason) = event, pendingResubscribe == nil, !isResubscribing {
            // After the consumer's call returns (it is mid-deadline now).
            pendingResubscribe = reason
            loop.deferWork(resubscribeWork)
        }
        eventHandler?(.ancs(event))
    }

    // MARK: - Re-subscribing (ANCS health)

    private func resubscribeIfPending() {
        guard let reason = pendingResubscribe else { return }
        pendingResubscribe = nil
        resubscribe(reason)
    }

    /// Rewrites the ANCS subscriptions: Notification Source and Data Source
    /// off, then Data Source and Notification Source on (the order of the
    /// first subscription). Nothing is routed meanwhile, so a late event
    /// cannot start a session early.
    private func resubscribe(_ reason: ResubscribeReason) {
        guard !isResubscribing, !bearer.isClosed, let s = ancsService,
            let ns = s.characteristic(.ancsNotificationSource), let ds = s.characteristic(.ancsDataSource),
            let nsCCCD = ns.cccdHandle, let dsCCCD = ds.cccdHandle
        else { return }
        isResubscribing = true
        subscribeGeneration += 1
        let generation = subscribeGeneration
        client.removeNotificationHandler(valueHandle: ns.valueHandle)
        client.removeNotificationHandler(valueHandle: ds.valueHandle)
        consumer.resubscribeStarted(now: loop.now)
        rearm()
        loop.arm(resubscribeTimer, after: Self.resubscribeTimeout)
        eventHandler?(.ancsResubscribing(reason))
        func step(_ error: GATTError?, _ next: @escaping () -> Void) {
            guard generation == subscribeGeneration, isResubscribing else { return }
            if let error { return resubscribeFailed(error) }
            next()
        }
        client.write(handle: nsCCCD, value: [0x00, 0x00]) { [lifetime, unowned(unsafe) self] error in
            guard !lifetime.isOver else { return }
            step(error) {
                self.client.write(handle: dsCCCD, value: [0x00, 0x00]) { [lifetime, unowned(unsafe) self] error in
                    guard !lifetime.isOver else { return }
                    step(error) {
                        self.client.subscribe(ds, handler: self.dataSourceRoute) { [lifetime, unowned(unsafe) self] error in
                            guard !lifetime.isOver else { return }
                            step(error) {
                                self.client.subscribe(ns, handler: self.notificationSourceRoute) { [lifetime, unowned(unsafe) self] error in
                                    guard !lifetime.isOver else { return }
                                    step(error) { self.resubscribed() }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private func resubscribed() {
        isResubscribing = false
        loop.disarm(resubscribeTimer)
        if !consumer.isSessionActive { consumer.sessionStarted(now: loop.now) }
        rearm()
        eventHandler?(.ancsResubscribed)
    }

    /// Rewriting the subscriptions failed or timed out: drop the link, so
    /// the phone reconnects and subscribes from scratch.
    private func resubscribeFailed(_ error: GATTError) {
        guard isResubscribing else { return }
        isResubscribing = false
        loop.disarm(resubscribeTimer)
        subscribeGeneration += 1
        consumer.resubscribeFailed(now: loop.now)
        eventHandler?(.ancsResubscribeFailed(error))
        bearer.close()
    }

    private func controlPointWritten(_ outcome: ATTRequestOutcome) {
        switch outcome {
        case .response:
            consumer.controlPointWriteSucceeded(now: loop.now)
        case .error(let e):
            consumer.controlPointWriteFailed(attErrorCode: e.error.rawValue, now: loop.now)
        case .failed:
            // A closed link ends the session (reported by `.closed`); a
            // cancelled or timed-out write is a failed write.
            if !bearer.isClosed {
                consumer.controlPointWriteFailed(attErrorCode: ATTErrorCode.unlikelyError.rawValue, now: loop.now)
            }
        }
        rearm()
    }

    private func rearm() {
        ancsTimer.follow(consumer.nextDeadline)
    }
}
