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
import Timekeeping

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
public final class WatchController {
    /// The watch's decisions and state.
    public let model: WatchModel
    /// The link to the phone as the status bar shows it.
    public var link: PhoneLinkState {
        get { model.link }
        set {
            model.linkChanged(newValue, now: loop.now)
            afterInput()
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

    let loop: any EventLoop
    let logger: Logger
    /// The panel: render, flush, power.
    private let display: DisplayPipeline
    /// The minute tick and the system-clock option.
    private let minuteTick: MinuteTick
    /// The alarms' timer on the wall clock.
    private let alarmTimer: AlarmTimer
    private var pairingReply: ((Bool) -> Void)?
    private var reportedEffectsDropped = false
    /// Follows the model's `nextDeadline`.
    private var modelTimer: DeadlineTimer!
    private var phoneEventHandler: ((PhoneSession.Event) -> Void)!
    /// Sees every notification event after the model has (the harness's
    /// `events` stream). Set once at start-up; called on the loop's thread.
    public var notificationObserver: ((NotificationEvent) -> Void)?
    /// Sees every media change after the model has, with the state after
    /// it (the harness's `events` stream). Set once at start-up.
    public var mediaObserver: ((MediaEvent, MediaState) -> Void)?
    /// Powers the board off (the battery is empty); set once at start-up by
    /// the daemon. Without it the watch only says so.
    public var powerOffHandler: (() -> Void)?
    /// Keeps the list in the state directory (`keepHistory`), if asked to.
    public internal(set) var history: NotificationHistoryKeeper?
    /// The list restored from the history file, shown until the first phone's store adopts it.
    var restoredHistory: RestoredNotifications?
    /// Told every Do Not Disturb change made on the watch (the menu, the
    /// hour ending), to keep the state across restarts. Set once at start-up.
    public var doNotDisturbObserver: ((DoNotDisturbState) -> Void)?
    /// The wearer muted or unmuted an app on the watch (the daemon keeps them).
    public var mutesObserver: ((AppMutes) -> Void)?
    /// The wearer's alarms changed (the daemon keeps them).
    public var alarmsObserver: ((AlarmList) -> Void)?

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
        alarmTimer = AlarmTimer(model: model, loop: loop, logger: logger, settings: settings)
        modelTimer = DeadlineTimer(loop: loop) { [unowned(unsafe) self] in
            self.model.handleDeadline(now: self.loop.now)
            self.afterInput()
        }
        phoneEventHandler = { [unowned(unsafe) self] event in self.phoneEvent(event) }
        minuteTick.afterTick = { [unowned(unsafe) self] in self.afterInput() }
        alarmTimer.afterFiring = { [unowned(unsafe) self] in self.afterInput() }
        afterInput()
    }

    /// Initialises the panel and shows the first screen.
    public func start(rotation: Rotation) throws(HALError) {
        try minuteTick.start()
        try alarmTimer.start()
        try display.start(rotation: rotation)
        model.start(now: loop.now)
        afterInput()
        minuteTick.arm()
        display.render()
    }

    /// Leaves the hardware safe: motor off, panel off (unless it persists);
    /// the notification list written if a change is still unwritten.
    public func stop() {
        history?.flush()
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
        // What the store shown until now kept from earlier sessions goes over
        // (before the first phone: the list restored from the history file).
        if let shown = shownSession {
            session.adoptPreviousSession(from: shown)
        } else if let restored = restoredHistory {
            session.adoptRestoredHistory(restored)
        }
        restoredHistory = nil
        self.session = session
        shownSession = session
        session.eventHandler = phoneEventHandler
        model.phoneConnected(notifications: session.notifications, now: loop.now)
        afterInput()
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
        afterInput()
    }

    /// The phone sent its Current Time: it becomes the watch's clock, kept
    /// after the phone goes (see `WallClock`).
    public func phoneTimeReceived(_ clock: PhoneClock) {
        minuteTick.phoneTimeReceived(clock)
        alarmTimer.timeChanged()
        requestRender()
        afterInput()
    }

    /// Shows a passkey; the positive button confirms, the negative button or
    /// the timeout rejects. `reply` is called exactly once.
    public func showPairing(passkey: UInt32, reply: @escaping (Bool) -> Void) {
        // A request still waiting is rejected (its reply called) in here.
        model.pairingRequested(passkey: passkey, now: loop.now)
        afterInput()  // the old request's answer goes to the old reply
        pairingReply = reply
    }

    /// The pairing request ended elsewhere (completed or failed by the kernel).
    public func pairingFinished() {
        pairingReply = nil
        model.pairingFinished(now: loop.now)
        afterInput()
    }

    /// Shows a one-line notice (for example "Pair again" after a stale bond).
    public func showNotice(_ text: String) {
        logger.notice("\(text)")
        model.showNotice(text, now: loop.now)
        afterInput()
    }

    /// The phone forgot this watch (a stale bond): "Pair again", now and on
    /// the Status screen until the link is encrypted again.
    public func bondWasLost(address: String) {
        logger.notice("pair again: the phone \(address) forgot this watch")
        model.bondWasLost(now: loop.now, address: address)
        afterInput()
    }

    /// The Bluetooth adapter went away (`present` false) or came back.
    public func adapterChanged(present: Bool) {
        logger.notice(present ? "Bluetooth adapter back" : "Bluetooth adapter gone")
        model.adapterChanged(present: present, now: loop.now)
        afterInput()
    }

    /// Whether some phone is bonded (reported by a link that keeps bonds).
    public func pairedChanged(_ paired: Bool) {
        model.pairedChanged(paired)
        afterInput()
    }

    /// The Do Not Disturb state kept before a restart: `remaining` of a
    /// timed one (nil: until turned off). Not written back.
    public func restoreDoNotDisturb(remaining: Duration?) {
        model.restoreDoNotDisturb(remaining: remaining, now: loop.now)
        afterInput()
    }

    /// The wearer's alarms kept before a restart (the state directory's
    /// `alarms`); armed at once. Not written back.
    public func restoreAlarms(_ alarms: [Alarm]) {
        model.restoreAlarms(alarms, now: loop.now)
        afterInput()
    }

    /// A recognised gesture on a button. What it does depends on the screen;
    /// the table is in docs/buttons.md.
    public func button(_ role: ButtonRole, _ gesture: ButtonGesture) {
        logger.debug("button \(role.rawValue): \(gesture)")
        model.button(role, gesture, now: loop.now)
        afterInput()
    }

    private func phoneEvent(_ event: PhoneSession.Event) {
        event.log(to: logger)
        switch event {
        case .ancsSubscribed:
            model.phoneKind = .iPhone
            model.notificationsShared = true
        case .gadgetbridgeStarted:
            model.phoneKind = .android
            model.notificationsShared = true
        case .ancsUnavailable:
            model.notificationsShared = false
            requestRender()
        default: break
        }
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
        case .gadgetbridgeStarted:
            // An Android phone: the watch reads Gadgetbridge's store from now on.
            guard let session else { return }
            model.phoneConnected(notifications: session.notifications, now: loop.now)
            model.phoneCanRing()
            if let battery = model.watchBattery { session.gadgetbridge.sendBatteryStatus(battery) }
            afterInput()
        case .weather(let report):
            model.weatherReceived(report, now: loop.now)
            afterInput()
        case .calendarEvent(let e):
            model.calendarEventReceived(e, now: loop.now)
            afterInput()
        case .calendarEventRemoved(let id):
            model.calendarEventRemoved(id: id)
            afterInput()
        case .alarms(let alarms):
            model.phoneAlarmsReceived(alarms.asAlarms, now: loop.now)
            afterInput()
        case .phoneBattery(let level):
            model.phoneBatteryChanged(level)
            afterInput()
        case .calendarSyncRequested:
            session?.gadgetbridge.sendCalendarSync(model.feeds.agenda)
        case .findWatch(let on):
            findWatch(on)
        case .buzz(let count):
            motor?.play(VibrationPattern(
                name: "buzz", pulses: Array(repeating: .init(on: .milliseconds(200), off: .milliseconds(200)), count: max(1, count))))
        default:
            guard let e = event.notificationEvent else { return }
            history?.changed(now: loop.now)
            model.notificationEvent(e, now: loop.now)
            notificationObserver?(e)
            afterInput()
        }
    }

