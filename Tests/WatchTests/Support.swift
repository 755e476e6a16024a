import AMS
import ANCS
import Notifications
import BoardConfig
import HAL
import Haptics
import Input
import Screens
import Testing
import Watch

/// One effect the model asked for (render requests are counted apart).
enum Effect: Equatable, CustomStringConvertible {
    case play(String)
    case stopMotor
    case perform(ActionID, UInt32)
    case shown(UInt32)
    case pairing(PairingAnswer)
    case power(DisplayPowerState)
    /// A Remote Command sent to the phone's media player.
    case remote(RemoteCommandID)
    /// Ring the phone (true) or stop it.
    case findPhone(Bool)
    /// A notification's menu: a reply (its index in the settings) or "mute this app".
    case request(NotificationRequest, UInt32, reply: Int)
    case powerOff
    /// The wrist's mutes changed: keep them.
    case mutesChanged
    /// The wearer's alarms changed: keep them.
    case alarmsChanged

    var description: String {
        switch self {
        case .play(let p): "play \(p)"
        case .stopMotor: "stop motor"
        case .perform(let a, let uid): "perform \(a) on \(uid)"
        case .shown(let uid): "shown \(uid)"
        case .pairing(let a): "pairing \(a)"
        case .power(let s): "power \(s.rawValue)"
        case .remote(let id): "remote \(id)"
        case .findPhone(let on): "find phone \(on)"
        case .request(let r, let uid, let index): "\(r) \(uid) \(index)"
        case .powerOff: "power off"
        case .mutesChanged: "mutes changed"
        case .alarmsChanged: "alarms changed"
        }
    }
}

/// Takes the model's effects after its inputs, as the controller does
/// (`WatchController.afterInput`), and records them; an action or Remote
/// Command the test says could not be sent goes back to the model as the
/// controller's outcome inputs do.
final class EffectRecorder {
    unowned(unsafe) var model: WatchModel!
    var now: () -> MonotonicInstant = { MonotonicInstant(nanoseconds: 0) }
    private var recorded: [Effect] = []
    private var rendersSeen = 0
    /// Whether the phone link takes actions (false: `actionNotSent`).
    var actionsAccepted = true
    /// Whether Remote Commands can be sent (false: `remoteCommandNotSent`).
    var remoteCommandsAccepted = true
    /// Sees each Do Not Disturb state the model asks to keep.
    var doNotDisturbKept: ((DoNotDisturbState) -> Void)?

    /// Applies what the model's inputs left, until nothing is left.
    func drain() {
        guard let model else { return }
        while model.hasEffects {
            let e = model.takeEffects()
            rendersSeen += e.renderRequests
            if e.stopMotor { recorded.append(.stopMotor) }
            if let s = e.displayPower { recorded.append(.power(s)) }
            if let p = e.play { recorded.append(.play(p.name)) }
            if let (action, uid) = e.action {
                recorded.append(.perform(action, uid.rawValue))
                if !actionsAccepted { model.actionNotSent(action, on: uid, now: now()) }
            }
            if let id = e.remoteCommand {
                recorded.append(.remote(id))
                if !remoteCommandsAccepted { model.remoteCommandNotSent(id) }
            }
            if let a = e.pairingAnswer { recorded.append(.pairing(a)) }
            if let on = e.findPhone { recorded.append(.findPhone(on)) }
            if let (r, uid, index) = e.notificationRequest { recorded.append(.request(r, uid.rawValue, reply: index)) }
            if let state = e.doNotDisturb { doNotDisturbKept?(state) }
            if e.powerOff { recorded.append(.powerOff) }
            if e.mutesChanged { recorded.append(.mutesChanged) }
            if e.alarmsChanged { recorded.append(.alarmsChanged) }
            e.forEachShown { recorded.append(.shown($0.rawValue)) }
        }
    }

    /// Render requests so far (draining first).
    var renders: Int {
        get {
            drain()
            return rendersSeen
        }
        set {
            drain()
            rendersSeen = newValue
        }
    }

    /// The effects recorded since the last call.
    func take() -> [Effect] {
        drain()
        defer { recorded.removeAll() }
        return recorded
    }
}

/// The detail screen scrolls `maxScroll` lines for every notification.
final class FixedDetailLayout: NotificationDetailLayout {
    var maxScroll = 2
    func detailMaxScroll(_ uid: NotificationUID, notifications: any NotificationSource) -> Int {
        notifications.notification(uid) == nil ? 0 : maxScroll
    }
}

