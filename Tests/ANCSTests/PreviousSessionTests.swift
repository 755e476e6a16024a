import ANCS
import Notifications
import HAL
import Testing

@testable import ANCS

/// Issue 15 item 4 in the consumer: what a session showed is kept when it
/// ends, reconciled with the next session's announcements, and bounded.
@Suite("The previous session's notifications")
struct PreviousSessionTests {
    static let base = NotificationConsumer.previousSessionUIDBase

    /// A session with Mom (1), Bob (2, with actions), a ringing call (3) and
    /// one whose attributes never came (4), then a disconnect.
    static func endedSession() -> Harness {
        let h = Harness { $0.fetchDate = true }
        h.appNames["com.apple.MobileSMS"] = "Messages"
        h.post(1, title: "Mom")
        h.answerAll()
        h.post(2, title: "Bob", flags: [.positiveAction, .negativeAction])
        h.answerAll()
        h.post(3, title: "Dad", category: .incomingCall)
        h.answerAll()
        h.ns(.added, 4)  // never answered
        h.consumer.sessionEnded(.disconnected, now: h.now)
        _ = h.takeEvents()
        return h
    }

    static func kept(_ c: NotificationConsumer) -> [(uid: UInt32, title: String)] {
        var k: [(UInt32, String)] = []
        c.forEachNotification { if $0.isFromPreviousSession { k.append(($0.uid.rawValue, $0.title ?? "")) } }
        return k
    }