    /// The phone looks for the watch (Gadgetbridge's "Find device"): it rings
    /// and says so until the phone stops, or a button is pressed.
    private func findWatch(_ on: Bool) {
        if on {
            model.showNotice("Find watch", now: loop.now)
            afterInput()
            motor?.play(.ring)
        } else {
            motor?.stop()
        }
    }

    /// An event from the phone's AMS client, with the session's media state
    /// after it (the model keeps a copy; Now Playing redraws if shown).
    public func mediaChanged(_ event: MediaEvent, state: MediaState) {
        switch event {
        case .available:
            logger.info(session?.phoneKind == .android ? "Gadgetbridge's player: music control available" : "AMS subscribed: music control available")
        case .unavailable:
            logger.info(session?.phoneKind == .android ? "Gadgetbridge's player gone: no music control" : "AMS gone: no music control")
        case .commandFailed(let id, let code):
            logger.warning("the phone refused the \(id) command: \(code.map { "\($0)" } ?? "not sent")")
        case .changed:
            break
        }
        model.mediaEvent(event, state: state, now: loop.now)
        afterInput()
        mediaObserver?(event, state)
    }

    // MARK: - The model's effects

    /// Applies what the model decided, after its input returned, and feeds
    /// back what could not be done (an action or a Remote Command not sent),
    /// until nothing is left; then keeps the model's timer at its next
    /// deadline. Every input ends here.
    func afterInput() {
        while model.hasEffects { apply(model.takeEffects()) }
        modelTimer.follow(model.nextDeadline)
        alarmTimer.follow()
    }

