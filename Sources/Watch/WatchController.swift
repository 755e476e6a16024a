import ANCS
import BoardConfig
import Display
import Graphics
import HAL
import Haptics
import Input
import Logging
import Loop
import PhoneServices
import Screens


/// The watch itself: what is on screen, what the buttons do, when the motor
/// runs and when the display sleeps. It reacts to three kinds of input — the
/// phone's ANCS events, button gestures, and timers — and owns no device: the
/// panel, the motor line and the phone link are handed in.
///
/// Steady state allocates nothing: a notification arriving, vibrating,
/// rendering and flushing, and a button press performing an action, only use
/// state and closures created here once (see Benchmarks/WatchBenchmarks).
public final class WatchController {
    /// The link to the phone as the status bar shows it.
    public var link: LinkIndicator = .off {
        didSet { if link != oldValue { requestRender() } }
    }

    public private(set) var screen: Screen = .waitingForPhone
    /// The phone session, while a phone is connected.
    public private(set) var session: PhoneSession?
    /// The notifications the screens show (an empty store without a phone).
    public var notifications: NotificationConsumer { session?.consumer ?? noPhone }
    /// The call ringing now, if any.
    public private(set) var ringingCall: NotificationUID?
    public var displayState: String { power.state.rawValue }
    public let framebuffer: Framebuffer
    public let driver: OLEDDriver
    public let motor: MotorController?

    private let loop: EventLoop
    private let logger: Logger
    private let settings: WatchSettings
    private let renderer: ScreenRenderer
    private let policy: VibrationPolicy
    private let power: DisplayPower
    private let contrast: UInt8
    private let noPhone = NotificationConsumer()
    private var phoneClock: PhoneClock?
    private var unread = 0
    private var listSelection = 0
    private var shiftStep = 0
    private var pairingReply: ((Bool) -> Void)?
    private var screenBeforePairing: Screen = .waitingForPhone
    private var renderPending = false
    private var renderWork: (() -> Void)!
    private var minuteTimer: TimerID!
    private var shiftTimer: TimerID!
    private var pairingTimer: TimerID!
    private var phoneEventHandler: ((PhoneSession.Event) -> Void)!
    private var displayFailing = false

    public init(
        loop: EventLoop, logger: Logger, settings: WatchSettings, renderer: ScreenRenderer, framebuffer: Framebuffer,
        driver: OLEDDriver, contrast: UInt8, motor: MotorController?, policy: VibrationPolicy
    ) {
        self.loop = loop
        self.logger = logger
        self.settings = settings
        self.renderer = renderer
        self.framebuffer = framebuffer
        self.driver = driver
        self.contrast = contrast
        self.motor = motor
        self.policy = policy
        power = DisplayPower(scheduler: loop, settings: settings)
        power.changeHandler = { [unowned self] state in self.displayPowerChanged(state) }
        renderWork = { [unowned self] in self.render() }
        minuteTimer = loop.makeTimer { [unowned self] in
            self.requestRender()
            self.armMinuteTimer()
        }
        shiftTimer = loop.makeTimer { [unowned self] in
            self.shiftStep &+= 1
            self.requestRender()
        }
        pairingTimer = loop.makeTimer { [unowned self] in
            self.logger.notice("pairing not confirmed in time: rejected")
            self.answerPairing(false)
        }
        phoneEventHandler = { [unowned self] event in self.phoneEvent(event) }
    }

    deinit {
        for t in [minuteTimer, shiftTimer, pairingTimer] { loop.destroyTimer(t!) }
    }

    /// Initialises the panel and shows the first screen.
    public func start(rotation: Rotation) throws(HALError) {
        try driver.initialize(rotation: rotation)
        try? driver.setContrast(contrast)
        loop.arm(shiftTimer, after: settings.pixelShiftInterval, repeating: settings.pixelShiftInterval)
        armMinuteTimer()
        render()
    }

    /// Leaves the hardware safe: motor off, panel off (unless it persists).
    public func stop() {
        motor?.forceOff()
        try? driver.shutdown()
    }

