import ANCS
import Notifications
import HAL
import Testing
import Watch

/// A phone that answers like an iPhone, for the model's tests that need
/// titles (the previous session, reconciliation) and time (health checks):
/// each link is a fresh `NotificationConsumer` (as each PhoneSession makes
/// one), its Control Point writes queued and answered by `answerAll()`
/// (Get Notification Attributes from `notifications`, the probe with 0xA2,
/// app names from `appNames`), its events routed to the model.
final class AnsweringPhone: ANCSConsumerSink {
    struct Posted {
        var category: CategoryID = .social
        var flags: EventFlags = []
        var app = "com.apple.MobileSMS"
        var title: String
        var date = "20240501T120000"
    }

    /// What the phone holds (it re-announces these on a new session).
    var notifications: [(uid: UInt32, posted: Posted)] = []
    var appNames = ["com.apple.MobileSMS": "Messages", "com.apple.mobilemail": "Mail"]
    /// Answers Control Point writes (false: they are left unanswered).
    var answering = true
    private(set) var consumer: NotificationConsumer
    private var pending: [[UInt8]] = []
    unowned let rig: ModelRig
    /// Deadlines of the consumers handled so far (a wake-up count).
    private(set) var deadlinesHandled = 0

    init(rig: ModelRig) {
        self.rig = rig
        consumer = Self.makeConsumer()
        consumer.sink = self
    }

    static func makeConsumer() -> NotificationConsumer {
        var c = NotificationConsumer.Configuration()
        c.fetchDate = true
        return NotificationConsumer(configuration: c)
    }

    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        pending.append(Array(command))
        return .sent
    }
    func ancsEvent(_ event: ANCSEvent) { rig.model.ancsEvent(event, now: rig.now) }

    // MARK: links

    /// A new link: the model gets the new store, the session starts and the
    /// phone announces what it holds (pre-existing).
    func connect() {
        let shown = consumer
        consumer = Self.makeConsumer()
        consumer.sink = self
        pending.removeAll()
        // As the watch's controller does through PhoneSession: the new store
        // takes over what the one shown kept from its ended session.
        consumer.adoptPreviousSession(from: shown, now: rig.now)
        rig.model.phoneConnected(notifications: consumer, now: rig.now)
        consumer.sessionStarted(now: rig.now)
        for n in notifications { announce(0, n.uid, n.posted, extra: .preExisting) }
        answerAll()
    }

    /// The link goes (the session ends, then the model hears of it).
    func disconnect() {
        consumer.sessionEnded(.disconnected, now: rig.now)
        rig.model.phoneDisconnected(now: rig.now)
        pending.removeAll()
    }

    // MARK: the phone's notifications

    func post(_ uid: UInt32, _ posted: Posted) {
        notifications.append((uid, posted))
        announce(0, uid, posted)
        answerAll()
    }

    func remove(_ uid: UInt32) {
        guard let i = notifications.firstIndex(where: { $0.uid == uid }) else { return }
        let n = notifications.remove(at: i)
        announce(2, uid, n.posted)
        answerAll()
    }

    private func announce(_ event: UInt8, _ uid: UInt32, _ p: Posted, extra: EventFlags = []) {
        let bytes: [UInt8] = [
            event, p.flags.union(extra).rawValue, p.category.rawValue, 1,
            UInt8(uid & 0xFF), UInt8(uid >> 8 & 0xFF), UInt8(uid >> 16 & 0xFF), UInt8(uid >> 24),
        ]
        consumer.notificationSourceReceived(bytes, now: rig.now)
    }

    // MARK: answering

    /// Answers every queued command (and what they lead to).
    func answerAll() {
        guard answering else { return }
        var rounds = 0
        while !pending.isEmpty && rounds < 10_000 {
            rounds += 1
            answer(pending.removeFirst())
        }
    }

    private func answer(_ bytes: [UInt8]) {
        guard let command = try? ControlPointCommand(parsing: bytes) else { return }
        let now = rig.now
        switch command {
        case .getNotificationAttributes(let uid, let attributes):
            guard let n = notifications.first(where: { $0.uid == uid.rawValue })?.posted else {
                consumer.controlPointWriteFailed(attErrorCode: 0xA2, now: now)
                return
            }
            consumer.controlPointWriteSucceeded(now: now)
            let values: [UInt8: String] = [0: n.app, 1: n.title, 5: n.date]
            let attrs = attributes.map { a -> EncodedAttribute in
                var v = Array((values[a.id] ?? "").utf8)
                if a.sendsMaxLength { v = Array(v.prefix(Int(a.maxLength))) }
                return EncodedAttribute(id: a.id, value: v)
            }
            consumer.dataSourceReceived(DataSourceResponseEncoder.notificationAttributes(uid: uid, attrs), now: now)
        case .getAppAttributes(let id, let attributes):
            guard let name = appNames[String(decoding: id, as: UTF8.self)] else {
                consumer.controlPointWriteFailed(attErrorCode: 0xA2, now: now)
                return
            }
            consumer.controlPointWriteSucceeded(now: now)
            consumer.dataSourceReceived(DataSourceResponseEncoder.appAttributes(
                appIdentifier: id, attributes.map { EncodedAttribute(id: $0.id, value: Array(name.utf8)) }), now: now)
        case .performNotificationAction:
            consumer.controlPointWriteSucceeded(now: now)
        }
    }

    // MARK: time

    /// The consumer's next deadline, for the rig's clock.
    var nextDeadline: MonotonicInstant? { consumer.nextDeadline }

    func handleDeadline() {
        deadlinesHandled += 1
        consumer.handleDeadline(now: rig.now)
        answerAll()
    }
}

extension ModelRig {
    /// Time passes for the model and the answering phone's consumer: every
    /// deadline of either runs at its own instant, and with `minuteTicks`
    /// the controller's minute tick (every whole minute of the rig's clock,
    /// while the model wants it: the panel lit). Returns the timer firings.
    @discardableResult
    func advance(by d: Duration, phone: AnsweringPhone, minuteTicks: Bool = false) -> Int {
        let target = now.advanced(by: d)
        var fired = 0
        func nextMinute() -> MonotonicInstant? {
            guard minuteTicks, model.wantsMinuteTicks else { return nil }
            let minute: UInt64 = 60_000_000_000
            return MonotonicInstant(nanoseconds: (now.nanoseconds / minute + 1) * minute)
        }
        while true {
            var next = model.nextDeadline
            if let p = phone.nextDeadline, next.map({ p < $0 }) ?? true { next = p }
            if let m = nextMinute(), next.map({ m < $0 }) ?? true { next = m }
            guard let due = next, due <= target else { break }
            let tick = nextMinute() == due
            if due > now { now = due }
            if let m = model.nextDeadline, m <= now {
                model.handleDeadline(now: now)
                fired += 1
            }
            if let p = phone.nextDeadline, p <= now {
                phone.handleDeadline()
                fired += 1
            }
            if tick {
                model.minuteTicked(now: now)
                fired += 1
            }
        }
        now = target
        return fired
    }

    /// The list's titles, newest first, with "*" before those kept from the previous session.
    var listTitles: [String] {
        var t: [String] = []
        model.notifications.forEachNotification(newestFirst: true) { t.append(($0.isFromPreviousSession ? "*" : "") + ($0.title ?? "")) }
        return t
    }
}