    private func apply(_ effects: WatchEffects) {
        if effects.renderRequests > 0 { requestRender() }
        if effects.stopMotor { motor?.stop() }
        if let state = effects.displayPower {
            display.apply(state)
            minuteTick.arm()
        }
        if let pattern = effects.play { motor?.play(pattern) }
        if let (action, uid) = effects.action, !perform(action, on: uid) {
            model.actionNotSent(action, on: uid, now: loop.now)
        }
        if let command = effects.remoteCommand, session?.sendRemoteCommand(command) != true {
            logger.debug("cannot send the \(command) command to the phone")
            model.remoteCommandNotSent(command)
        }
        if let answer = effects.pairingAnswer {
            if answer == .timedOut { logger.notice("pairing not confirmed in time: rejected") }
            let reply = pairingReply
            pairingReply = nil
            reply?(answer.accepts)
        }
        if let (request, uid, index) = effects.notificationRequest { send(request, on: uid, reply: index) }
        if let on = effects.findPhone, session?.gadgetbridge.findPhone(on) != true {
            logger.notice("cannot ring the phone: Gadgetbridge did not take the request")
        }
        if let state = effects.doNotDisturb { doNotDisturbObserver?(state) }
        if effects.mutesChanged { mutesObserver?(model.appMutes) }
        if effects.alarmsChanged { alarmsObserver?(model.alarms) }
        if effects.powerOff {
            // The notice on the glass first: the board is about to go dark.
            render()
            powerOffHandler?()
        }
        // Possibly from inside the source's own event (a pop-up opening as
        // its notification is announced): the source records it, so its
        // first fetch asks for the message too, and acts after the event.
        effects.forEachShown { session?.notificationShown($0) }
        if effects.shownDropped > 0 || effects.replaced > 0 { reportEffectsDropped() }
    }

    /// Sends `action` on `uid`; false when the phone link refused the write.
    private func perform(_ action: NotificationAction, on uid: NotificationID) -> Bool {
        guard let session else { return true }  // the model said no phone already
        do {
            try session.performAction(action, on: uid)
            return true
        } catch {
            logger.warning("cannot perform the \(action) action on notification \(uid): \(error)")
            return false
        }
    }

    /// A reply or "mute this app" from a notification's menu.
    private func send(_ request: NotificationRequest, on uid: NotificationID, reply index: Int) {
        let replies = model.userSettings.replies
        var text = request == .reply && index < replies.count ? replies[index] : ""
        let sent = text.withUTF8 { session?.send(request, on: uid, text: UnsafeRawBufferPointer($0)) == true }
        if sent {
            logger.info(request == .reply ? "replied '\(text)' to notification \(uid)" : "asked the phone to mute the app of notification \(uid)")
        } else {
            logger.notice("cannot \(request) notification \(uid): the phone did not take it")
        }
    }

    private func reportEffectsDropped() {
        if !reportedEffectsDropped { logger.warning("more effects in one input than the model keeps: the extra ones were dropped") }
        reportedEffectsDropped = true
    }

    // MARK: - Display

    /// Coalesces redraws: many events in one loop iteration draw once.
    public func requestRender() { display.requestRender() }

    /// Draws the current screen and sends the changed bytes to the panel now.
    public func render() { display.render() }
}
