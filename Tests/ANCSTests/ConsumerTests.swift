import ANCS
import Notifications
import HAL
import Testing
@testable import ANCS

final class Recorder: ANCSConsumerSink {
    var writes: [[UInt8]] = []
    var events: [ANCSEvent] = []
    var onWrite: ((UnsafeRawBufferPointer) -> Void)?
    /// What the next writes return (`.notSent`: the link refused them at once).
    var writeResult = ControlPointWrite.sent
    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        writes.append(Array(command))
        onWrite?(command)
        return writeResult
    }
    func ancsEvent(_ event: ANCSEvent) { events.append(event) }
}

/// The consumer with a scripted phone around it.
final class Harness {
    let recorder = Recorder()
    let consumer: NotificationConsumer
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    /// The phone's notifications, for answering Get Notification Attributes.
    var phone: [UInt32: [NotificationAttributeID: [UInt8]]] = [:]
    var appNames: [String: String] = [:]
    var mtu = 23

    init(_ configure: (inout NotificationConsumer.Configuration) -> Void = { _ in }) {
        var c = NotificationConsumer.Configuration()
        configure(&c)
        consumer = NotificationConsumer(configuration: c, sink: recorder)
        consumer.sessionStarted(now: now)
    }

    func ns(_ event: EventID, _ uid: UInt32, flags: EventFlags = [], category: CategoryID = .social, count: UInt8 = 1) {
        let e = NotificationSourceEvent(eventID: event, flags: flags, category: category, categoryCount: count, uid: NotificationUID(uid))
        consumer.notificationSourceReceived(e.bytes, now: now)
    }

    /// Adds a notification on the phone and announces it.
    func post(_ uid: UInt32, title: String, app: String = "com.apple.MobileSMS", message: String = "hello",
              flags: EventFlags = [], category: CategoryID = .social) {
        phone[uid] = [
            .appIdentifier: Array(app.utf8), .title: Array(title.utf8), .message: Array(message.utf8),
            .messageSize: Array(String(message.utf8.count).utf8), .date: Array("20240314T183005".utf8),
            .positiveActionLabel: Array("Answer".utf8), .negativeActionLabel: Array("Decline".utf8),
            .subtitle: Array("sub".utf8),
        ]
        ns(.added, uid, flags: flags, category: category)
    }

    var writeCount: Int { recorder.writes.count }
    var lastWrite: ControlPointCommand? { recorder.writes.last.flatMap { try? ControlPointCommand(parsing: $0) } }

    func ack() { consumer.controlPointWriteSucceeded(now: now) }
    func fail(_ code: UInt8) { consumer.controlPointWriteFailed(attErrorCode: code, now: now) }

    /// Answers the last command like a phone: write response, then the Data
    /// Source response in MTU-3 sized notifications.
    /// Writes answered so far (the phone answers each write once).
    var answered = 0

    func answer(cutAfter limit: Int? = nil) {
        guard writeCount > answered, let command = lastWrite else { return }
        answered = writeCount
        switch command {
        case .getNotificationAttributes(let uid, let attributes):
            guard let values = phone[uid.rawValue] else {
                fail(0xA2)
                return
            }
            ack()
            let attrs = attributes.map { a -> EncodedAttribute in
                var v = values[NotificationAttributeID(rawValue: a.id)] ?? []
                if a.sendsMaxLength { v = Array(v.prefix(Int(a.maxLength))) }
                return EncodedAttribute(id: a.id, value: v)
            }
            send(DataSourceResponseEncoder.notificationAttributes(uid: uid, attrs), cutAfter: limit)
        case .getAppAttributes(let id, let attributes):
            guard let name = appNames[String(decoding: id, as: UTF8.self)] else {
                fail(0xA2)
                return
            }
            ack()
            send(DataSourceResponseEncoder.appAttributes(appIdentifier: id, attributes.map { EncodedAttribute(id: $0.id, value: Array(name.utf8)) }), cutAfter: limit)
        case .performNotificationAction:
            ack()
        }
    }

    func send(_ response: [UInt8], cutAfter limit: Int? = nil) {
        let bytes = limit.map { Array(response.prefix($0)) } ?? response
        var i = 0
        while i < bytes.count {
            let j = min(bytes.count, i + mtu - 3)
            consumer.dataSourceReceived(Array(bytes[i..<j]), now: now)
            i = j
        }
    }

