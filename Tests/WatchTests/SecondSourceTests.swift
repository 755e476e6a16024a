import ANCS
import BoardConfig
import Graphics
import HAL
import Haptics
import Notifications
import Screens
import Testing
import Watch

/// A second notification source, written here and nowhere else: a
/// "desktop bridge" that holds its notifications in plain arrays. The watch's
/// model and screens take it as they take the ANCS consumer, through
/// `NotificationSource` only: adding it touched no file in Watch or Screens.
final class DeskSource: NotificationSource {
    struct Item {
        var uid: NotificationID
        var flags: NotificationFlags
        var category: NotificationCategory
        var texts: [NotificationField: UnsafeRawBufferPointer]
        var appName: UnsafeRawBufferPointer
    }

    /// Oldest first.
    private(set) var items: [Item] = []
    /// What the watch asked of it.
    private(set) var performed: [(NotificationAction, NotificationID)] = []
    private(set) var shownIDs: [NotificationID] = []
    var health = NotificationSourceHealth()
    /// What the desktop takes besides the two actions (none by default).
    var offered: Set<NotificationRequest> = []
    func offers(_ request: NotificationRequest, on uid: NotificationID) -> Bool {
        offered.contains(request) && notification(uid) != nil
    }
    /// Where its events go (the session that owns it, here the test's model).
    var events: (NotificationEvent) -> Void = { _ in }

    /// The desktop posts a notification.
    func post(_ uid: UInt32, app: String, appName: String, title: String, message: String,
              flags: NotificationFlags, labels: (String, String)? = nil) {
        var texts: [NotificationField: UnsafeRawBufferPointer] = [
            .appIdentifier: Self.bytes(app), .title: Self.bytes(title), .message: Self.bytes(message),
        ]
        if let labels {
            texts[.positiveActionLabel] = Self.bytes(labels.0)
            texts[.negativeActionLabel] = Self.bytes(labels.1)
        }
        let item = Item(uid: NotificationID(uid), flags: flags, category: .social, texts: texts, appName: Self.bytes(appName))
        items.append(item)
        events(.added(NotificationInfo(uid: item.uid, flags: flags, category: .social, categoryCount: 1)))
    }

    /// Its own copy of the text, kept until the notification goes.
    private static func bytes(_ text: String) -> UnsafeRawBufferPointer {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
        copy.copyBytes(from: text.utf8)
        return UnsafeRawBufferPointer(copy)
    }

    private static func free(_ item: Item) {
        for b in item.texts.values { b.deallocate() }
        item.appName.deallocate()
    }

    deinit { items.forEach(Self.free) }

    /// The desktop withdrew it.
    func withdraw(_ uid: UInt32) {
        items.filter { $0.uid.rawValue == uid }.forEach(Self.free)
        items.removeAll { $0.uid.rawValue == uid }
        events(.removed(NotificationID(uid), .removedByPhone))
    }

    // MARK: NotificationSource

    var notificationCount: Int { items.count }

    func notification(_ uid: NotificationID) -> Notification? {
        items.firstIndex { $0.uid == uid }.map(view)
    }

    func forEachNotification(newestFirst: Bool, _ body: (Notification) -> Void) {
        let order = newestFirst ? Array(items.indices.reversed()) : Array(items.indices)
        for i in order { body(view(i)) }
    }

    func appDisplayName(forAppIdentifier id: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        nil  // the screens read names through `Notification`
    }

    func perform(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant)
        throws(NotificationActionError)
    {
        guard let item = items.first(where: { $0.uid == uid }) else { throw .unknownNotification(uid) }
        guard item.flags.contains(action.requiredFlag) else { throw .actionNotAvailable(uid, action) }
        performed.append((action, uid))
        events(.actionSent(uid, action))
    }

    func shown(_ uid: NotificationID, now: MonotonicInstant) { shownIDs.append(uid) }