    // MARK: - The phone

    /// A phone connected: run a session over its link.
    public func phoneConnected(_ session: PhoneSession) {
        if let old = self.session {
            old.close()
            loop.deferWork { withExtendedLifetime(old) {} }
        }
        self.session = session
        session.eventHandler = phoneEventHandler
        unread = 0
        listSelection = 0
        if case .pairing = screen {} else { screen = .idleClock }
        if link == .off || link == .advertising { link = .connected }
        requestRender()
    }

    /// The link went away: the store is gone with it.
    public func phoneDisconnected() {
        guard let closing = session else { return }
        session = nil
        // The link may report its end from deep inside its own receive loop:
        // keep the session alive until that call stack has unwound.
        loop.deferWork { withExtendedLifetime(closing) {} }
        phoneClock = nil
        endCall()
        unread = 0
        listSelection = 0
        screen = .waitingForPhone
        requestRender()
    }

    private func phoneEvent(_ event: PhoneSession.Event) {
        switch event {
        case .ancs(let e):
            ancsEvent(e)
        case .ancsSubscribed:
            logger.info("ANCS subscribed: notifications will arrive")
        case .ancsSubscriptionFailed(let e):
            logger.warning("cannot subscribe to ANCS: \(e)")
        case .ancsUnavailable:
            logger.notice("the phone offers no ANCS (on an iPhone: allow 'Share System Notifications' for this watch in Settings > Bluetooth)")
        case .phoneTime(let c):
            phoneClock = c
            armMinuteTimer()
            requestRender()
        case .discoveryFailed(let e):
            logger.warning("GATT discovery failed: \(e)")
        case .closed(let reason):
            logger.info("phone link closed: \(reason)")
            phoneDisconnected()
        }
    }

    private func ancsEvent(_ event: ANCSEvent) {
        switch event {
        case .notificationAdded(let info):
            logger.debug("notification \(info.uid) added: \(info.category)")
            if !info.isPreExisting { unread &+= 1 }
            if info.category == .incomingCall && info.shouldAlert {
                startRinging(info.uid)
            } else if info.shouldAlert {
                if info.flags.contains(.important) { power.wake() }
                if let pattern = policy.pattern(for: info) { motor?.play(pattern) }
                // A new alert pops up unless a call or a passkey has the screen.
                if ringingCall == nil && pairingReply == nil {
                    listSelection = 0
                    openDetail(info.uid)
                }
            }
            requestRender()
        case .notificationModified:
            requestRender()
        case .notificationRemoved(let uid, _):
            if ringingCall == uid { endCall() }
            if case .detail(let shown, _) = screen, shown == uid { screen = .list(selected: listSelection) }
            clampSelection()
            requestRender()
        case .attributesReady:
            requestRender()
        case .actionSent(let uid, let action):
            // Debug, not info: at the daemon's default level an info message is
            // built (7 mallocs) on every button press (Benchmarks/WatchBenchmarks).
            logger.debug("phone accepted the \(action) action on notification \(uid)")
            if ringingCall == uid { endCall() }
        case .actionFailed(let uid, let action, let error):
            logger.warning("the phone refused the \(action) action on notification \(uid): \(error)")
        case .fetchFailed(let uid, let error):
            logger.debug("fetching notification \(uid) failed: \(error)")
        case .sessionStarted:
            logger.info("ANCS session started")
        case .sessionEnded(let reason):
            logger.info("ANCS session ended: \(reason)")
            endCall()
            requestRender()
        case .protocolError(let e):
            logger.warning("dropped malformed ANCS data: \(e)")
        case .livenessProbe, .resubscribeRecommended:
            break
        }
    }

    // MARK: - Calls

    private func startRinging(_ uid: NotificationUID) {
        ringingCall = uid
        screen = .incomingCall(uid)
        power.keepAwake = true
        if let pattern = policy.pattern(for: notifications.notification(uid)?.info ?? NotificationInfo(uid: uid, flags: [], category: .incomingCall, categoryCount: 1)) {
            motor?.play(pattern)
        }
    }

