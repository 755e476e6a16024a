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
        // Mute on the phone first, then the watch's own mutes.
        let muteOnly = draw(.notificationMenu(Inbox.standup, selected: 0), offering: [.muteApp])
        let secondOfFive = draw(.notificationMenu(Inbox.standup, selected: 1))
        #expect(muteOnly != secondOfFive)  // no "Reply" row above it
        // Nothing from the phone (an iPhone): the watch's three mutes.
        Golden.check(image: draw(.notificationMenu(Inbox.standup, selected: 2), offering: []), "notification-menu-watch-mutes-128x64")
        Golden.check(image: draw(.notificationMenu(Inbox.standup, selected: 0), height: 32, offering: []), "notification-menu-watch-mutes-128x32")
        // A notification that went: the "gone" notice, not an empty menu.
        let nothing = draw(.notificationMenu(NotificationID(999), selected: 0), offering: [])
        let gone = draw(.detail(NotificationID(999), scroll: 0))
        #expect(nothing == gone)
    }

    /// Issue 25 item 3: the apps muted from the wrist, each with how long
    /// it stays muted; the positive button undoes the highlighted one.
    @Test func mutedAppsListsEachWithWhatIsLeft() {
        var mutes = AppMutes()
        let now = MonotonicInstant(nanoseconds: 5_000_000_000_000)
        func mute(_ id: String, _ name: String, _ left: Duration?) {
            var (i, n) = (id, name)
            i.withUTF8 { ib in n.withUTF8 { nb in
                _ = mutes.mute(UnsafeRawBufferPointer(ib), name: UnsafeRawBufferPointer(nb), until: left.map { now.advanced(by: $0) }, now: now)
            } }
        }
        mute("net.whatsapp.WhatsApp", "WhatsApp", .seconds(59 * 60 + 30))
        mute("com.apple.mobilemail", "Mail", .seconds(5 * 3600 - 10))
        mute("com.facebook.Facebook", "Facebook", nil)
        func draw(_ selected: Int, height: Int = 64, view: MutedAppsView?) -> MonoImage {
            let renderer = ScreenRenderer(width: 128, height: height, fonts: screenFonts)
            let fb = Framebuffer(width: 128, height: height)
            renderer.render(.mutedApps(selected: selected), status: status(), notifications: Inbox.make().consumer, into: fb, mutedApps: view)
            return MonoImage(fb)
        }
        let view = MutedAppsView(mutes: mutes, now: now)
        Golden.check(image: draw(1, view: view), "muted-apps-128x64")
        Golden.check(image: draw(0, height: 32, view: view), "muted-apps-128x32")
        Golden.check(image: draw(0, view: MutedAppsView(mutes: AppMutes(), now: now)), "muted-apps-none-128x64")
        // An hour on, WhatsApp's mute is over: two rows.
        #expect(mutes.count(now: now.advanced(by: .seconds(3600))) == 2)
        #expect(draw(0, view: MutedAppsView(mutes: mutes, now: now.advanced(by: .seconds(3600)))) != draw(0, view: view))
    }

    @Test func thePickerScrollsThroughTheReplies() {
        Golden.check(image: draw(.replyPicker(Inbox.standup, selected: 0)), "reply-picker-128x64")
        Golden.check(image: draw(.replyPicker(Inbox.standup, selected: 4)), "reply-picker-128x64-last")
        Golden.check(image: draw(.replyPicker(Inbox.standup, selected: 2), height: 32), "reply-picker-128x32")
    }
}
