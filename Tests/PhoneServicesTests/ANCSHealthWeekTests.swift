import ANCS
import Notifications
import HAL
import Loop
import PhoneServices
import SimBoard
import Testing

/// Issue 15 item 1: a week on the wrist in well under 10 s of wall time.
/// The real PhoneSession (ANCS consumer, GATT client, ATT bearer) and the
/// simulated iPhone on a ManualLoop, every timer firing at its deadline.
/// The phone posts a notification every three hours; on day 1 it goes
/// silent (re-subscribing cures it); on day 3 it stops answering its
/// Control Point (the link is dropped and the phone reconnects); on days 5
/// and 6 it stays silent through several re-subscriptions.
@Suite("ANCS health: a simulated week")
struct ANCSHealthWeekTests {
    static let hour = Duration.seconds(3600)
    static let day = Duration.seconds(24 * 3600)

    @Test func aWeekWithASilentPhoneAndAnUnresponsiveControlPoint() throws {
        let started = ContinuousClock.now
        var config = SimulatedPhone.Configuration()
        config.preexisting = [
            SimulatedNotification(uid: 1, category: .email, appIdentifier: "com.apple.mobilemail", title: "Weekly report",
                                  date: "20240429T080000"),
        ]
        let w = try ManualWorld(config)
        let t0 = w.loop.now
        func at(_ d: Duration) -> MonotonicInstant { t0.advanced(by: d) }

        var nextUID: UInt32 = 100
        var posted: [String] = []
        /// The phone posts one notification and keeps at most eight.
        func post(_ when: Duration) {
            nextUID += 1
            let title = "Note \(nextUID)"
            w.phone.perform(.add(SimulatedNotification(
                uid: nextUID, category: .social, appIdentifier: "com.apple.MobileSMS", title: title,
                date: "2024050\(1 + Int(when / Self.day))T120000")))
            posted.append(title)
            if w.phone.provider.notifications.count > 8, let oldest = w.phone.provider.notifications.first {
                w.phone.perform(.remove(uid: oldest.uid))
            }
        }
        /// Runs to `end`, posting every three hours on the way.
        var nextPost = Duration.zero
        func run(to end: Duration) {
            while nextPost < end {
                w.run(until: at(nextPost))
                post(nextPost)
                nextPost += .seconds(3 * 3600)
            }
            w.run(until: at(end))
        }
        /// The watch stores what the phone holds now (once each).
        func inSync() -> Bool {
            let phone = w.phone.provider.notifications.map(\.title).sorted()
            return w.titles.sorted() == phone && w.consumer.previousSessionCount == 0
        }

        // Day 0: quiet, answered probes.
        run(to: Self.day + Self.hour * 12)
        #expect(w.resubscribingEvents().isEmpty)
        #expect(inSync())

        // Day 1, 12:00: silent. Six hours after its last event the watch
        // re-subscribes; what was withheld arrives.
        w.phone.goSilent()
        let silentAt = w.loop.now
        run(to: Self.day + Self.hour * 18 + .seconds(60))
        #expect(w.resubscribingEvents() == [.notificationSourceSilent])
        #expect(w.phone.resubscriptions == 1)
        #expect(!w.phone.isSilent)
        #expect(w.phone.eventsWithheld >= 1)
        #expect(w.events.contains { if case .ancsResubscribed = $0 { true } else { false } })
        _ = silentAt
        run(to: Self.day + Self.hour * 19)
        #expect(inSync(), "after re-subscribing: \(w.titles)")

        // Day 3, 10:00: the Control Point stops answering. The next probe
        // goes unanswered, re-subscribing cannot get through, the link drops;
        // the phone reconnects a minute later.
        run(to: Self.day * 3 + Self.hour * 10)
        w.phone.stopAnsweringControlPoint()
        let beforeDrop = w.linksClosed
        run(to: Self.day * 3 + Self.hour * 10 + .seconds(15 * 60 + 40))
        #expect(w.linksClosed == beforeDrop + 1)
        #expect(w.resubscribingEvents().last == .probeUnanswered)
        run(to: Self.day * 3 + Self.hour * 10 + .seconds(17 * 60))
        try w.reconnect()
        run(to: Self.day * 3 + Self.hour * 11)
        #expect(inSync(), "after the reconnect: \(w.titles)")

        // Days 5 and 6: silent through re-subscriptions (from day 5 00:00,
        // its last event was at day 4 21:00) until day 6 04:00.
        run(to: Self.day * 5)
        w.phone.silenceSurvivesResubscribe = true
        w.phone.goSilent()
        let resubscribesBefore = w.phone.resubscriptions
        run(to: Self.day * 6 + Self.hour * 4)
        #expect(w.phone.isSilent)
        w.phone.silenceSurvivesResubscribe = false
        run(to: Self.day * 6 + Self.hour * 10)
        #expect(!w.phone.isSilent)
        #expect(w.phone.resubscriptions - resubscribesBefore == 6, "every six hours: day 5 03, 09, 15, 21, day 6 03, 09")
        run(to: Self.day * 7)
        #expect(inSync())

        let h = w.consumer.health
        let wall = ContinuousClock.now - started
        print("simulated week: wall \(wall), timer firings \(w.loop.timerFirings), probes \(h.probes) (answered \(h.probesAnswered), unanswered \(h.probesUnanswered)), re-subscriptions \(h.resubscribes) (failed \(h.resubscribeFailures)), links dropped \(w.linksClosed), notifications posted \(posted.count)")
        #expect(h.resubscribes == 8, "1 (day 1) + 1 (day 3, failed) + 6 (days 5-6)")
        #expect(h.resubscribeFailures == 1)
        #expect(h.probesUnanswered == 1)
        #expect(h.probes >= 500 && h.probesAnswered == h.probes - 1, "a probe after every quiet quarter hour")
        #expect(w.linksClosed == 1)
        #expect(h.state == .ok)
        #expect(w.loop.timerFirings >= 600)
        #expect(wall < .seconds(10))
    }
}
