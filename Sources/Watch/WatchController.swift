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

/// The watch on its devices: applies `WatchModel`'s decisions to the panel,
/// the motor and the phone session handed in, and feeds the model its inputs
/// (the phone's events, button gestures, pairing requests, time).
///
/// One loop timer is kept armed at the model's `nextDeadline` (as
/// `PhoneSession` does for the ANCS consumer). The minute tick redraws the
/// clock on the wall-clock minute (and carries the burn-in shift) only
/// while the panel is lit: a wall-clock timer (CLOCK_REALTIME, cancelled by
/// a clock step, which redraws at once) while the time comes from the system
/// clock or is unknown, a monotonic one on the phone's minute while it comes
/// from the phone (`WallClock`). Dark, nothing is drawn and nothing ticks;
/// waking draws the current state before the panel lights. Redraws are
/// coalesced through `loop.deferWork`.
///
/// Steady state allocates nothing: a notification arriving, vibrating,
/// rendering and flushing, and a button press performing an action, only use
/// state and closures created here once (see Benchmarks/WatchBenchmarks).
public final class WatchController: WatchModelSink {
    /// The watch's decisions and state.
    public let model: WatchModel
    /// The link to the phone as the status bar shows it.
    public var link: LinkIndicator {
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
    public let framebuffer: Framebuffer
    public let driver: any PanelDriver
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
    private let settings: WatchSettings
    private let renderer: ScreenRenderer
    private let contrast: UInt8
    private var pairingReply: ((Bool) -> Void)?
    private var renderPending = false
    private var renderWork: (() -> Void)!
    /// The minute tick while the phone's time is shown (monotonic).
    private var minuteTimer: TimerID!
    /// The minute tick on the system clock (made in `start`).
    private var wallMinuteTimer: WallClockTimerID?
    /// Light the panel after the next flush (it woke up dark).
    private var lightAfterRender = false
    private var systemClockSetFailed = false
    /// Follows the model's `nextDeadline`.
    private var modelTimer: DeadlineTimer!
    private var phoneEventHandler: ((PhoneSession.Event) -> Void)!
    /// Sees every notification event after the model has (the harness's
    /// `events` stream). Set once at start-up; called on the loop's thread.
    public var notificationObserver: ((NotificationEvent) -> Void)?
    /// Sees every media change after the model has, with the state after
    /// it (the harness's `events` stream). Set once at start-up.
    public var mediaObserver: ((MediaEvent, MediaState) -> Void)?
    private var displayFailing = false
    /// Redraws Now Playing when its progress next changes on the panel
    /// (armed only while it is on screen and the panel is lit).
    private var progressTimer: DeadlineTimer!

    public init(
        loop: any EventLoop, logger: Logger, settings: WatchSettings, renderer: ScreenRenderer, framebuffer: Framebuffer,
        driver: any PanelDriver, contrast: UInt8, motor: MotorController?, policy: VibrationPolicy
    ) {
        self.loop = loop
        self.logger = logger
        self.settings = settings
        self.renderer = renderer
        self.framebuffer = framebuffer
        self.driver = driver
        self.contrast = contrast
        self.motor = motor
        model = WatchModel(settings: settings, policy: policy, detailLayout: renderer, now: loop.now)
        model.sink = self
        renderWork = { [unowned(unsafe) self] in self.render() }
        minuteTimer = loop.makeTimer { [unowned(unsafe) self] in self.minuteTicked() }
        modelTimer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in
            self.model.handleDeadline(now: self.loop.now)
            self.rearm()
        }
        phoneEventHandler = { [unowned(unsafe) self] event in self.phoneEvent(event) }
        progressTimer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in self.requestRender() }
        rearm()
    }

    deinit {
        if model.sink === self { model.sink = nil }
        loop.destroyTimer(minuteTimer)
        if let wallMinuteTimer { loop.destroyWallClockTimer(wallMinuteTimer) }
    }

    /// Initialises the panel and shows the first screen.
    public func start(rotation: Rotation) throws(HALError) {
        if wallMinuteTimer == nil {
            wallMinuteTimer = try loop.makeWallClockTimer { [unowned(unsafe) self] event in
                if event == .clockChanged { self.logger.debug("the system clock was set: redrawing") }
                self.minuteTicked()
            }
        }
        try driver.initialize(rotation: rotation)
        try? driver.setContrast(contrast)
        model.start(now: loop.now)
        rearm()
        armMinuteTick()
        render()
    }

    /// Leaves the hardware safe: motor off, panel off (unless it persists).
    public func stop() {
        motor?.forceOff()
        try? driver.shutdown()
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
        model.phoneTimeReceived(clock)
        setSystemClockIfAsked(from: clock)
        armMinuteTick()
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

    public func watchNotificationShown(_ uid: NotificationID) {
        session?.notificationShown(uid)
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
        do {
            switch state {
            case .on:
                try driver.setContrast(contrast)
                if !driver.isOn {
                    // Nothing was drawn while dark: draw the current state
                    // now, and light the panel once it is on the glass.
                    lightAfterRender = true
                    requestRender()
                }
            case .dimmed:
                try driver.setContrast(settings.dimContrast)
            case .off:
                lightAfterRender = false
                armProgressRedraw()
                try driver.setDisplayOn(false)
            }
        } catch {
            displayFailed(error)
        }
        armMinuteTick()
    }

    // MARK: - Display

    /// Coalesces redraws: many events in one loop iteration draw once.
    public func requestRender() {
        guard !renderPending else { return }
        renderPending = true
        loop.deferWork(renderWork)
    }

    /// Draws the current screen and sends the changed bytes to the panel.
    /// Dark, it draws nothing: waking draws the state of that moment.
    public func render() {
        renderPending = false
        armProgressRedraw()
        guard model.displayPower != .off else { return }
        let status = StatusInfo(
            time: wallClock.time(at: loop.now), link: model.link, unread: model.unread, doNotDisturb: model.isDoNotDisturbOn)
        var nowPlaying: NowPlayingContent?
        if case .nowPlaying = model.screen { nowPlaying = model.nowPlayingContent(now: loop.now) }
        renderer.render(
            model.screen, status: status, notifications: model.notifications, into: framebuffer,
            callNotice: model.callNotice, actionNotice: model.actionNotice, nowPlaying: nowPlaying)
        // The controller moves the picture against burn-in (a vertical step
        // is one command; a horizontal one goes with the next screen change).
        driver.setShift(PanelShift(x: model.pixelShift.x, y: model.pixelShift.y))
        do {
            _ = try driver.flush(framebuffer, full: false)
            if displayFailing {
                displayFailing = false
                logger.notice("display answers again")
            }
        } catch {
            displayFailed(error)
        }
        guard lightAfterRender else { return }
        lightAfterRender = false
        do { try driver.setDisplayOn(true) } catch { displayFailed(error) }
    }

    /// Keeps the progress timer at the next instant Now Playing's elapsed
    /// text or bar changes on the panel, while it is on screen and lit;
    /// otherwise disarmed (dark, it is drawn from the state on waking).
    private func armProgressRedraw() {
        var next: MonotonicInstant?
        if case .nowPlaying = model.screen, model.displayPower != .off {
            let bar = renderer.nowPlayingBarWidth(durationMilliseconds: model.media.durationMilliseconds)
            next = MediaProgress.nextChange(model.media, after: loop.now, barWidth: bar)
        }
        progressTimer.follow(next)
    }

    private func displayFailed(_ error: HALError) {
        // Logged once per episode; the watch keeps running (the motor and the
        // buttons still work) and the next successful flush says so.
        if !displayFailing { logger.error("display: \(error)") }
        displayFailing = true
    }

    // MARK: - Time

    /// The minute changed, or the system clock was set: redraw (and the
    /// burn-in step, when due), then wait for the next minute.
    private func minuteTicked() {
        model.minuteTicked(now: loop.now)
        armMinuteTick()
    }

    /// Arms the minute tick for the clock the time comes from, or nothing
    /// while the panel is dark.
    private func armMinuteTick() {
        guard let wallMinuteTimer else { return }
        guard model.wantsMinuteTicks else {
            loop.disarm(minuteTimer)
            loop.disarm(wallMinuteTimer)
            return
        }
        if let next = wallClock.nextPhoneMinute(after: loop.now) {
            loop.disarm(wallMinuteTimer)
            loop.arm(minuteTimer, at: next)
        } else {
            // The system clock, or no time yet: tick on the system clock's
            // minute anyway (the burn-in shift rides on it, and a clock
            // that becomes synchronised shows up within a minute).
            loop.disarm(minuteTimer)
            loop.arm(wallMinuteTimer, at: loop.wallClockNow.nextWholeMinute)
        }
    }

    /// Board option `setSystemClock`: the phone's time sets an
    /// unsynchronised system clock (a synchronised one is left to NTP).
    private func setSystemClockIfAsked(from phone: PhoneClock) {
        guard let set = settings.setSystemClock, settings.systemClock() == nil,
            let (seconds, nanoseconds) = phone.localSeconds(at: loop.now)
        else { return }
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return }
        do {
            try set(ns + nanoseconds, phone.localTimeInformation?.utcOffsetSeconds)
            logger.notice("set the system clock from the phone's time (\(phone.time))")
        } catch {
            // Once per run: every later phone time would fail the same way.
            if !systemClockSetFailed { logger.warning("cannot set the system clock from the phone's time: \(error)") }
            systemClockSetFailed = true
        }
    }
}
