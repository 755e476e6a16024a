import ANCS
import Notifications
import GATT
import HAL
import Loop
import PhoneServices
import SimBoard
import Testing

/// Issue 15 item 1: ANCS health, on by default, through the real
/// PhoneSession against the simulated iPhone on a manual clock.
@Suite("ANCS health through PhoneSession (manual clock)")
struct ANCSHealthTests {
    static let anna = SimulatedNotification(
        uid: 1, category: .social, appIdentifier: "com.apple.MobileSMS", title: "Anna", message: "Lunch?",
        date: "20240501T110000")

    static func note(_ uid: UInt32, _ title: String, date: String = "20240501T120000") -> SimulatedNotification {
        SimulatedNotification(uid: uid, category: .social, appIdentifier: "com.apple.MobileSMS", title: title, date: date)
    }

    @Test func aQuietPhoneIsProbedEveryFifteenMinutesAndAnswers() throws {
        let w = try ManualWorld()
        #expect(w.consumer.health.state == .ok)
        #expect(w.consumer.health.lastResult == .subscribed)
        w.run(for: .seconds(15 * 60 - 1))
        #expect(w.consumer.health.probes == 0)
        w.run(for: .seconds(1))
        #expect(w.phone.log.last == "control point get notification attributes 4294967295 -> error 0xA2")
        #expect(w.consumer.health.probes == 1 && w.consumer.health.probesAnswered == 1)
        #expect(w.consumer.health.lastResult == .probeAnswered)
        w.run(for: .seconds(3600))
        #expect(w.consumer.health.probes == 5 && w.consumer.health.probesAnswered == 5)
        #expect(w.consumer.health.state == .ok)
        #expect(w.resubscribingEvents().isEmpty)
    }

    /// The phone keeps its subscription but sends nothing: six hours after
    /// the last Notification Source event the watch writes both CCCDs off
    /// and on again (the phone sees it), and what the phone announced
    /// meanwhile arrives (as pre-existing).
    @Test func aSilentPhoneIsResubscribedAfterSixHours() throws {
        var config = SimulatedPhone.Configuration()
        config.preexisting = [Self.anna]
        let w = try ManualWorld(config)
        #expect(w.titles == ["Anna"])
        w.phone.goSilent()
        let mark = w.phone.log.count
        w.phone.perform(.add(Self.note(2, "Withheld")))
        #expect(w.phone.eventsWithheld == 1)
        w.run(for: .seconds(6 * 3600 - 1))
        #expect(w.resubscribingEvents().isEmpty)
        #expect(w.titles == ["Anna"])
        w.run(for: .seconds(1))
        #expect(w.resubscribingEvents() == [.notificationSourceSilent])
        #expect(w.phone.resubscriptions == 1)
        let cccd = w.phoneLog(since: mark).filter {
            $0.hasPrefix("ancs session") || $0.hasPrefix("data source") && $0.hasSuffix("subscribed")
        }
        #expect(cccd == ["ancs session ended", "data source unsubscribed", "data source subscribed", "ancs session started"])
        #expect(w.events.contains { if case .ancsResubscribed = $0 { true } else { false } })
        #expect(w.titles.sorted() == ["Anna", "Withheld"], "re-announced: the withheld one arrives, Anna once")
        #expect(w.consumer.previousSessionCount == 0)
        let h = w.consumer.health
        #expect(h.resubscribes == 1 && h.resubscribeFailures == 0)
        #expect(h.lastResult == .resubscribed && h.state == .ok)
        #expect(h.probes == 23 && h.probesAnswered == 23, "probed every 15 minutes meanwhile (the 24th is superseded)")
        #expect(w.linksClosed == 0)
    }

    /// The phone stops answering the Control Point at the ATT level: the
    /// probe gets nothing, re-subscribing is tried, and the link goes down
    /// (the ATT transaction times out), so the phone reconnects.
    @Test func aPhoneThatStopsAnsweringTheControlPointIsDropped() throws {
        let w = try ManualWorld()
        w.phone.stopAnsweringControlPoint()
        w.run(for: .seconds(15 * 60))
        #expect(w.phone.log.last == "control point get notification attributes 4294967295 -> no answer")
        w.run(for: .seconds(5))
        #expect(w.consumer.health.lastResult == .resubscribing)
        #expect(w.consumer.health.state == .failing)
        #expect(w.resubscribingEvents() == [.probeUnanswered])
        #expect(w.linksClosed == 0)
        w.run(for: .seconds(25))
        #expect(w.linksClosed == 1, "the probe's ATT transaction timed out: link dropped")
        #expect(w.events.contains { if case .closed(.transactionTimeout) = $0 { true } else { false } })
        let h = w.consumer.health
        #expect(h.probesUnanswered == 1 && h.resubscribes == 1 && h.resubscribeFailures == 1)
        #expect(h.lastResult == .resubscribeFailed)
        #expect(w.loop.nextDeadline == nil || w.session.bearer.isClosed, "nothing left waiting on the dead link")
    }

    /// A re-subscription that does not finish in `resubscribeTimeout` (here
    /// the ATT timeout is longer) drops the link itself.
    @Test func aResubscriptionThatHangsDropsTheLink() throws {
        var bearer = ATTBearer.Configuration()
        bearer.transactionTimeout = .seconds(600)
        let w = try ManualWorld(bearer: bearer)
        w.phone.stopAnsweringControlPoint()
        w.run(for: .seconds(15 * 60 + 5))
        #expect(w.resubscribingEvents() == [.probeUnanswered])
        w.run(for: PhoneSession.resubscribeTimeout - .seconds(1))
        #expect(w.linksClosed == 0)
        w.run(for: .seconds(1))
        #expect(w.events.contains { if case .ancsResubscribeFailed(.bearer(.transactionTimeout)) = $0 { true } else { false } })
        #expect(w.linksClosed == 1)
        #expect(w.session.bearer.isClosed)
    }

    /// A phone whose Control Point answers again after a reconnect: the new
    /// session takes over the kept notifications and reconciles them.
    @Test func afterTheDropTheReconnectedPhoneReconciles() throws {
        var config = SimulatedPhone.Configuration()
        config.preexisting = [Self.anna, Self.note(2, "Bob")]
        let w = try ManualWorld(config)
        #expect(w.titles == ["Bob", "Anna"])
        w.phone.stopAnsweringControlPoint()
        w.run(for: .seconds(15 * 60 + 35))
        #expect(w.linksClosed == 1)
        #expect(w.consumer.previousSessionCount == 2)
        w.phone.perform(.remove(uid: 2))  // gone on the phone while apart
        w.run(for: .seconds(60))
        try w.reconnect()
        #expect(w.consumer.previousSessionCount == 1, "Anna re-announced and reconciled at once; Bob waits")
        w.run(for: .seconds(3))
        #expect(w.consumer.previousSessionCount == 0)
        #expect(w.titles == ["Anna"], "Anna re-announced once; Bob, not re-announced, dropped")
        #expect(w.consumer.statistics.previousSessionReannounced == 1)
        #expect(w.consumer.statistics.previousSessionDropped == 1)
        #expect(w.consumer.health.resubscribeFailures == 1, "the history follows the watch across links")
    }
}