/// The phone's side as the model sees it: a real ANCS consumer fed raw
/// Notification Source bytes, whose events go to the model (as PhoneSession
/// routes them). Control Point writes are recorded and never answered, so
/// the store holds exactly what the Notification Source announced.
final class PhoneStore: ANCSConsumerSink {
    let consumer = NotificationConsumer()
    unowned let rig: ModelRig
    var controlPointWrites = 0

    init(rig: ModelRig) {
        self.rig = rig
        consumer.sink = self
        consumer.sessionStarted(now: rig.now)
    }

    /// Control Point writes not answered yet, oldest first.
    var unanswered: [[UInt8]] = []

    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        controlPointWrites += 1
        unanswered.append(Array(command))
        return .sent
    }
    func ancsEvent(_ event: ANCSEvent) {
        rig.model.ancsEvent(event, now: rig.now)
        rig.sink.drain()
    }

    /// Answers the oldest Control Point write like an iPhone whose
    /// notifications all come from `app`, named `appName`. Returns what it
    /// answered ("notification N", "app"), nil when nothing waited.
    @discardableResult
    func answer(app: String = "com.example.chat", appName: String = "Chat", title: String = "Lunch?",
                message: String = "At one, by the river") -> String? {
        guard !unanswered.isEmpty else { return nil }
        let bytes = unanswered.removeFirst()
        guard let command = try? ControlPointCommand(parsing: bytes) else { return "unparsed" }
        switch command {
        case .getNotificationAttributes(let uid, let attributes):
            consumer.controlPointWriteSucceeded(now: rig.now)
            let values: [UInt8: String] = [0: app, 1: title, 3: message, 4: String(message.utf8.count), 6: "OK", 7: "Clear"]
            let attrs = attributes.map { EncodedAttribute(id: $0.id, value: Array((values[$0.id] ?? "").utf8)) }
            consumer.dataSourceReceived(DataSourceResponseEncoder.notificationAttributes(uid: uid, attrs), now: rig.now)
            return "notification \(uid.rawValue)"
        case .getAppAttributes(let id, let attributes):
            consumer.controlPointWriteSucceeded(now: rig.now)
            consumer.dataSourceReceived(DataSourceResponseEncoder.appAttributes(
                appIdentifier: id, attributes.map { EncodedAttribute(id: $0.id, value: Array(appName.utf8)) }), now: rig.now)
            return "app"
        case .performNotificationAction:
            consumer.controlPointWriteSucceeded(now: rig.now)
            return "action"
        }
    }

    /// One Notification Source notification: EventID, EventFlags, CategoryID,
    /// CategoryCount, NotificationUID (little-endian).
    func notificationSource(event: UInt8, uid: UInt32, category: CategoryID, flags: EventFlags) {
        let bytes: [UInt8] = [
            event, flags.rawValue, category.rawValue, 1,
            UInt8(uid & 0xFF), UInt8(uid >> 8 & 0xFF), UInt8(uid >> 16 & 0xFF), UInt8(uid >> 24),
        ]
        consumer.notificationSourceReceived(bytes, now: rig.now)
    }
}

/// The model with a manual clock, a recorder for its effects and a phone.
final class ModelRig {
    var settings: WatchSettings
    let model: WatchModel
    let sink = EffectRecorder()
    let layout = FixedDetailLayout()
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    private(set) var phone: PhoneStore?
    /// The next wall-clock minute, as the controller's minute tick sees it:
    /// a whole minute after the rig's start.
    private var nextMinute = MonotonicInstant(nanoseconds: 61_000_000_000)
    /// Minute ticks delivered so far (only while the model wants them).
    private(set) var minuteTicks = 0

    static func defaultSettings() -> WatchSettings {
        var s = WatchSettings()
        s.dimAfter = .seconds(15)
        s.offAfter = .seconds(30)
        s.pairingTimeout = .seconds(30)
        s.pixelShiftInterval = .seconds(180)
        // A new alert pops up at once here; its wait for attributes is
        // WatchModelPopUpTests'.
        s.popUpWait = .zero
        return s
    }

    init(settings: WatchSettings = ModelRig.defaultSettings(), policy: VibrationPolicy = .standard, started: Bool = true) {
        self.settings = settings
        model = WatchModel(settings: settings, policy: policy, detailLayout: layout, now: now)
        sink.model = model
        sink.now = { [unowned self] in self.now }
        if started { model.start(now: now) }
    }

    // MARK: time

