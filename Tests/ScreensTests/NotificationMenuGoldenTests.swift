import ANCS
import Graphics
import HAL
import Notifications
import Screens
import Testing

/// An ANCS store that also takes replies and "mute this app" (as
/// Gadgetbridge's does), for drawing a notification's menu.
final class OfferingSource: NotificationSource {
    let inner: NotificationConsumer
    let offered: Set<NotificationRequest>
    init(_ inner: NotificationConsumer, offering offered: Set<NotificationRequest>) {
        self.inner = inner
        self.offered = offered
    }
    var notificationCount: Int { inner.notificationCount }
    func notification(_ uid: NotificationID) -> Notification? { inner.notification(uid) }
    func forEachNotification(newestFirst: Bool, _ body: (Notification) -> Void) { inner.forEachNotification(newestFirst: newestFirst, body) }
    func appDisplayName(forAppIdentifier id: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? { inner.appDisplayName(forAppIdentifier: id) }
    var health: NotificationSourceHealth { inner.health }
    func perform(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant) throws(NotificationActionError) {
        try inner.perform(action, on: uid, now: now)
    }
    func shown(_ uid: NotificationID, now: MonotonicInstant) {}
    func offers(_ request: NotificationRequest, on uid: NotificationID) -> Bool { offered.contains(request) }
    func text(_ field: NotificationField, slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer { inner.text(field, slot: slot, uid: uid) }
    func appDisplayName(slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer? { inner.appDisplayName(slot: slot, uid: uid) }
}

@Suite("Screens: a notification's menu and the reply picker")
struct NotificationMenuGoldenTests {
    static let replies = ["OK", "On my way", "Can't talk now", "Call you later", "Thanks!"]

    func draw(_ screen: Screen, height: Int = 64, offering: Set<NotificationRequest> = [.reply, .muteApp]) -> MonoImage {
        let inbox = Inbox.make()
        let source = OfferingSource(inbox.consumer, offering: offering)
        let renderer = ScreenRenderer(width: 128, height: height, fonts: screenFonts)
        let fb = Framebuffer(width: 128, height: height)
        renderer.render(screen, status: status(), notifications: source, into: fb, replies: Self.replies)
        return MonoImage(fb)
    }

    @Test func theMenuOffersWhatThePhoneTakes() {
        Golden.check(image: draw(.notificationMenu(Inbox.standup, selected: 1)), "notification-menu-128x64")
        Golden.check(image: draw(.notificationMenu(Inbox.standup, selected: 0), height: 32), "notification-menu-128x32")
        // Mute only: one entry, "Mute this app", selected.
        let muteOnly = draw(.notificationMenu(Inbox.standup, selected: 0), offering: [.muteApp])
        let secondOfTwo = draw(.notificationMenu(Inbox.standup, selected: 1))
        #expect(muteOnly != secondOfTwo)  // one row, not two
        // Nothing offered (an iPhone): the "gone" notice, not an empty menu.
        let nothing = draw(.notificationMenu(Inbox.standup, selected: 0), offering: [])
        let gone = draw(.detail(NotificationID(999), scroll: 0))
        #expect(nothing == gone)
    }

    @Test func thePickerScrollsThroughTheReplies() {
        Golden.check(image: draw(.replyPicker(Inbox.standup, selected: 0)), "reply-picker-128x64")
        Golden.check(image: draw(.replyPicker(Inbox.standup, selected: 4)), "reply-picker-128x64-last")
        Golden.check(image: draw(.replyPicker(Inbox.standup, selected: 2), height: 32), "reply-picker-128x32")
    }
}