    /// Answers every command until the consumer has nothing left to ask.
    func answerAll(limit: Int = 10_000) {
        var rounds = 0
        while writeCount > answered && rounds < limit {
            answer()
            rounds += 1
        }
    }

    func advance(_ d: Duration) {
        now = now.advanced(by: d)
        while let deadline = consumer.nextDeadline, deadline <= now {
            consumer.handleDeadline(now: now)
        }
    }

    func takeEvents() -> [ANCSEvent] {
        defer { recorder.events.removeAll() }
        return recorder.events
    }

    /// No request, retry or response is timed: at most the liveness checks
    /// (on by default), which are many minutes away.
    var onlyLivenessTimed: Bool {
        guard let d = consumer.nextDeadline else { return true }
        return d.duration(since: now) >= .seconds(10 * 60)
    }

    func requestedUID(_ n: Int) -> UInt32? {
        guard n < recorder.writes.count, case .getNotificationAttributes(let uid, _)? = try? ControlPointCommand(parsing: recorder.writes[n]) else { return nil }
        return uid.rawValue
    }

    var requestedUIDs: [UInt32] { (0..<recorder.writes.count).compactMap { requestedUID($0) } }
}

@Suite("Notification Consumer")
struct ConsumerTests {
    @Test("add → fetch → modify → remove")
    func lifecycle() throws {
        let h = Harness()
        #expect(h.takeEvents() == [.sessionStarted])
        h.post(10, title: "Mom", message: "Dinner?")
        let info = NotificationInfo(uid: NotificationUID(10), flags: [], category: .social, categoryCount: 1)
        #expect(h.takeEvents() == [.notificationAdded(info)])
        // Fetch policy: AppIdentifier and Title only (no actions, not important).
        #expect(h.lastWrite == .getNotificationAttributes(uid: NotificationUID(10), attributes: [
            AttributeRequest(id: 0, maxLength: 0, sendsMaxLength: false), AttributeRequest(id: 1, maxLength: 64, sendsMaxLength: true),
        ]))
        h.appNames["com.apple.MobileSMS"] = "Messages"
        h.answer()
        #expect(h.takeEvents() == [.attributesReady(NotificationUID(10), [.appIdentifier, .title])])
        // Then the app's display name, once.
        #expect(h.lastWrite == .getAppAttributes(appIdentifier: Array("com.apple.MobileSMS".utf8), attributes: [AttributeRequest(id: 0, maxLength: 0, sendsMaxLength: false)]))
        h.answer()
        #expect(h.takeEvents() == [.attributesReady(NotificationUID(10), .appDisplayName)])
        let n = try #require(h.consumer.notification(NotificationUID(10)))
        #expect(n.title == "Mom")
        #expect(n.appIdentifier == "com.apple.MobileSMS")
        #expect(n.appDisplayName == "Messages")
        #expect(n.message == nil)
        #expect(Array(n.bytes(.title)) == Array("Mom".utf8))
        #expect(!n.isFetchPending)

        // Modified: refetched.
        h.phone[10]![.title] = Array("Mom (2)".utf8)
        let writes = h.writeCount
        h.ns(.modified, 10, count: 2)
        #expect(h.writeCount == writes + 1)
        h.answer()
        #expect(h.takeEvents() == [
            .notificationModified(NotificationInfo(uid: NotificationUID(10), flags: [], category: .social, categoryCount: 2)),
            .attributesReady(NotificationUID(10), [.appIdentifier, .title, .appDisplayName]),
        ])
        #expect(h.consumer.notification(NotificationUID(10))?.title == "Mom (2)")
        #expect(h.writeCount == writes + 1)  // the app name stays cached

        // Shown: the message is fetched (bounded), with its size.
        h.consumer.notificationShown(NotificationUID(10), now: h.now)
        #expect(h.lastWrite == .getNotificationAttributes(uid: NotificationUID(10), attributes: [
            AttributeRequest(id: 3, maxLength: 256, sendsMaxLength: true), AttributeRequest(id: 4, maxLength: 0, sendsMaxLength: false),
        ]))
        h.answer()
        #expect(h.takeEvents() == [.attributesReady(NotificationUID(10), [.message, .messageSize])])
        #expect(h.consumer.notification(NotificationUID(10))?.message == "Dinner?")
        #expect(h.consumer.notification(NotificationUID(10))?.messageSize == 7)
        h.consumer.notificationShown(NotificationUID(10), now: h.now)
        #expect(h.writeCount == writes + 2)  // already stored: no fetch

        // Removed: gone, never fetched again.
        h.ns(.removed, 10)
        #expect(h.takeEvents() == [.notificationRemoved(NotificationUID(10), .removedByPhone)])
        #expect(h.consumer.notification(NotificationUID(10)) == nil)
        #expect(h.consumer.notificationCount == 0)
        #expect(h.writeCount == writes + 2)
        #expect(h.onlyLivenessTimed)
    }

    @Test("important and call notifications fetch the message and action labels at once")
    func eagerMessage() {
        let h = Harness()
        h.post(1, title: "John", message: "Incoming call", flags: [.important, .positiveAction, .negativeAction], category: .incomingCall)
        #expect(h.lastWrite == .getNotificationAttributes(uid: NotificationUID(1), attributes: [
            AttributeRequest(id: 0, maxLength: 0, sendsMaxLength: false), AttributeRequest(id: 1, maxLength: 64, sendsMaxLength: true),
            AttributeRequest(id: 6, maxLength: 0, sendsMaxLength: false), AttributeRequest(id: 7, maxLength: 0, sendsMaxLength: false),
            AttributeRequest(id: 3, maxLength: 256, sendsMaxLength: true), AttributeRequest(id: 4, maxLength: 0, sendsMaxLength: false),
        ]))
        h.answer()
        let n = h.consumer.notification(NotificationUID(1))
        #expect(n?.positiveActionLabel == "Answer")
        #expect(n?.negativeActionLabel == "Decline")
        #expect(n?.message == "Incoming call")
        #expect(n?.info.shouldAlert == true)
    }

    @Test("Subtitle and Date are fetched when configured; the Date is parsed")
    func optionalAttributes() {
        let h = Harness { $0.fetchSubtitle = true; $0.fetchDate = true }
        h.post(1, title: "t")
        h.answer()
        let n = h.consumer.notification(NotificationUID(1))
        #expect(n?.subtitle == "sub")
        #expect(n?.date == ANCSDate.parse("20240314T183005"))
    }

    @Test("a long message is stored up to the max length we asked for")
    func boundedMessage() {
        let h = Harness { $0.messageMaxLength = 16 }
        let long = String(repeating: "é", count: 40)  // 80 bytes
        h.post(1, title: "t", message: long, flags: [.important])
        h.answer()
        let n = h.consumer.notification(NotificationUID(1))
        #expect(n?.bytes(.message).count == 16)
        #expect(n?.messageSize == 80)
        #expect(n?.message == String(repeating: "é", count: 8))
    }

    @Test("UTF-8 titles in Chinese, Japanese, Vietnamese and emoji; invalid UTF-8 kept as bytes")
    func utf8Titles() {
        let h = Harness()
        let titles = ["微信：你好，世界", "新着メッセージ：こんにちは", "Tin nhắn mới từ Nguyễn Thị Hương", "👩‍👩‍👧‍👦 🇻🇳 🎉"]
        for (i, t) in titles.enumerated() { h.post(UInt32(i + 1), title: t) }
        h.phone[9] = [.appIdentifier: Array("x".utf8), .title: [0x48, 0xC3, 0x28, 0xFF]]
        h.ns(.added, 9)
        h.answerAll()
        for (i, t) in titles.enumerated() {
            let n = h.consumer.notification(NotificationUID(UInt32(i + 1)))
            #expect(n?.title == t)
            #expect(n.map { Array($0.bytes(.title)) } == Array(t.utf8))
        }
        let bad = h.consumer.notification(NotificationUID(9))
        #expect(bad.map { Array($0.bytes(.title)) } == [0x48, 0xC3, 0x28, 0xFF])
        #expect(bad?.title == "H\u{FFFD}(\u{FFFD}")
    }

    @Test("removed during a fetch: the response is read but not stored, nothing more is fetched")
    func removeDuringFetch() {
        let h = Harness()
        h.post(1, title: "one")
        h.post(2, title: "two")
        #expect(h.requestedUIDs == [1])
        h.ack()
        h.ns(.removed, 1)
        h.ns(.removed, 2)  // still queued: cancelled
        _ = h.takeEvents()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "one"),
        ]))
        #expect(h.takeEvents() == [])
        #expect(h.requestedUIDs == [1])
        #expect(h.writeCount == 1)
        #expect(h.consumer.notificationCount == 0)
        #expect(h.onlyLivenessTimed)
    }

    @Test("disconnect mid-response: the session's UIDs, requests and app names are dropped; the next session starts clean")
    func disconnectMidResponse() {
        let h = Harness()
        h.appNames["com.apple.MobileSMS"] = "Messages"
        h.post(1, title: "one")
        h.answerAll()
        h.post(2, title: "two")
        h.answer(cutAfter: 9)
        h.consumer.sessionEnded(.disconnected, now: h.now)
        #expect(h.takeEvents().last == .sessionEnded(.disconnected))
        // The session's UIDs are void; "one" is kept as from the previous
        // session (PreviousSessionTests), "two" had nothing to show yet.
        #expect(h.consumer.notification(NotificationUID(1)) == nil)
        #expect(h.consumer.notification(NotificationUID(2)) == nil)
        #expect(h.consumer.previousSessionCount == 1)
        #expect(h.consumer.nextDeadline == nil)
        #expect(!h.consumer.isSessionActive)
        // Late bytes after the session are ignored.
        h.consumer.dataSourceReceived([0x41, 0x42], now: h.now)
        #expect(h.takeEvents() == [])

        h.consumer.sessionStarted(now: h.now)
        let writes = h.writeCount
        h.post(1, title: "new one")  // UIDs restart in a new session
        #expect(h.requestedUIDs.last == 1)
        h.answer()
        // The app name cache was per session: fetched again.
        #expect(h.lastWrite == .getAppAttributes(appIdentifier: Array("com.apple.MobileSMS".utf8), attributes: [AttributeRequest(id: 0, maxLength: 0, sendsMaxLength: false)]))
        h.answer()
        #expect(h.writeCount == writes + 2)
        #expect(h.consumer.notification(NotificationUID(1))?.title == "new one")
        #expect(h.consumer.notification(NotificationUID(1))?.appDisplayName == "Messages")
    }

    @Test("a write in flight at session end: forgotten on disconnect, awaited on re-subscribe")
    func writeAcrossSessions() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.consumer.sessionEnded(.disconnected, now: h.now)
        h.consumer.sessionStarted(now: h.now)
        h.post(1, title: "one again")
        #expect(h.requestedUIDs == [1, 1])  // no ack was awaited across the disconnect

        // Re-subscribing on the same link: the ATT outcome of the write in
        // flight still comes, and the next write waits for it.
        h.consumer.sessionEnded(.resubscribing, now: h.now)
        h.consumer.sessionStarted(now: h.now)
        h.post(2, title: "two")
        #expect(h.requestedUIDs == [1, 1])
        h.fail(0xA2)  // the old write's outcome
        #expect(h.requestedUIDs == [1, 1, 2])
        h.answered = h.writeCount - 1
        h.answer()
        #expect(h.consumer.notification(NotificationUID(2))?.title == "two")
    }

    @Test("200 pre-existing notifications plus live ones during the flood: live ones are fetched first")
    func preExistingFlood() {
        let h = Harness()
        var live: [UInt32] = []
        var nextWriteAfterLive: [Int] = []
        // The phone dumps its notification centre; the watch answers as it goes,
        // but only every third write gets its answer before the next event.
        for uid in UInt32(1)...200 {
            h.post(uid, title: "old \(uid)", flags: [.preExisting])
            if uid % 50 == 0 {
                let l = 1000 + uid
                live.append(l)
                nextWriteAfterLive.append(h.writeCount)
                h.post(l, title: "live \(l)", flags: [.important])
            }
            if uid % 3 == 0 { h.answer() }
        }
        let events = h.takeEvents()
        // Pre-existing ones never ask to alert; live ones do.
        for case .notificationAdded(let info) in events {
            #expect(info.shouldAlert == !info.isPreExisting)
        }
        h.answerAll()
        // Each live notification was requested by the very next write after it arrived.
        for (l, index) in zip(live, nextWriteAfterLive) { #expect(h.requestedUID(index) == l) }
        // The store keeps 32: every live one, plus the newest pre-existing ones.
        #expect(h.consumer.notificationCount == 32)
        for l in live {
            #expect(h.consumer.notification(NotificationUID(l))?.title == "live \(l)")
        }
        #expect(h.consumer.notification(NotificationUID(200))?.title == "old 200")
        #expect(h.consumer.notification(NotificationUID(1)) == nil)
        // Nothing fetched for notifications that were evicted before their turn,
        // and nothing fetched twice.
        let all = h.requestedUIDs
        #expect(Set(all).count == all.count)
        #expect(all.count < 200)
        h.consumer.forEachNotification { #expect(!$0.isFetchPending) }
    }

    @Test("live notifications jump ahead of queued pre-existing fetches")
    func liveFirst() {
        let h = Harness()
        // The first one is fetched at once (the link is idle); the rest wait.
        for uid in UInt32(1)...10 { h.post(uid, title: "old", flags: [.preExisting]) }
        #expect(h.requestedUIDs == [1])
        h.post(100, title: "live")
        h.post(101, title: "live 2")
        h.answer()  // answers 1
        #expect(h.requestedUIDs == [1, 100])
        h.answerAll()
        // Live ones first, then the app name (queued behind them), then the
        // pre-existing ones newest first.
        #expect(h.requestedUIDs == [1, 100, 101, 10, 9, 8, 7, 6, 5, 4, 3, 2])
        #expect(h.recorder.writes[3].first == 0x01)
    }

    @Test("0xA2 for a vanished UID fails only that fetch")
    func vanishedUID() {
        let h = Harness()
        h.post(1, title: "one")
        h.post(2, title: "two")
        h.post(3, title: "three")
        h.phone[1] = nil  // gone on the phone before we asked
        _ = h.takeEvents()
        h.answer()
        #expect(h.takeEvents() == [.fetchFailed(NotificationUID(1), .phone(.invalidParameter))])
        h.answerAll()
        #expect(h.consumer.notification(NotificationUID(2))?.title == "two")
        #expect(h.consumer.notification(NotificationUID(3))?.title == "three")
        #expect(h.consumer.notification(NotificationUID(1))?.title == nil)
        #expect(h.requestedUIDs == [1, 2, 3])  // no retry loop for 1
    }

    @Test("queue overflow: nothing is lost, overflowed fetches come when the queue drains")
    func queueOverflow() {
        let h = Harness { $0.queueCapacity = 4; $0.fetchAppNames = false }
        for uid in UInt32(1)...12 { h.post(uid, title: "n\(uid)") }
        // 1 in flight, 4 queued, 7 overflowed.
        #expect(h.consumer.statistics.queueOverflows == 7)
        h.answerAll()
        #expect(h.requestedUIDs == Array(1...12))
        for uid in UInt32(1)...12 { #expect(h.consumer.notification(NotificationUID(uid))?.title == "n\(uid)") }
    }

    @Test("the queue is de-duplicated: added then modified before the fetch is one request")
    func dedupe() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "a")
        h.post(2, title: "b")
        h.ns(.modified, 2)
        h.ns(.modified, 2)
        h.answerAll()
        #expect(h.requestedUIDs == [1, 2])
    }

    @Test("modified while its fetch is in flight: fetched again afterwards")
    func modifiedInFlight() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "first")
        h.ack()
        h.phone[1]![.title] = Array("second".utf8)
        h.ns(.modified, 1)
        // The in-flight answer still carries the old title.
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "first"),
        ]))
        #expect(h.requestedUIDs == [1, 1])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(1))?.title == "second")
    }

    @Test("a request with no answer for 5 s is dropped and the next one is sent; partial values are kept")
    func timeout() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.post(2, title: "two")
        _ = h.takeEvents()
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .seconds(5)))
        h.answer(cutAfter: 5 + 3 + 19 + 3 + 1)  // appID complete, title cut
        h.advance(.milliseconds(4999))
        #expect(h.requestedUIDs == [1])
        h.advance(.milliseconds(1))
        #expect(h.takeEvents() == [
            .attributesReady(NotificationUID(1), .appIdentifier),
            .fetchFailed(NotificationUID(1), .timedOut),
        ])
        #expect(h.requestedUIDs == [1, 2])
        #expect(h.consumer.notification(NotificationUID(1))?.appIdentifier == "com.apple.MobileSMS")
        // The late rest of the old response does not disturb the next one.
        h.send(Array(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "one"),
        ]).dropFirst(31)))
        h.answer()
        #expect(h.consumer.notification(NotificationUID(2))?.title == "two")
        #expect(h.consumer.statistics.timeouts == 1)
    }

    @Test("Data Source progress restarts the timeout")
    func timeoutRestartsOnProgress() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: String(repeating: "x", count: 60))
        h.ack()
        let response = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, String(repeating: "x", count: 60)),
        ])
        for start in stride(from: 0, to: response.count, by: 20) {
            h.advance(.seconds(4))
            h.consumer.dataSourceReceived(Array(response[start..<min(start + 20, response.count)]), now: h.now)
        }
        #expect(h.consumer.statistics.timeouts == 0)
        #expect(h.consumer.notification(NotificationUID(1))?.title == String(repeating: "x", count: 60))
    }

    @Test("a wrong echoed UID is a protocol error; the request times out, the next one goes")
    func wrongEcho() {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "one")
        h.post(2, title: "two")
        _ = h.takeEvents()
        h.ack()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(77), [EncodedAttribute(.title, "x")]))
        #expect(h.takeEvents() == [.protocolError(.dataSource(.mismatchedUID(expected: NotificationUID(1), received: NotificationUID(77))))])
        h.advance(.seconds(5))
        #expect(h.takeEvents() == [.fetchFailed(NotificationUID(1), .timedOut)])
        h.answer()
        #expect(h.consumer.notification(NotificationUID(2))?.title == "two")
    }

    @Test("store bound: the oldest non-call is evicted first, pre-existing ones before live ones")
    func eviction() {
        let h = Harness { $0.storeCapacity = 4; $0.fetchAppNames = false }
        h.post(1, title: "call", flags: [.important], category: .incomingCall)
        h.post(2, title: "old", flags: [.preExisting])
        h.post(3, title: "live a")
        h.post(4, title: "live b")
        _ = h.takeEvents()
        h.post(5, title: "live c")
        #expect(h.takeEvents() == [
            .notificationRemoved(NotificationUID(2), .evicted),
            .notificationAdded(NotificationInfo(uid: NotificationUID(5), flags: [], category: .social, categoryCount: 1)),
        ])
        h.post(6, title: "live d")
        #expect(h.takeEvents().first == .notificationRemoved(NotificationUID(3), .evicted))
        // A pre-existing newcomer never pushes out a live one: it is not stored.
        h.post(7, title: "old 2", flags: [.preExisting])
        #expect(h.takeEvents() == [])
        #expect(h.consumer.notification(NotificationUID(7)) == nil)
        #expect(h.consumer.statistics.droppedPreExisting == 1)
        // Calls go last.
        h.post(8, title: "e")
        h.post(9, title: "f")
        h.post(10, title: "g")
        var uids: [UInt32] = []
        h.consumer.forEachNotification(newestFirst: false) { uids.append($0.uid.rawValue) }
        #expect(uids == [1, 8, 9, 10])
        h.post(11, title: "call 2", category: .incomingCall)
        h.post(12, title: "call 3", category: .missedCall)
        h.post(13, title: "call 4", category: .incomingCall)
        h.post(14, title: "call 5", category: .incomingCall)
        uids = []
        h.consumer.forEachNotification { uids.append($0.uid.rawValue) }
        #expect(uids == [14, 13, 12, 11])
        // The evicted ones were never fetched after eviction.
        h.answerAll()
        h.consumer.forEachNotification { #expect(!$0.isFetchPending) }
    }

    @Test("actions: only when the flags offer them; the outcome is reported")
    func actions() throws {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "call", flags: [.positiveAction, .negativeAction], category: .incomingCall)
        h.post(2, title: "no actions")
        h.answerAll()
        _ = h.takeEvents()
        #expect(throws: ANCSActionError.actionNotAvailable(NotificationUID(2), .positive)) {
            try h.consumer.performAction(.positive, on: NotificationUID(2), now: h.now)
        }
        #expect(throws: ANCSActionError.unknownNotification(NotificationUID(3))) {
            try h.consumer.performAction(.negative, on: NotificationUID(3), now: h.now)
        }
        try h.consumer.performAction(.negative, on: NotificationUID(1), now: h.now)
        #expect(h.lastWrite == .performNotificationAction(uid: NotificationUID(1), actionID: 1))
        #expect(h.recorder.writes.last == [0x02, 0x01, 0, 0, 0, 0x01])
        h.ack()
        #expect(h.takeEvents() == [.actionSent(NotificationUID(1), .negative)])
        try h.consumer.performAction(.positive, on: NotificationUID(1), now: h.now)
        h.fail(0xA3)
        #expect(h.takeEvents() == [.actionFailed(NotificationUID(1), .positive, .phone(.actionFailed))])
        h.consumer.sessionEnded(.unsubscribed, now: h.now)
        #expect(throws: ANCSActionError.noSession) {
            try h.consumer.performAction(.positive, on: NotificationUID(1), now: h.now)
        }
    }

    @Test("an action goes ahead of queued fetches, even when the queue is full")
    func actionPriority() throws {
        let h = Harness { $0.queueCapacity = 2; $0.fetchAppNames = false }
        h.post(1, title: "call", flags: [.positiveAction], category: .incomingCall)
        h.answer()
        h.post(2, title: "b")
        h.post(3, title: "c")
        h.post(4, title: "d")  // in flight: 2; queued: 3, 4
        try h.consumer.performAction(.positive, on: NotificationUID(1), now: h.now)
        h.answer()  // 2
        #expect(h.lastWrite == .performNotificationAction(uid: NotificationUID(1), actionID: 0))
        h.answerAll()
        #expect(h.requestedUIDs == [1, 2, 3, 4])
    }

    @Test("a queued action for a notification that goes away is cancelled")
    func actionCancelled() throws {
        let h = Harness { $0.fetchAppNames = false }
        h.post(1, title: "call", flags: [.negativeAction], category: .incomingCall)
        h.post(2, title: "b")
        h.answer()
        // 2 is in flight; the action waits behind it.
        try h.consumer.performAction(.negative, on: NotificationUID(1), now: h.now)
        _ = h.takeEvents()
        h.ns(.removed, 1)
        #expect(h.takeEvents() == [
            .actionFailed(NotificationUID(1), .negative, .cancelled),
            .notificationRemoved(NotificationUID(1), .removedByPhone),
        ])
        h.answerAll()
        #expect(!h.recorder.writes.contains([0x02, 0x01, 0, 0, 0, 0x01]))
    }

    @Test("a write answered before the call returns (synchronous glue) keeps the machine consistent")
    func synchronousAcks() {
        let h = Harness { $0.fetchAppNames = false }
        h.recorder.onWrite = { [unowned h] _ in
            // The glue reports the write outcome from inside the write call.
            h.consumer.controlPointWriteSucceeded(now: h.now)
        }
        h.post(1, title: "a")
        h.post(2, title: "b")
        h.recorder.onWrite = nil
        #expect(h.requestedUIDs == [1])
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "x"), EncodedAttribute(.title, "a"),
        ]))
        #expect(h.requestedUIDs == [1, 2])
    }

    /// The link refuses every write at once (its queue full): each fetch
    /// fails in the consumer's own loop, one write per notification, none
    /// nested in another; the retries go out once the link takes writes.
    @Test("a write the link refuses at once fails that request and the next one goes out, without re-entry")
    func writesRefusedAtOnce() {
        let h = Harness { $0.fetchAppNames = false }
        h.recorder.writeResult = .notSent(attErrorCode: 0x0E)
        h.post(1, title: "a")
        h.post(2, title: "b")
        h.post(3, title: "c")
        #expect(h.requestedUIDs == [1, 2, 3], "each fetch tried once, in order")
        #expect(h.consumer.statistics.reentrantRequests == 0)
        h.recorder.writeResult = .sent
        h.advance(.seconds(1))
        #expect(h.requestedUIDs == [1, 2, 3, 1], "the first retry goes out; the others wait for its answer")
    }

    @Test("unexpected write responses and malformed Notification Source are reported, not fatal")
    func protocolErrors() {
        let h = Harness()
        _ = h.takeEvents()
        h.ack()
        h.consumer.notificationSourceReceived([1, 2, 3], now: h.now)
        h.ns(.unknown(9), 1)
        #expect(h.takeEvents() == [
            .protocolError(.unexpectedWriteResponse),
            .protocolError(.malformedNotificationSource(.wrongLength(3))),
        ])
        #expect(h.consumer.statistics.unknownEventIDs == 1)
        #expect(h.consumer.notificationCount == 0)
    }

    @Test("liveness is on by default (issue 15): a probe after 15 quiet minutes; off with liveness = nil")
    func livenessOnByDefault() {
        let h = Harness()
        #expect(h.consumer.configuration.liveness == LivenessPolicy(probeAfterQuiet: .seconds(900), resubscribeAfterSilence: .seconds(6 * 3600)))
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .seconds(900)))
        h.advance(.seconds(899))
        #expect(h.writeCount == 0)
        h.advance(.seconds(1))
        #expect(h.recorder.writes == [[0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]])
        #expect(h.consumer.health.probes == 1)

        let off = Harness { $0.liveness = nil }
        #expect(off.consumer.nextDeadline == nil)
        off.advance(.seconds(24 * 3600))
        #expect(off.writeCount == 0)
    }

    @Test("liveness probe: UID 0xFFFFFFFF after a quiet period; 0xA2 means alive")
    func livenessProbe() {
        let h = Harness { $0.liveness = LivenessPolicy(probeAfterQuiet: .seconds(60), resubscribeAfterSilence: nil) }
        _ = h.takeEvents()
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .seconds(60)))
        h.advance(.seconds(59))
        #expect(h.writeCount == 0)
        h.advance(.seconds(1))
        #expect(h.recorder.writes == [[0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]])
        h.fail(0xA2)
        #expect(h.takeEvents() == [.livenessProbe(.alive)])
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .seconds(60)))
        // Traffic postpones the probe.
        h.advance(.seconds(30))
        h.post(1, title: "t")
        h.answerAll()
        _ = h.takeEvents()
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .seconds(60)))
        // No answer: probe failed, re-subscribe recommended.
        h.advance(.seconds(60))
        let probes = h.consumer.statistics.probesSent
        #expect(probes == 2)
        h.advance(.seconds(5))
        #expect(h.takeEvents() == [.livenessProbe(.noAnswer), .resubscribeRecommended(.probeUnanswered)])
        // The late outcome of that write is absorbed; another ATT error is a rejection.
        h.fail(0xA2)
        h.advance(.seconds(60))
        h.fail(0x03)
        #expect(h.takeEvents() == [.livenessProbe(.rejected(.att(0x03)))])
    }

    @Test("a silent Notification Source for long recommends re-subscribing")
    func silence() {
        let h = Harness { $0.liveness = LivenessPolicy(probeAfterQuiet: .seconds(3600), resubscribeAfterSilence: .seconds(1800)) }
        _ = h.takeEvents()
        h.advance(.seconds(1799))
        h.post(1, title: "t")
        h.answerAll()
        _ = h.takeEvents()
        h.advance(.seconds(1799))
        #expect(h.takeEvents() == [])
        h.advance(.seconds(1))
        #expect(h.takeEvents() == [.resubscribeRecommended(.notificationSourceSilent)])
        #expect(h.consumer.nextDeadline! > h.now)
    }

    @Test("app names: once per AppIdentifier per session; a failed lookup is not retried")
    func appNameCache() {
        let h = Harness()
        h.appNames["com.apple.mobilemail"] = "Mail"
        for uid in UInt32(1)...3 { h.post(uid, title: "m\(uid)", app: "com.apple.mobilemail") }
        for uid in UInt32(4)...5 { h.post(uid, title: "x\(uid)", app: "com.unknown.app") }
        h.answerAll()
        let appWrites = h.recorder.writes.filter { $0.first == 0x01 }
        #expect(appWrites.count == 2)
        for uid in UInt32(1)...3 { #expect(h.consumer.notification(NotificationUID(uid))?.appDisplayName == "Mail") }
        #expect(h.consumer.notification(NotificationUID(4))?.appDisplayName == nil)
        #expect(h.consumer.appDisplayName(forAppIdentifier: "com.apple.mobilemail") == "Mail")
    }

    @Test("the app-name cache is bounded: least recently used names are fetched again")
    func appNameCacheBound() {
        let h = Harness { $0.appNameCacheCapacity = 2 }
        for (i, app) in ["a.one", "a.two", "a.three", "a.one"].enumerated() {
            h.appNames[app] = app.uppercased()
            h.post(UInt32(i + 1), title: "t", app: app)
            h.answerAll()
        }
        let appWrites = h.recorder.writes.filter { $0.first == 0x01 }
        #expect(appWrites.count == 4)
        #expect(h.consumer.notification(NotificationUID(4))?.appDisplayName == "A.ONE")
    }

    @Test("a Notification Source event without a session starts one")
    func implicitSession() {
        let h = Harness()
        h.consumer.sessionEnded(.unsubscribed, now: h.now)
        _ = h.takeEvents()
        h.post(1, title: "t")
        #expect(h.takeEvents() == [.sessionStarted, .notificationAdded(NotificationInfo(uid: NotificationUID(1), flags: [], category: .social, categoryCount: 1))])
    }

    @Test("ATT errors other than ANCS's are reported as such (e.g. insufficient authentication)")
    func attErrors() {
        let h = Harness()
        h.post(1, title: "t")
        _ = h.takeEvents()
        h.fail(0x05)
        #expect(h.takeEvents() == [.fetchFailed(NotificationUID(1), .att(0x05))])
    }
}
