import ANCS
import Notifications
import Graphics
import HAL
import Screens
import Testing

/// Issue 15: the status bar's ANCS health mark, and the list's marking of
/// notifications kept from the previous session.
@Suite("Screens: ANCS health mark and the previous session")
struct HealthAndPreviousSessionTests {
    /// The inbox, with its health failing: a probe went unanswered.
    static func failingInbox() -> Fixture {
        let f = Inbox.make()
        let probeAt = f.phone.now.advanced(by: .seconds(15 * 60))
        f.consumer.handleDeadline(now: probeAt)
        #expect(f.phone.pending.last == [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00], "the probe went out")
        f.consumer.handleDeadline(now: probeAt.advanced(by: .seconds(5)))
        #expect(f.consumer.health.state == .failing)
        return f
    }

    /// A consumer whose session has not started: health unknown.
    static func unknownHealth() -> NotificationConsumer {
        let c = NotificationConsumer()
        #expect(c.health.state == .unknown)
        return c
    }

    @Test("health unknown: '?' beside the Bluetooth state, 128x64 and 128x32")
    func unknownMark() {
        let c = Self.unknownHealth()
        Golden.check(image: Panel().render(.idleClock, status(.connected, unread: 0), c), "health-unknown-idle-128x64")
        Golden.check(image: Panel(height: 32).render(.idleClock, status(.connected, unread: 0), c), "health-unknown-idle-128x32")
        Golden.check(image: Panel(height: 32).render(.message("Hello"), status(.connected, unread: 0), c), "health-unknown-notice-128x32")
    }

    @Test("health failing: '!' beside the Bluetooth state, 128x64 and 128x32")
    func failingMark() {
        let f = Self.failingInbox()
        Golden.check(image: Panel().render(.list(selected: 0), status(), f.consumer), "health-failing-list-128x64")
        Golden.check(image: Panel().render(.idleClock, status(), f.consumer), "health-failing-idle-128x64")
        Golden.check(image: Panel(height: 32).render(.idleClock, status(), f.consumer), "health-failing-idle-128x32")
    }

    @Test("no mark while health is ok, or while no phone is connected")
    func noMark() {
        let ok = Inbox.make()
        #expect(ok.consumer.health.state == .ok)
        Golden.check(image: Panel().render(.idleClock, status(), ok.consumer), "idle-128x64")
        let failing = Self.failingInbox()
        Golden.check(image: Panel().render(.list(selected: 0), status(), ok.consumer), "list-128x64-sel0")
        // Advertising (no phone): the link says it all.
        let waiting = Panel()
        waiting.renderer.setWatchName("WristCore 3F2A")
        Golden.check(image: waiting.render(.waitingForPhone, status(.advertising, unread: 0), failing.consumer), "waiting-128x64")
        Golden.check(image: Panel().render(.idleClock, status(.off, unread: 0), Self.unknownHealth()),
                     "health-none-link-off-128x64")
    }

    @Test("list: notifications from the previous session carry a small clock, 128x64 and 128x32")
    func previousSessionMarked() {
        let f = Inbox.make()
        f.consumer.sessionEnded(.disconnected, now: f.phone.now)
        #expect(f.consumer.previousSessionCount == 5)
        // A new session announces one new notification (not a kept one).
        f.consumer.sessionStarted(now: f.phone.now)
        f.post(9, category: .email, app: "com.apple.mobilemail", title: "New since", date: "20240314T184000")
        var marks: [Bool] = []
        f.consumer.forEachNotification { marks.append($0.isFromPreviousSession) }
        #expect(marks == [false, true, true, true, true, true])
        Golden.check(image: Panel().render(.list(selected: 0), status(), f.consumer), "list-128x64-previous-session")
        Golden.check(image: Panel().render(.list(selected: 2), status(), f.consumer), "list-128x64-previous-session-sel2")
        Golden.check(image: Panel(height: 32).render(.list(selected: 1), status(), f.consumer), "list-128x32-previous-session")
        // Kept ones still open (their text, the app name they had).
        let kept = f.consumer.notification(NotificationUID(NotificationConsumer.previousSessionUIDBase | 0))
        #expect(kept?.title == "Mom")
        #expect(kept?.appDisplayName == "Messages")
        #expect(kept?.flags.contains(.positiveAction) == false)
    }
}