    @Test("kept: what has something to show, under the watch's own UIDs, with its app name and without actions")
    func kept() throws {
        let h = Self.endedSession()
        let kept = Self.kept(h.consumer)
        try #require(kept.map(\.title) == ["Bob", "Mom"], "the call and the blank one are not kept")
        #expect(kept.allSatisfy { $0.uid >= Self.base })
        #expect(h.consumer.notificationCount == 2 && h.consumer.previousSessionCount == 2)
        #expect(h.consumer.notification(NotificationUID(1)) == nil)
        let bob = try #require(h.consumer.notification(NotificationUID(kept[0].uid)))
        #expect(bob.appDisplayName == "Messages")
        #expect(!bob.flags.contains(.positiveAction) && !bob.flags.contains(.negativeAction))
        #expect(bob.date == Array("20240314T183005".utf8).withUnsafeBytes { ANCSDate.parse($0) })
        #expect(h.consumer.statistics.previousSessionKept == 2)
        // Nothing reaches the phone for them.
        h.consumer.sessionStarted(now: h.now)
        let writes = h.writeCount
        h.consumer.notificationShown(bob.uid, now: h.now)
        #expect(throws: ANCSActionError.unknownNotification(bob.uid)) {
            try h.consumer.performAction(.positive, on: bob.uid, now: h.now)
        }
        #expect(h.writeCount == writes)
    }

    @Test("reconciled: the same app, title and date is the same entry; the rest goes once announcements settle")
    func reconciled() throws {
        let h = Self.endedSession()
        let kept = Self.kept(h.consumer)
        try #require(kept.count == 2)
        h.consumer.sessionStarted(now: h.now)
        // The new session numbers afresh: Mom is 7; Bob's date differs: another Bob.
        h.phone[2] = nil
        h.phone[7] = [.appIdentifier: Array("com.apple.MobileSMS".utf8), .title: Array("Mom".utf8),
                      .date: Array("20240314T183005".utf8)]
        h.phone[8] = [.appIdentifier: Array("com.apple.MobileSMS".utf8), .title: Array("Bob".utf8),
                      .date: Array("20240315T090000".utf8)]
        h.ns(.added, 7, flags: .preExisting)
        h.ns(.added, 8, flags: .preExisting)
        h.answerAll()
        let momKept = NotificationUID(kept[1].uid), bobKept = NotificationUID(kept[0].uid)
        let events = h.takeEvents()
        #expect(events.contains(.notificationRemoved(momKept, .reannounced(NotificationUID(7)))))
        #expect(!events.contains { if case .notificationRemoved(bobKept, _) = $0 { true } else { false } })
        #expect(h.consumer.previousSessionCount == 1)
        h.advance(.milliseconds(1_999))
        #expect(h.consumer.previousSessionCount == 1, "announcements not settled yet")
        h.advance(.milliseconds(1))
        #expect(h.takeEvents() == [.notificationRemoved(bobKept, .notReannounced)])
        #expect(h.consumer.previousSessionCount == 0)
        #expect(h.consumer.notificationCount == 2)
        #expect(h.consumer.statistics.previousSessionReannounced == 1 && h.consumer.statistics.previousSessionDropped == 1)
    }

    @Test("reconciliation is bounded: fetches that never come end it at reconcileTimeout")
    func reconciliationTimeout() {
        let h = Self.endedSession()
        h.consumer.sessionStarted(now: h.now)
        h.ns(.added, 7, flags: .preExisting)  // its fetch will never be answered
        h.advance(.seconds(59))
        #expect(h.consumer.previousSessionCount == 2)
        h.advance(.seconds(1))
        #expect(h.consumer.previousSessionCount == 0)
    }

    @Test("bounded: kept ones share the store and are evicted first, even by pre-existing newcomers")
    func evictedFirst() {
        let h = Harness { $0.storeCapacity = 3 }
        for uid in UInt32(1)...3 {
            h.post(uid, title: "old\(uid)")
            h.answerAll()
        }
        h.consumer.sessionEnded(.disconnected, now: h.now)
        #expect(h.consumer.previousSessionCount == 3)
        h.consumer.sessionStarted(now: h.now)
        _ = h.takeEvents()
        h.ns(.added, 10, flags: .preExisting)
        h.ns(.added, 11, flags: .preExisting)
        #expect(Self.kept(h.consumer).map(\.title) == ["old3"], "the oldest kept ones made room")
        #expect(h.takeEvents().filter { if case .notificationRemoved(_, .evicted) = $0 { true } else { false } }.count == 2)
    }

    @Test("a phone UID in the watch's range pushes the kept entry under it out")
    func uidCollision() throws {
        let h = Self.endedSession()
        let kept = Self.kept(h.consumer)
        try #require(kept.count == 2)
        h.consumer.sessionStarted(now: h.now)
        _ = h.takeEvents()
        h.post(kept[0].uid, title: "odd uid")
        #expect(h.takeEvents().first == .notificationRemoved(NotificationUID(kept[0].uid), .notReannounced))
        #expect(h.consumer.notification(NotificationUID(kept[0].uid))?.isFromPreviousSession == false)
    }

    @Test("keepsPreviousSession off: a session's end empties the store, as before")
    func off() {
        let h = Harness { $0.keepsPreviousSession = false }
        h.post(1, title: "Mom")
        h.answerAll()
        h.consumer.sessionEnded(.disconnected, now: h.now)
        #expect(h.consumer.notificationCount == 0)
    }

    @Test("a new link's consumer adopts the kept ones (the newest when short of room) and the health counters")
    func adoption() throws {
        let h = Self.endedSession()
        let next = NotificationConsumer()
        next.adoptPreviousSession(from: h.consumer, now: h.now)
        try #require(Self.kept(next).map(\.title) == ["Bob", "Mom"])
        #expect(next.notification(NotificationUID(Self.kept(next)[0].uid))?.appDisplayName == "Messages")
        #expect(next.health.lastResult == h.consumer.health.lastResult)
        let small = NotificationConsumer(configuration: { var c = NotificationConsumer.Configuration(); c.storeCapacity = 1; return c }())
        small.adoptPreviousSession(from: h.consumer, now: h.now)
        #expect(Self.kept(small).map(\.title) == ["Bob"])
        small.adoptPreviousSession(from: small, now: h.now)
        #expect(small.notificationCount == 1)
    }
}