    private func endCall() {
        guard ringingCall != nil else { return }
        ringingCall = nil
        motor?.stop()
        power.keepAwake = pairingReply != nil
        if case .incomingCall = screen { screen = notifications.notificationCount > 0 ? .list(selected: listSelection) : .idleClock }
        if session == nil { screen = .waitingForPhone }
        requestRender()
    }

    // MARK: - Pairing (numeric comparison)

    /// Shows a passkey; the positive button confirms, the negative button or
    /// the timeout rejects. `reply` is called exactly once.
    public func showPairing(passkey: UInt32, reply: @escaping (Bool) -> Void) {
        if pairingReply != nil { answerPairing(false) }
        pairingReply = reply
        if case .pairing = screen {} else { screenBeforePairing = screen }
        screen = .pairing(passkey: passkey)
        power.keepAwake = true
        loop.arm(pairingTimer, after: settings.pairingTimeout)
        requestRender()
    }

    /// The pairing request ended elsewhere (completed or failed by the kernel).
    public func pairingFinished() {
        guard pairingReply != nil || isShowingPairing else { return }
        pairingReply = nil
        leavePairingScreen()
    }

    private var isShowingPairing: Bool {
        if case .pairing = screen { return true }
        return false
    }

    private func answerPairing(_ accept: Bool) {
        loop.disarm(pairingTimer)
        let reply = pairingReply
        pairingReply = nil
        leavePairingScreen()
        reply?(accept)
    }

    private func leavePairingScreen() {
        loop.disarm(pairingTimer)
        power.keepAwake = ringingCall != nil
        if isShowingPairing { screen = screenBeforePairing }
        requestRender()
    }

    /// Shows a one-line notice (for example "Pair again" after a stale bond).
    public func showNotice(_ text: String) {
        logger.notice("\(text)")
        power.wake()
        screen = .message(text)
        requestRender()
    }

    // MARK: - Buttons

    /// A recognised gesture on a button. What it does depends on the screen;
    /// the table is in docs/buttons.md.
    public func button(_ role: ButtonRole, _ gesture: ButtonGesture) {
        logger.debug("button \(role.rawValue): \(gesture)")
        let wasDark = power.wake() == .off
        // A press that only woke a dark display does nothing else (no blind
        // actions), except where something is waiting for an answer.
        if wasDark && ringingCall == nil && pairingReply == nil { return requestRender() }
        switch screen {
        case .pairing:
            if role == .positive && gesture == .press { answerPairing(true) }
            if role == .negative && gesture == .press { answerPairing(false) }
        case .incomingCall(let uid):
            if gesture == .press && role == .positive { act(.positive, on: uid) }
            if gesture == .press && role == .negative { act(.negative, on: uid) }
        case .idleClock, .waitingForPhone, .message:
            if role == .positive || role == .select || role == .down || role == .up {
                if notifications.notificationCount > 0 {
                    unread = 0
                    screen = .list(selected: listSelection)
                } else if case .message = screen {
                    screen = session == nil ? .waitingForPhone : .idleClock
                }
            } else if case .message = screen, role == .negative || role == .back {
                screen = session == nil ? .waitingForPhone : .idleClock
            }
        case .list(let selected):
            switch (role, gesture) {
            case (.positive, .press), (.select, .press):
                if let uid = uidInList(at: selected) { openDetail(uid) }
            case (.negative, .press), (.back, _), (.negative, .longPress):
                screen = .idleClock
            case (.positive, .longPress), (.down, _):
                moveSelection(by: 1)
            case (.positive, .doublePress), (.up, _):
                moveSelection(by: -1)
            default:
                break
            }
        case .detail(let uid, let scroll):
            switch (role, gesture) {
            case (.positive, .press):
                if notifications.notification(uid)?.flags.contains(.positiveAction) == true { act(.positive, on: uid) }
            case (.negative, .press):
                if notifications.notification(uid)?.flags.contains(.negativeAction) == true { act(.negative, on: uid) }
            case (.positive, .longPress), (.down, _), (.select, _):
                let last = renderer.detailMaxScroll(uid, notifications: notifications)
                screen = .detail(uid, scroll: scroll < last ? scroll + 1 : 0)
            case (.positive, .doublePress), (.up, _):
                screen = .detail(uid, scroll: max(0, scroll - 1))
            case (.negative, .longPress), (.back, _):
                screen = .list(selected: listSelection)
            default:
                break
            }
        }
        // Looking at the list reads it.
        if case .list = screen { unread = 0 }
        requestRender()
    }

