import AMS
import Notifications
import BoardConfig
import Display
import Graphics
import HAL
import Haptics
import Input
import Log
import Loop
import PhoneServices
import Screens

/// The watch on its devices: the event fan-in. It feeds `WatchModel` its
/// inputs (the phone's events, button gestures, pairing requests, time) and
/// applies the model's effects: the display to `DisplayPipeline`, the clock
/// to `MinuteTick`, vibrations to the motor, actions to the phone session.
///
/// One loop timer follows the model's `nextDeadline` (`DeadlineTimer`, as
/// `PhoneSession` does for the ANCS consumer).
///
/// Steady state allocates nothing: a notification arriving, vibrating,
/// rendering and flushing, and a button press performing an action, only use
/// state and closures created here once (see Benchmarks/WatchBenchmarks).
public final class WatchController: WatchModelSink {
    /// The watch's decisions and state.
    public let model: WatchModel
    /// The link to the phone as the status bar shows it.
    public var link: PhoneLinkState {
        get { model.link }
        set {
            model.linkChanged(newValue, now: loop.now)
            rearm()
        }
    }
    public var screen: Screen { model.screen }
    /// The phone session, while a phone is connected.
    public private(set) var session: PhoneSession?
    /// The session whose store the screens show: the connected one, or the
    /// last one (its ended session's notifications stay listed).
    private var shownSession: PhoneSession?
    /// The notifications the screens show (an empty store without a phone).
    public var notifications: any NotificationSource { model.notifications }
    /// The call ringing now, if any (until a button answers it or it ends).
    public var ringingCall: NotificationID? { model.ringingCall }
    /// The incoming call on the call screen, actionable until it ends.
    public var activeCall: NotificationID? { model.activeCall }
    /// What the call screen says after the phone refused an answer.
    public var callNotice: CallNotice? { model.callNotice }
    /// What the detail screen says after the phone refused an action there.
    public var actionNotice: ActionNotice? { model.actionNotice }
    /// Notifications added live and not yet seen (the status bar's count).
    public var unread: Int { model.unread }
    public var displayState: String { model.displayPower.rawValue }
    /// The watch's notion of now (the clock face and quiet hours): the model's.
    public var wallClock: WallClock { model.wallClock }
    /// Where the time on screen comes from now.
    public var timeSource: TimeSource { wallClock.source(at: loop.now) }
    /// Minutes since local midnight by the watch's clock; nil while the time is unknown.
    public var minuteOfDay: Int? { wallClock.minuteOfDay(at: loop.now) }
    /// The loop's time (for ages the harness reports).
    public var now: MonotonicInstant { loop.now }
    public var framebuffer: Framebuffer { display.framebuffer }
    public var driver: any PanelDriver { display.driver }
    public let motor: MotorController?
    /// The display bus as the driver counted it (every byte it sent).
    public var displayBus: DisplayBusCounters {
        DisplayBusCounters(
            bytes: driver.totals.busBytes, transactions: driver.totals.transactions,
            lastFlushBytes: driver.lastFlush.busBytes, lastFlushTransactions: driver.lastFlush.transactions)
    }
    /// The panel's transport (the simulated board's emulated bus counts too).
    public var displayTransport: any I2CTransport { driver.transport }

    private let loop: any EventLoop
    private let logger: Logger
    /// The panel: render, flush, power.
    private let display: DisplayPipeline
    /// The minute tick and the system-clock option.
    private let minuteTick: MinuteTick
    private var pairingReply: ((Bool) -> Void)?
    /// Notifications the model showed during the current input, for the
    /// session once the input returned (bounded: one or two per input).
    private var shownPending = InlineArray<8, NotificationID>(repeating: NotificationID(0))
    private var shownCount = 0
    private var shownWork: (() -> Void)!
    private var reportedShownOverflow = false
    /// Follows the model's `nextDeadline`.
    private var modelTimer: DeadlineTimer!
    private var phoneEventHandler: ((PhoneSession.Event) -> Void)!
    /// Sees every notification event after the model has (the harness's
    /// `events` stream). Set once at start-up; called on the loop's thread.
    public var notificationObserver: ((NotificationEvent) -> Void)?
    /// Sees every media change after the model has, with the state after
    /// it (the harness's `events` stream). Set once at start-up.
    public var mediaObserver: ((MediaEvent, MediaState) -> Void)?

