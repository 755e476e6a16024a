import ANCS
import ATTCodec
import GATT
import HAL
import Loop
import Notifications

/// ANCS on one phone link: the Notification Consumer (the watch's
/// notification source for an iPhone) wired to GATT. Notification Source
/// and Data Source notifications go into the consumer by value handle, its
/// Control Point commands go out as Write Requests whose outcome is
/// reported back, and one timer follows the consumer's `nextDeadline`.
/// ANCS appearing later (Service Changed) starts a session then; ANCS going
/// away or the link closing ends it.
///
/// ANCS health: when the consumer recommends it (a probe without an answer,
/// hours without a Notification Source event, a stuck Control Point write)
/// it rewrites both subscriptions (Notification Source and Data Source
/// CCCDs off, then Data Source and Notification Source on); if that fails,
/// or does not finish within `resubscribeTimeout`, it drops the link so
/// the phone reconnects (docs/ancs.md).
///
/// Steady state allocates nothing: every closure is made here once.
/// Re-subscribing allocates (GATT configuration writes), at most once per
/// check period. `PhoneSession` owns it and hands its events on.
public final class ANCSSource: ANCSConsumerSink {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    public let consumer: NotificationConsumer
    /// The phone's ANCS, once subscribed.
    public private(set) var service: GATTService?
    /// True while the subscriptions are being rewritten.
    public private(set) var isResubscribing = false
    /// How long rewriting the subscriptions may take before the link is dropped.
    public static let resubscribeTimeout: Duration = .seconds(40)

    private let loop: any EventLoop
    private let bearer: ATTBearer
    private let client: GATTClient
    private let emit: (PhoneSession.Event) -> Void
    /// Follows the consumer's `nextDeadline`.
    private var timer: DeadlineTimer!
    private var controlPointHandle: UInt16 = 0
    private var controlPointCompletion: ATTResponseHandler!
    private var notificationSourceRoute: ((UnsafeRawBufferPointer) -> Void)!
    private var dataSourceRoute: ((UnsafeRawBufferPointer) -> Void)!
    private var subscribeGeneration = 0
    private var resubscribeTimer: TimerID!
    private var resubscribeWork: (() -> Void)!
    private var pendingResubscribe: ResubscribeReason?
    /// `CommandFailure.bit`s already reported in this ANCS session.
    private var reportedCommandFailures: UInt8 = 0

    init(configuration: NotificationConsumer.Configuration, bearer: ATTBearer, client: GATTClient, loop: any EventLoop,
         emit: @escaping (PhoneSession.Event) -> Void) {
        consumer = NotificationConsumer(configuration: configuration)
        self.bearer = bearer
        self.client = client
        self.loop = loop
        self.emit = emit
        consumer.sink = self
        timer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in
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
    }

    deinit {
        lifetime.end()
        if consumer.sink === self { consumer.sink = nil }
        loop.destroyTimer(resubscribeTimer)
    }

    /// The consumer's liveness checks (probe after quiet, re-subscribe after
    /// silence); on by default. Changing them re-arms the timer.
    public var liveness: LivenessPolicy? {
        get { consumer.liveness }
        set {
            consumer.liveness = newValue
            rearm()
        }
    }

    // MARK: - UI entry points (with the timer kept right)

    /// Performs the positive or negative action on a notification.
    public func performAction(_ action: ActionID, on uid: NotificationUID) throws(ANCSActionError) {
        try consumer.performAction(action, on: uid, now: loop.now)
        rearm()
    }

    /// The notification is on screen (its message is fetched if needed).
    public func notificationShown(_ uid: NotificationUID) {
        consumer.notificationShown(uid, now: loop.now)
        rearm()
    }

    /// This link's store takes over what `previous` (an earlier link's,
    /// still shown) kept from its ended session.
    public func adoptPreviousSession(from previous: ANCSSource) {
        guard previous !== self else { return }
        adoptPreviousSession(from: previous.consumer)
    }

    /// ... or what another store kept (the list restored from the history file).
    func adoptPreviousSession(from previous: NotificationConsumer) {
        consumer.adoptPreviousSession(from: previous, now: loop.now)
        rearm()
    }

    // MARK: - The link (from PhoneSession's GATT client events)