    func text(_ field: NotificationField, slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer {
        guard slot < items.count, items[slot].uid == uid, let bytes = items[slot].texts[field] else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return bytes
    }

    func appDisplayName(slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer? {
        guard slot < items.count, items[slot].uid == uid else { return nil }
        return items[slot].appName
    }

    private func view(_ i: Int) -> Notification {
        let item = items[i]
        var available = NotificationFields.messageSize
        for field in item.texts.keys { available.insert(field.bit) }
        return Notification(
            uid: item.uid, flags: item.flags, category: item.category, categoryCount: 1, available: available,
            messageSize: item.texts[.message]?.count, storage: self, slot: i)
    }
}

@Suite struct SecondSourceTests {
    static let chat = "com.example.chat"

    @Test func aTestOnlySourceAlertsPopsUpDrawsAndTakesActionsLikeANCS() throws {
        let rig = ModelRig()
        let desk = DeskSource()
        desk.health.record(.subscribed, .ok)  // connected, and nothing says otherwise (no '?' in the status bar)
        desk.events = { [unowned rig] e in rig.model.notificationEvent(e, now: rig.now) }
        rig.model.phoneConnected(notifications: desk, now: rig.now)
        _ = rig.sink.take()

        desk.post(7, app: Self.chat, appName: "Chat", title: "Lunch?", message: "At one, by the river",
                  flags: [.important, .positiveAction, .negativeAction], labels: ("OK", "Clear"))
        // The one vibration rule, the pop-up: the model's own.
        #expect(rig.sink.take().contains(.play(VibrationPattern.double.name)), "Important: the double pulse")
        #expect(rig.model.screen == .detail(NotificationID(7), scroll: 0))
        #expect(rig.model.unread == 1)

        // The detail screen draws it exactly as it draws the same notification from ANCS.
        let deskImage = Self.detail(NotificationID(7), desk)
        let ancs = AnsweringStore(rig: ModelRig())
        let ancsImage = Self.detail(NotificationID(7), ancs.consumer)
        let same = deskImage == ancsImage
        #expect(same, "the same pixels from either source: \(deskImage.differences(from: ancsImage)) \(ancs.describe) \(Self.describe(desk.notification(NotificationID(7))))")
        let drawn = deskImage != Self.detail(NotificationID(8), desk)
        #expect(drawn, "text drawn")

        // The positive button acts on it; the watch's sink hands it to the source.
        rig.model.button(.positive, .press, now: rig.now)
        let acted = rig.sink.take()
        #expect(acted.contains(.perform(.positive, 7)))
        try desk.perform(.positive, on: NotificationID(7), now: rig.now)
        #expect(desk.performed.count == 1)

        // Withdrawn on the desktop: gone from the watch.
        desk.withdraw(7)
        #expect(rig.model.notifications.notificationCount == 0)
        #expect(rig.model.screen != .detail(NotificationID(7), scroll: 0))
    }

    @Test func aSourceThatRefusesAnActionSaysWhy() {
        let desk = DeskSource()
        desk.post(1, app: Self.chat, appName: "Chat", title: "t", message: "m", flags: [])
        #expect(throws: NotificationActionError.actionNotAvailable(NotificationID(1), .positive)) {
            try desk.perform(.positive, on: NotificationID(1), now: .zero)
        }
        #expect(throws: NotificationActionError.unknownNotification(NotificationID(2))) {
            try desk.perform(.negative, on: NotificationID(2), now: .zero)
        }
    }

    static func describe(_ n: Notification?) -> String {
        guard let n else { return "nil" }
        return "\(n.flags.rawValue) \(n.category) \(n.available.rawValue) \(n.truncated.rawValue) \(n.messageSize ?? -1) \(n.appDisplayName ?? "-") \(n.title ?? "-") \(n.message ?? "-") \(n.positiveActionLabel ?? "-")"
    }

    /// The detail screen of `uid` from `source`, at 128x64.
    static func detail(_ uid: NotificationID, _ source: any NotificationSource) -> MonoImage {
        let fb = Framebuffer(width: 128, height: 64)
        ScreenRenderer(width: 128, height: 64, fonts: WatchControllerTests.Rig.fonts).render(
            .detail(uid, scroll: 0), status: StatusInfo(time: nil, link: .encrypted, unread: 0),
            notifications: source, into: fb)
        return MonoImage(fb)
    }
}

/// The same notification from a real ANCS consumer: announced on the
/// Notification Source, its attributes and app name answered on the Data
/// Source (the model's phone from Support.swift).
final class AnsweringStore {
    let phone: PhoneStore
    var consumer: NotificationConsumer { phone.consumer }
    var describe: String { SecondSourceTests.describe(consumer.notification(NotificationID(7))) }

    init(rig: ModelRig) {
        phone = rig.connect()
        phone.notificationSource(event: 0, uid: 7, category: .social, flags: [.important, .positiveAction, .negativeAction])
        while phone.answer() != nil {}
    }
}
