import ANCS
import Notifications
import HAL
import Testing

@testable import ANCS

/// Issue 15 item 1 in the consumer: health on by default, nothing stuck in
/// flight, and the record the status bar, the harness and systemd show.
@Suite("ANCS health in the consumer")
struct HealthTests {
    @Test("the record: unknown before a session, ok once subscribed, failing when a check fails, ok again on traffic")
    func states() {
        let c = NotificationConsumer()
        #expect(c.health.state == .unknown && c.health.lastResult == .none)
        let h = Harness()
        #expect(h.consumer.health.state == .ok && h.consumer.health.lastResult == .subscribed)
        #expect(h.consumer.health.lastNotificationSource == nil)
        h.advance(.seconds(900))
        h.fail(0x03)  // refused with another error
        #expect(h.consumer.health.state == .failing && h.consumer.health.lastResult == .probeRejected)
        h.post(1, title: "t")
        #expect(h.consumer.health.state == .ok, "Notification Source traffic")
        #expect(h.consumer.health.lastNotificationSource == h.now)
        #expect(h.consumer.health.notificationSourceAge(at: h.now.advanced(by: .seconds(7))) == .seconds(7))
        h.answerAll()
        h.advance(.seconds(900))
        h.fail(0xA2)
        #expect(h.consumer.health.lastResult == .probeAnswered && h.consumer.health.probesAnswered == 1)
        h.advance(.seconds(900))
        h.advance(.seconds(5))
        #expect(h.consumer.health.state == .failing && h.consumer.health.lastResult == .probeUnanswered)
        #expect(h.consumer.health.probes == 3 && h.consumer.health.probesUnanswered == 1)
        h.consumer.sessionEnded(.disconnected, now: h.now)
        #expect(h.consumer.health.state == .unknown)
    }

    @Test("re-subscribing: started (session ends, failing), then a new session (ok, resubscribed), or failed")
    func resubscribeBookkeeping() {
        let h = Harness()
        _ = h.takeEvents()
        h.consumer.resubscribeStarted(now: h.now)
        #expect(h.takeEvents() == [.sessionEnded(.resubscribing)])
        #expect(h.consumer.health.state == .failing && h.consumer.health.lastResult == .resubscribing)
        #expect(h.consumer.health.resubscribes == 1)
        h.consumer.sessionStarted(now: h.now)
        #expect(h.consumer.health.state == .ok && h.consumer.health.lastResult == .resubscribed)
        h.consumer.resubscribeStarted(now: h.now)
        h.consumer.resubscribeFailed(now: h.now)
        #expect(h.consumer.health.resubscribes == 2 && h.consumer.health.resubscribeFailures == 1)
        #expect(h.consumer.health.lastResult == .resubscribeFailed)
    }

    @Test("six hours without a Notification Source event recommend re-subscribing, with answered probes meanwhile")
    func sixHoursOfSilence() {
        let h = Harness()
        _ = h.takeEvents()
        var probes = 0
        for _ in 0..<(6 * 4 - 1) {
            h.advance(.seconds(900))
            h.fail(0xA2)
            probes += 1
        }
        #expect(h.takeEvents() == Array(repeating: .livenessProbe(.alive), count: probes))
        h.advance(.seconds(900))
        #expect(h.takeEvents() == [.resubscribeRecommended(.notificationSourceSilent)])
        #expect(h.consumer.health.lastResult == .silent && h.consumer.health.state == .failing)
        #expect(h.writeCount == probes, "no probe in the pass that recommends re-subscribing")
    }

    @Test("a write whose outcome never comes is forgotten after writeOutcomeTimeout: the queue moves again")
    func stuckWriteWatchdog() {
        let h = Harness { $0.fetchRetryDelays = [] }
        h.post(1, title: "one")
        #expect(h.writeCount == 1)
        _ = h.takeEvents()
        h.advance(.seconds(5))
        #expect(h.takeEvents() == [.fetchFailed(NotificationUID(1), .timedOut)])
        h.post(2, title: "two")
        #expect(h.writeCount == 1, "the outcome of the first write is still awaited")
        h.advance(.seconds(29))
        #expect(h.writeCount == 1)
        h.advance(.seconds(1))
        let events = h.takeEvents()
        #expect(events.contains(.resubscribeRecommended(.controlPointStuck)))
        #expect(h.consumer.health.stuckRequestsCleared == 1 && h.consumer.health.lastResult == .stuckRequestCleared)
        #expect(h.writeCount == 2, "the next request went out")
        #expect(h.requestedUIDs.last == 2)
        // A late outcome of the forgotten write is reported, not misread.
        h.answered = h.writeCount
        h.ack()
        h.ack()
        #expect(h.takeEvents().last == .protocolError(.unexpectedWriteResponse))
    }

    @Test("an answer that trickles in is dropped at requestMaxAge however often it restarts the timeout")
    func boundedRequestAge() {
        let h = Harness { $0.fetchRetryDelays = [] }
        h.post(1, title: "a title")
        h.ack()
        let response = DataSourceResponseEncoder.notificationAttributes(
            uid: NotificationUID(1), [EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "a title")])
        #expect(response.count > 8)
        _ = h.takeEvents()
        // A byte every 4 s: each restarts the 5 s timeout.
        for k in 0..<7 {
            h.consumer.dataSourceReceived([response[k]], now: h.now)
            h.advance(.seconds(4))
        }
        #expect(h.takeEvents().isEmpty, "still in flight at 28 s")
        h.consumer.dataSourceReceived([response[7]], now: h.now)  // would restart it until 33 s
        h.advance(.seconds(1))
        #expect(h.takeEvents().isEmpty)
        h.advance(.seconds(1))
        #expect(h.takeEvents() == [.fetchFailed(NotificationUID(1), .timedOut)], "30 s after it was sent")
        #expect(h.consumer.statistics.timeouts == 1)
    }

    @Test("in a simulated week of quiet with a notification every 3 h, a probe after every quiet quarter hour")
    func aQuietWeek() {
        let h = Harness()
        var fired = 0
        var uid: UInt32 = 0
        let end = h.now.advanced(by: .seconds(7 * 24 * 3600))
        var nextPost = h.now
        while h.now < end {
            if h.now >= nextPost {
                uid += 1
                h.post(uid, title: "n\(uid)")
                h.answerAll()
                nextPost = nextPost.advanced(by: .seconds(3 * 3600))
            }
            guard let d = h.consumer.nextDeadline else { break }
            h.now = min(d, nextPost, end)
            if h.now >= nextPost { continue }  // the post first, as it comes first
            if h.now >= d {
                h.consumer.handleDeadline(now: h.now)
                fired += 1
                h.answerAll()  // the probe: 0xA2 (no such UID on the phone)
            }
        }
        #expect(h.consumer.health.probes == 7 * 8 * 11, "11 probes between posts three hours apart")
        #expect(h.consumer.health.probesAnswered == h.consumer.health.probes)
        #expect(fired >= h.consumer.health.probes)
        #expect(h.consumer.health.resubscribes == 0)
    }
}