    /// Time passes: every deadline that falls due runs at its own instant,
    /// and the minute tick runs on every minute while the model wants it
    /// (as the controller arms it: never while the panel is dark).
    func advance(by d: Duration) {
        let target = now.advanced(by: d)
        while true {
            let due = model.nextDeadline
            if let due, due <= target, due <= nextMinute {
                if due > now { now = due }
                model.handleDeadline(now: now)
                sink.drain()
            } else if nextMinute <= target {
                now = max(now, nextMinute)
                nextMinute = nextMinute.advanced(by: .seconds(60))
                if model.wantsMinuteTicks {
                    minuteTicks += 1
                    model.minuteTicked(now: now)
                    sink.drain()
                }
            } else {
                break
            }
        }
        now = target
    }

    // MARK: the phone

    /// A phone connects with an empty store.
    @discardableResult
    func connect() -> PhoneStore {
        let p = PhoneStore(rig: self)
        phone = p
        model.phoneConnected(notifications: p.consumer, now: now)
        return p
    }

    func disconnect() {
        phone?.consumer.sessionEnded(.disconnected, now: now)
        model.phoneDisconnected(now: now)
        phone = nil
    }

    func add(_ uid: UInt32, _ category: CategoryID = .social, flags: EventFlags = []) {
        phone!.notificationSource(event: 0, uid: uid, category: category, flags: flags)
    }

    func modify(_ uid: UInt32, _ category: CategoryID = .social, flags: EventFlags = []) {
        phone!.notificationSource(event: 1, uid: uid, category: category, flags: flags)
    }

    func remove(_ uid: UInt32) {
        phone!.notificationSource(event: 2, uid: uid, category: .other, flags: [])
    }

    /// The phone accepted the action (Control Point write answered).
    func actionSent(_ uid: UInt32, _ action: ActionID = .positive) {
        model.ancsEvent(.actionSent(NotificationUID(uid), action), now: now)
    }

    // MARK: the user

    func press(_ role: ButtonRole, _ gesture: ButtonGesture = .press) {
        model.button(role, gesture, now: now)
        sink.drain()
    }

    var screen: Screen { model.screen }
    /// The list, newest first.
    var listUIDs: [UInt32] {
        var uids: [UInt32] = []
        model.notifications.forEachNotification(newestFirst: true) { uids.append($0.uid.rawValue) }
        return uids
    }
}

/// A board's buttons and the gestures each one reports (double press only
/// where `WatchButtons` recognises it).
struct BoardButtons: CustomStringConvertible, Sendable {
    let name: String
    let roles: [ButtonRole]

    var inputs: [(ButtonRole, ButtonGesture)] {
        var list: [(ButtonRole, ButtonGesture)] = []
        for role in roles {
            list.append((role, .press))
            list.append((role, .longPress))
            if WatchButtons.detectsDoublePress(role, onBoardWith: roles) { list.append((role, .doublePress)) }
        }
        return list
    }

    var description: String { name }

    /// Positive and negative only: everything through long and double presses.
    static let twoButton = BoardButtons(name: "two-button", roles: [.positive, .negative])
    /// The Raspberry Pi boards' four: positive, negative, select, back.
    static let fourButton = BoardButtons(name: "four-button", roles: [.positive, .negative, .select, .back])
    /// Every role (the simulated and generic boards).
    static let full = BoardButtons(name: "full", roles: ButtonRole.allCases)

    static let all: [BoardButtons] = [.twoButton, .fourButton, .full]
}

/// "positive press", "back longPress": a key for the expected-outcome tables.
func key(_ role: ButtonRole, _ gesture: ButtonGesture) -> String { "\(role.rawValue) \(gesture)" }

extension WatchModel {
    /// An ANCS event as the model hears it: through its neutral meaning
    /// (as PhoneSession hands it on).
    func ancsEvent(_ event: ANCSEvent, now: MonotonicInstant) {
        if let e = event.notificationEvent { notificationEvent(e, now: now) }
    }
}

extension ModelRig {
    /// The phone's consumer behind the model's store (a test's own phone).
    var consumer: NotificationConsumer { model.notifications as! NotificationConsumer }
}

/// A system clock a test sets (the watch reads it through
/// `WatchSettings.systemClock`, as the daemon reads the real one).
final class SettableClock: @unchecked Sendable {
    var time: CivilTime?
    init(_ time: CivilTime? = nil) { self.time = time }
    var read: @Sendable () -> CivilTime? { { [self] in self.time } }

    /// 2024-05-01 at hh:mm.
    static func at(_ hh: Int, _ mm: Int) -> CivilTime {
        CivilTime(year: 2024, month: 5, day: 1, hour: hh, minute: mm, second: 0)
    }
}