    public init(
        loop: any EventLoop, logger: Logger, settings: WatchSettings, renderer: ScreenRenderer, framebuffer: Framebuffer,
        driver: any PanelDriver, contrast: UInt8, motor: MotorController?, policy: VibrationPolicy
    ) {
        self.loop = loop
        self.logger = logger
        self.motor = motor
        model = WatchModel(settings: settings, policy: policy, detailLayout: renderer, now: loop.now)
        display = DisplayPipeline(
            model: model, loop: loop, logger: logger, renderer: renderer, framebuffer: framebuffer, driver: driver,
            contrast: contrast, dimContrast: settings.dimContrast)
        minuteTick = MinuteTick(model: model, loop: loop, logger: logger, settings: settings)
        model.sink = self
        modelTimer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in
            self.model.handleDeadline(now: self.loop.now)
            self.rearm()
        }
        phoneEventHandler = { [unowned(unsafe) self] event in self.phoneEvent(event) }
        shownWork = { [unowned(unsafe) self] in self.sendShown() }
        rearm()
    }

    deinit {
        if model.sink === self { model.sink = nil }
    }

    /// Initialises the panel and shows the first screen.
    public func start(rotation: Rotation) throws(HALError) {
        try minuteTick.start()
        try display.start(rotation: rotation)
        model.start(now: loop.now)
        rearm()
        minuteTick.arm()
        display.render()
    }

    /// Leaves the hardware safe: motor off, panel off (unless it persists).
    public func stop() {
        motor?.forceOff()
        display.shutdown()
    }

    // MARK: - Inputs

    /// A phone connected: run a session over its link.
    public func phoneConnected(_ session: PhoneSession) {
        if let old = self.session {
            old.close()
            loop.deferWork { withExtendedLifetime(old) {} }
        }
        // What the store shown until now kept from earlier sessions goes over.
        if let shown = shownSession { session.adoptPreviousSession(from: shown) }
        self.session = session
        shownSession = session
        session.eventHandler = phoneEventHandler
        model.phoneConnected(notifications: session.notifications, now: loop.now)
        rearm()
    }

    /// The link went away: the store is gone with it.
    public func phoneDisconnected() {
        guard let closing = session else { return }
        session = nil
        // The link may report its end from deep inside its own receive loop:
        // keep the session alive until that call stack has unwound.
        loop.deferWork { withExtendedLifetime(closing) {} }
        // The phone's time stays: advanced by the monotonic clock, it is
        // still the best clock a board without an RTC has.
        model.phoneDisconnected(now: loop.now)
        rearm()
    }

    /// The phone sent its Current Time: it becomes the watch's clock, kept
    /// after the phone goes (see `WallClock`).
    public func phoneTimeReceived(_ clock: PhoneClock) {
        minuteTick.phoneTimeReceived(clock)
        requestRender()
    }

    /// Shows a passkey; the positive button confirms, the negative button or
    /// the timeout rejects. `reply` is called exactly once.
    public func showPairing(passkey: UInt32, reply: @escaping (Bool) -> Void) {
        // A request still waiting is rejected (its reply called) in here.
        model.pairingRequested(passkey: passkey, now: loop.now)
        pairingReply = reply
        rearm()
    }

    /// The pairing request ended elsewhere (completed or failed by the kernel).
    public func pairingFinished() {
        pairingReply = nil
        model.pairingFinished(now: loop.now)
        rearm()
    }

    /// Shows a one-line notice (for example "Pair again" after a stale bond).
    public func showNotice(_ text: String) {
        logger.notice("\(text)")
        model.showNotice(text, now: loop.now)
        rearm()
    }

    /// A recognised gesture on a button. What it does depends on the screen;
    /// the table is in docs/buttons.md.
    public func button(_ role: ButtonRole, _ gesture: ButtonGesture) {
        logger.debug("button \(role.rawValue): \(gesture)")
        model.button(role, gesture, now: loop.now)
        rearm()
    }

    private func phoneEvent(_ event: PhoneSession.Event) {
        event.log(to: logger)
        switch event {
        case .phoneTime(let c):
            phoneTimeReceived(c)
        case .discoveryFailed(let e):
            logger.warning("GATT discovery failed: \(e)")
        case .closed(let reason):
            logger.info("phone link closed: \(reason)")
            phoneDisconnected()
        case .media(let e):
            mediaChanged(e, state: session?.media ?? MediaState())
        default:
            guard let e = event.notificationEvent else { return }
            model.notificationEvent(e, now: loop.now)
            notificationObserver?(e)
            rearm()
        }
    }

    /// An event from the phone's AMS client, with the session's media state
    /// after it (the model keeps a copy; Now Playing redraws if shown).
    public func mediaChanged(_ event: MediaEvent, state: MediaState) {
        switch event {
        case .available:
            logger.info("AMS subscribed: music control available")
        case .unavailable:
            logger.info("AMS gone: no music control")
        case .commandFailed(let id, let code):
            logger.warning("the phone refused the \(id) command: \(code.map { "\($0)" } ?? "not sent")")
        case .changed:
            break
        }
        model.mediaEvent(event, state: state, now: loop.now)
        rearm()
        mediaObserver?(event, state)
    }

    /// Keeps the model's timer at its next deadline.
    private func rearm() {
        modelTimer.follow(model.nextDeadline)
    }

    // MARK: - WatchModelSink

    public func watchRenderRequested() {
        requestRender()
    }

    public func watchPlay(_ pattern: VibrationPattern) {
        motor?.play(pattern)
    }


    public func watchStopMotor() {
        motor?.stop()
    }

    public func watchPerformAction(_ action: NotificationAction, on uid: NotificationID) -> Bool {
        guard let session else { return true }
        do {
            try session.performAction(action, on: uid)
            return true
        } catch {
            logger.warning("cannot perform the \(action) action on notification \(uid): \(error)")
            return false
        }
    }

    /// Applied after the input returns (`shownWork`): the model asks from
    /// inside the source's own event (a pop-up opening as a notification
    /// is added), and the source must not be re-entered from its own call.
    public func watchNotificationShown(_ uid: NotificationID) {
        if shownCount == shownPending.count {
            if !reportedShownOverflow { logger.warning("more notifications shown at once than kept: their messages load when opened") }
            reportedShownOverflow = true
            return
        }
        shownPending[shownCount] = uid
        shownCount += 1
        if shownCount == 1 { loop.deferWork(shownWork) }
    }

    /// Tells the phone session which notifications went on screen.
    private func sendShown() {
        var i = 0
        while i < shownCount {
            session?.notificationShown(shownPending[i])
            i += 1
        }
        shownCount = 0
    }

    public func watchAnswerPairing(_ answer: PairingAnswer) {
        if answer == .timedOut { logger.notice("pairing not confirmed in time: rejected") }
        let reply = pairingReply
        pairingReply = nil
        reply?(answer.accepts)
    }

    public func watchSendRemoteCommand(_ id: RemoteCommandID) -> Bool {
        guard let session, session.sendRemoteCommand(id) else {
            logger.debug("cannot send the \(id) command to the phone")
            return false
        }
        return true
    }

    public func watchApplyDisplayPower(_ state: DisplayPowerState) {
        display.apply(state)
        minuteTick.arm()
    }

    // MARK: - Display

    /// Coalesces redraws: many events in one loop iteration draw once.
    public func requestRender() { display.requestRender() }

    /// Draws the current screen and sends the changed bytes to the panel now.
    public func render() { display.render() }
}