    /// ANCS was withdrawn (Service Changed): the session ends.
    func serviceRemoved() {
        subscribeGeneration += 1
        if isResubscribing {
            isResubscribing = false
            loop.disarm(resubscribeTimer)
        }
        service = nil
        controlPointHandle = 0
        consumer.sessionEnded(.serviceChanged, now: loop.now)
        rearm()
        emit(.ancsUnavailable)
    }

    /// The link closed: the session ends (its notifications are kept as
    /// from the previous session).
    func linkClosed() {
        subscribeGeneration += 1
        if isResubscribing {
            isResubscribing = false
            loop.disarm(resubscribeTimer)
            consumer.resubscribeFailed(now: loop.now)
        }
        pendingResubscribe = nil
        consumer.sessionEnded(.disconnected, now: loop.now)
        timer.follow(nil)
    }

    /// Data Source first (so no answer is missed), then Notification Source;
    /// the session starts when the latter is confirmed.
    func subscribe(_ s: GATTService) {
        guard let ns = s.characteristic(.ancsNotificationSource), let cp = s.characteristic(.ancsControlPoint),
            let ds = s.characteristic(.ancsDataSource)
        else {
            emit(.ancsSubscriptionFailed(.invalidResponse("ANCS without its three characteristics")))
            return
        }
        subscribeGeneration += 1
        let generation = subscribeGeneration
        controlPointHandle = cp.valueHandle
        client.subscribe(ds, handler: dataSourceRoute) { [lifetime, unowned(unsafe) self] error in
            guard !lifetime.isOver, generation == self.subscribeGeneration else { return }
            if let error { return self.emit(.ancsSubscriptionFailed(error)) }
            self.client.subscribe(ns, handler: self.notificationSourceRoute) { [lifetime, unowned(unsafe) self] error in
                guard !lifetime.isOver, generation == self.subscribeGeneration else { return }
                if let error { return self.emit(.ancsSubscriptionFailed(error)) }
                self.service = s
                // A Notification Source event may already have started it.
                if !self.consumer.isSessionActive { self.consumer.sessionStarted(now: self.loop.now) }
                self.rearm()
                self.emit(.ancsSubscribed)
            }
        }
    }

    // MARK: - ANCSConsumerSink

    public func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        guard controlPointHandle != 0 else {
            commandNotSent(.noControlPoint)
            return .notSent(attErrorCode: ATTErrorCode.invalidHandle.rawValue)
        }
        do throws(ATTBearerError) {
            try client.write(handle: controlPointHandle, value: command, then: controlPointCompletion)
            return .sent
        } catch {
            // Queue full, too long or link closed: say so (once); the
            // consumer takes it as a failed write (it retries fetches).
            commandNotSent(PhoneSession.CommandFailure(error, length: command.count))
            return .notSent(attErrorCode: ATTErrorCode.unlikelyError.rawValue)
        }
    }

    private func commandNotSent(_ failure: PhoneSession.CommandFailure) {
        guard reportedCommandFailures & failure.bit == 0 else { return }
        reportedCommandFailures |= failure.bit
        emit(.ancsCommandNotSent(failure))
    }

    public func ancsEvent(_ event: ANCSEvent) {
        // Each ANCS session reports each kind of unsendable command once.
        if case .sessionStarted = event { reportedCommandFailures = 0 }
        if case .resubscribeRecommended(let reason) = event, pendingResubscribe == nil, !isResubscribing {
            // After the consumer's call returns (it is mid-deadline now).
            pendingResubscribe = reason
            loop.deferWork(resubscribeWork)
        }
        emit(.ancs(event))
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
        guard !isResubscribing, !bearer.isClosed, let s = service,
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
        emit(.ancsResubscribing(reason))
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
        emit(.ancsResubscribed)
    }

    /// Rewriting the subscriptions failed or timed out: drop the link, so
    /// the phone reconnects and subscribes from scratch.
    private func resubscribeFailed(_ error: GATTError) {
        guard isResubscribing else { return }
        isResubscribing = false
        loop.disarm(resubscribeTimer)
        subscribeGeneration += 1
        consumer.resubscribeFailed(now: loop.now)
        emit(.ancsResubscribeFailed(error))
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
        timer.follow(consumer.nextDeadline)
    }
}