    private func act(_ action: ActionID, on uid: NotificationUID) {
        if ringingCall == uid {
            // Stop ringing at once: the press is the user's answer.
            motor?.stop()
        }
        guard let session else { return }
        do {
            try session.performAction(action, on: uid)
        } catch {
            logger.warning("cannot perform the \(action) action on notification \(uid): \(error)")
            if ringingCall == uid { endCall() }
        }
    }

    private func openDetail(_ uid: NotificationUID) {
        screen = .detail(uid, scroll: 0)
        session?.notificationShown(uid)
    }

    private func moveSelection(by delta: Int) {
        let count = notifications.notificationCount
        guard count > 0 else { return }
        listSelection = (listSelection + delta + count) % count
        screen = .list(selected: listSelection)
    }

    private func clampSelection() {
        let count = notifications.notificationCount
        if listSelection >= count { listSelection = max(0, count - 1) }
        if case .list = screen {
            screen = count > 0 ? .list(selected: listSelection) : (session == nil ? .waitingForPhone : .idleClock)
        }
    }

    /// The UID at `index` in newest-first order.
    private func uidInList(at index: Int) -> NotificationUID? {
        var i = 0
        var found: NotificationUID?
        notifications.forEachNotification(newestFirst: true) { n in
            if i == index { found = n.uid }
            i += 1
        }
        return found
    }

    // MARK: - Display

    private func displayPowerChanged(_ state: DisplayPower.State) {
        do {
            switch state {
            case .on:
                try driver.setContrast(contrast)
                if !driver.isOn {
                    try driver.setDisplayOn(true)
                    requestRender()
                }
            case .dimmed:
                try driver.setContrast(settings.dimContrast)
            case .off:
                try driver.setDisplayOn(false)
            }
        } catch {
            displayFailed(error)
        }
    }

    /// Coalesces redraws: many events in one loop iteration draw once.
    public func requestRender() {
        guard !renderPending else { return }
        renderPending = true
        loop.deferWork(renderWork)
    }

    /// Draws the current screen and sends the changed bytes to the panel.
    public func render() {
        renderPending = false
        let status = StatusInfo(time: currentTime(), link: link, unread: unread)
        renderer.render(screen, status: status, notifications: notifications, into: framebuffer, shift: pixelShift)
        guard power.state != .off else { return }
        do {
            _ = try driver.flush(framebuffer)
            if displayFailing {
                displayFailing = false
                logger.notice("display answers again")
            }
        } catch {
            displayFailed(error)
        }
    }

    private func displayFailed(_ error: HALError) {
        // Logged once per episode; the watch keeps running (the motor and the
        // buttons still work) and the next successful flush says so.
        if !displayFailing { logger.error("display: \(error)") }
        displayFailing = true
    }

    /// Static content moves around a 2x2 pixel square over time.
    private var pixelShift: (x: Int, y: Int) {
        switch shiftStep & 3 {
        case 0: (0, 0)
        case 1: (1, 0)
        case 2: (1, 1)
        default: (0, 1)
        }
    }

    private func currentTime() -> WallClockTime? {
        if let phoneClock, let t = WallClock.phone(phoneClock, at: loop.now) { return t }
        return settings.systemClock()
    }

    /// Redraws at the next minute boundary (the clock shows minutes).
    private func armMinuteTimer() {
        let second = currentTime()?.second ?? 0
        loop.arm(minuteTimer, after: .seconds(60 - min(59, max(0, second))))
    }
}
