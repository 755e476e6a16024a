import HAL
import Testing

@testable import ANCS
import Notifications

/// Issue 19 item 3: a fetch that timed out or failed is retried (1 s, then
/// 4 s later, through `nextDeadline`), and opening an entry fetches
/// whatever it lacks, not only its Message.
@Suite("Fetch retries")
struct FetchRetryTests {
    /// The attribute IDs of Get Notification Attributes command `n`.
    static func attributes(_ h: Harness, _ n: Int) -> [UInt8] {
        guard case .getNotificationAttributes(_, let list)? = try? ControlPointCommand(parsing: h.recorder.writes[n]) else {
            return []
        }
        return list.map(\.id)
    }

    @Test("a timed-out fetch is sent again 1 s later, then 4 s after that, then given up")
    func timedOutFetchIsRetriedTwice() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        #expect(h.requestedUIDs == [1])
        // The phone takes each write but never answers on the Data Source.
        h.ack()
        h.advance(.seconds(5))
        #expect(h.consumer.statistics.timeouts == 1)
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .seconds(1)), "the retry is the next deadline")
        h.advance(.milliseconds(999))
        #expect(h.requestedUIDs == [1])
        h.advance(.milliseconds(1))
        #expect(h.requestedUIDs == [1, 1], "first retry after 1 s")
        h.ack()
        h.advance(.seconds(5))
        h.advance(.milliseconds(3999))
        #expect(h.requestedUIDs == [1, 1])
        h.advance(.milliseconds(1))
        #expect(h.requestedUIDs == [1, 1, 1], "second retry after 4 s")
        h.ack()
        h.advance(.seconds(5))
        #expect(h.consumer.statistics.timeouts == 3)
        h.advance(.seconds(60))
        #expect(h.requestedUIDs == [1, 1, 1], "bounded: no third retry")
        #expect(h.onlyLivenessTimed)
        #expect(h.consumer.notification(NotificationUID(1))?.isFetchPending == false)
    }

    @Test("a retry that is answered fills the entry")
    func retryFillsTheEntry() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.ack()
        h.advance(.seconds(5))
        #expect(h.consumer.notification(NotificationUID(1))?.title == nil, "blank after the timeout")
        h.advance(.seconds(1))
        h.answer()
        #expect(h.consumer.notification(NotificationUID(1))?.title == "one")
        #expect(h.onlyLivenessTimed)
    }

    @Test("a failed write (ATT error, malformed answer) is retried; 0xA2 (UID gone) is not")
    func failuresOtherThanGoneAreRetried() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.fail(0x0E)  // unlikely error
        #expect(h.takeEvents().contains(.fetchFailed(NotificationUID(1), .att(0x0E))))
        h.advance(.seconds(1))
        #expect(h.requestedUIDs == [1, 1])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(1))?.title == "one")

        h.post(2, title: "two")
        h.fail(0xA2)
        h.advance(.seconds(10))
        #expect(h.requestedUIDs == [1, 1, 2], "the phone says UID 2 does not exist")
    }

    @Test("other notifications are fetched while a retry waits")
    func othersGoWhileARetryWaits() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.post(2, title: "two")
        h.ack()
        h.advance(.seconds(5))  // 1 timed out; 2 is sent at once
        #expect(h.requestedUIDs == [1, 2])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(2))?.title == "two")
        h.advance(.seconds(1))
        #expect(h.requestedUIDs == [1, 2, 1])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(1))?.title == "one")
    }

    @Test("a notification removed while its retry waits is not fetched")
    func removedWhileWaiting() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.ack()
        h.advance(.seconds(5))
        h.ns(.removed, 1)
        h.advance(.seconds(10))
        #expect(h.requestedUIDs == [1])
        #expect(h.onlyLivenessTimed)
    }

    @Test("opening an entry whose fetch was given up fetches everything it lacks")
    func openingFetchesWhatIsMissing() {
        let h = Harness { $0.fetchAppNames = false; $0.fetchRetryDelays = [] }
        h.post(1, title: "one", flags: [.positiveAction])
        h.ack()
        h.advance(.seconds(5))
        #expect(h.requestedUIDs == [1])
        #expect(h.consumer.notification(NotificationUID(1))?.title == nil)
        h.consumer.notificationShown(NotificationUID(1), now: h.now)
        #expect(h.requestedUIDs == [1, 1])
        // AppIdentifier, Title, the positive label, Message and MessageSize:
        // not only the Message.
        #expect(Self.attributes(h, 1) == [0, 1, 6, 3, 4])
        h.answer()
        let n = h.consumer.notification(NotificationUID(1))
        #expect(n?.title == "one")
        #expect(n?.message == "hello")
        #expect(n?.positiveActionLabel == "Answer")
    }

    @Test("opening an entry while its retry waits fetches it at once")
    func openingBringsTheRetryForward() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.ack()
        h.advance(.seconds(5))
        #expect(h.requestedUIDs == [1])
        h.consumer.notificationShown(NotificationUID(1), now: h.now)
        #expect(h.requestedUIDs == [1, 1])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(1))?.title == "one")
        #expect(h.consumer.notification(NotificationUID(1))?.message == "hello")
        #expect(h.onlyLivenessTimed, "no retry left waiting")
    }

    @Test("opening an entry asks again for an app name whose lookup failed")
    func openingRetriesAFailedAppName() {
        let h = Harness()
        h.post(1, title: "one", app: "com.example.chat")
        h.answerAll()  // the app name is unknown: 0xA2
        #expect(h.consumer.notification(NotificationUID(1))?.appDisplayName == nil)
        let appWrites = { h.recorder.writes.filter { $0.first == 0x01 }.count }
        #expect(appWrites() == 1)
        h.appNames["com.example.chat"] = "Chat"
        h.consumer.notificationShown(NotificationUID(1), now: h.now)
        h.answerAll()
        #expect(appWrites() == 2)
        #expect(h.consumer.notification(NotificationUID(1))?.appDisplayName == "Chat")
    }

    @Test("a partial answer before the timeout is kept and the retry asks again")
    func partialAnswerThenRetry() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.answer(cutAfter: 5 + 3 + 19 + 3 + 1)  // AppIdentifier complete, Title cut
        h.advance(.seconds(5))
        #expect(h.consumer.notification(NotificationUID(1))?.appIdentifier == "com.apple.MobileSMS")
        #expect(h.consumer.notification(NotificationUID(1))?.isFetchPending == true)
        h.advance(.seconds(1))
        #expect(h.requestedUIDs == [1, 1])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(1))?.title == "one")
    }

    @Test("retries end with the session")
    func sessionEndDropsRetries() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.advance(.seconds(5))
        h.consumer.sessionEnded(.unsubscribed, now: h.now)
        h.ack()  // the write outcome is still awaited after an unsubscribe
        h.consumer.sessionStarted(now: h.now)
        #expect(h.onlyLivenessTimed)
    }
}
