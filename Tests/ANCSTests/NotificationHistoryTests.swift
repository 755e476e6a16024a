import ANCS
import HAL
import Notifications
import Testing

@testable import ANCS
@testable import Notifications

/// Issue 25 item 5: the notification list's file (NotificationHistory) and
/// its entries restored into the ANCS store as from a previous session.
@Suite("Notification history")
struct NotificationHistoryTests {
    static let date = CivilTime(year: 2024, month: 3, day: 14, hour: 18, minute: 30, second: 5)

    /// A session with Mom, Bob (an app whose content is hidden: Mail), a call and a blank one.
    static func session() -> Harness {
        let h = Harness {
            $0.fetchDate = true
            $0.fetchSubtitle = true
        }
        h.appNames["com.apple.MobileSMS"] = "Messages"
        h.post(1, title: "Mom", message: "Dinner at 8", flags: .important)  // its message is fetched at once
        h.answerAll()
        h.post(2, title: "Bob", app: "com.apple.mobilemail", message: "Secret report", flags: .important)
        h.answerAll()
        h.post(3, title: "Dad", category: .incomingCall)
        h.answerAll()
        h.ns(.added, 4)  // never answered: nothing to show
        return h
    }

    static func hidesMail(_ n: Notification) -> Bool { Array(n.bytes(.appIdentifier)) == Array("com.apple.mobilemail".utf8) }

    static func titles(_ s: any NotificationSource, newestFirst: Bool = false) -> [String] {
        var t: [String] = []
        s.forEachNotification(newestFirst: newestFirst) { t.append($0.title ?? "<\($0.appIdentifier ?? "-")>") }
        return t
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard haystack.count >= n.count else { return false }
        return (0...(haystack.count - n.count)).contains { Array(haystack[$0..<($0 + n.count)]) == n }
    }

    @Test("the count limit is the store's capacity")
    func countLimitIsTheStoreCapacity() {
        #expect(NotificationHistory.maximumEntries == NotificationConsumer.Configuration().storeCapacity)
    }

    @Test("round trip: a session's list, encoded, decoded and restored, shows the same, as from the previous session")
    func roundTrip() throws {
        let h = Self.session()
        let bytes = NotificationHistory.encode(h.consumer) { _ in false }
        #expect(Array(bytes.prefix(5)) == NotificationHistory.magic + [NotificationHistory.version])
        let entries = try NotificationHistory.decode(bytes)
        try #require(entries.count == 2, "the call and the blank one are not kept")
        #expect(entries[0].title == Array("Mom".utf8) && entries[0].message == Array("Dinner at 8".utf8))
        #expect(entries[0].appName == Array("Messages".utf8) && entries[0].subtitle == Array("sub".utf8))
        #expect(entries[0].date == Self.date && entries[0].category == .social)
        #expect(NotificationHistory.encode(entries) == bytes, "both encoders write the same bytes")

        let restored = NotificationConsumer(configuration: h.consumer.configuration)
        #expect(restored.restorePreviousSession(entries) == 2)
        #expect(Self.titles(restored) == ["Mom", "Bob"])
        var views: [Notification] = []
        restored.forEachNotification(newestFirst: false) { views.append($0) }
        let mom = try #require(views.first)
        #expect(mom.isFromPreviousSession && mom.uid.rawValue >= NotificationConsumer.previousSessionUIDBase)
        #expect(mom.appDisplayName == "Messages" && mom.message == "Dinner at 8" && mom.subtitle == "sub" && mom.date == Self.date)
        #expect(restored.previousSessionCount == 2)
    }

    @Test("an app whose content is hidden is stored without its text: app, name, category and date only")
    func hiddenContentIsNotStored() throws {
        let h = Self.session()
        let bytes = NotificationHistory.encode(h.consumer, hidesContent: Self.hidesMail)
        #expect(!Self.contains(bytes, "Bob") && !Self.contains(bytes, "Secret report"))
        #expect(Self.contains(bytes, "com.apple.mobilemail"))
        #expect(Self.contains(bytes, "Mom") && Self.contains(bytes, "Dinner at 8"))
        let bob = try #require(try NotificationHistory.decode(bytes).last)
        #expect(bob.contentHidden && bob.title == nil && bob.subtitle == nil && bob.message == nil)
        #expect(bob.appIdentifier == Array("com.apple.mobilemail".utf8) && bob.date == Self.date)
    }

    @Test("restored entries are reconciled by the next session: re-announced ones replace them, the rest go once it settles")
    func restoredEntriesAreReconciled() throws {
        let entries = try NotificationHistory.decode(NotificationHistory.encode(Self.session().consumer, hidesContent: Self.hidesMail))
        let restored = NotificationConsumer(configuration: Self.session().consumer.configuration)
        restored.restorePreviousSession(entries)
        // The first session after the restart: the phone still holds Bob (hidden: matched by app and date).
        let h = Harness {
            $0.fetchDate = true
            $0.fetchSubtitle = true
        }
        h.consumer.sessionEnded(.disconnected, now: h.now)
        h.consumer.adoptPreviousSession(from: restored, now: h.now)
        #expect(h.consumer.previousSessionCount == 2)
        h.consumer.sessionStarted(now: h.now)
        _ = h.takeEvents()
        h.phone[9] = [.appIdentifier: Array("com.apple.mobilemail".utf8), .title: Array("Bob".utf8),
                      .date: Array("20240314T183005".utf8)]
        h.ns(.added, 9, flags: .preExisting)
        h.answerAll()
        let events = h.takeEvents()
        #expect(events.contains { if case .notificationRemoved(_, .reannounced(NotificationUID(9))) = $0 { true } else { false } })
        #expect(h.consumer.previousSessionCount == 1)
        h.advance(.seconds(2))
        #expect(h.takeEvents().contains { if case .notificationRemoved(_, .notReannounced) = $0 { true } else { false } })
        #expect(h.consumer.previousSessionCount == 0 && Self.titles(h.consumer) == ["Bob"])
    }

    @Test("bounded by bytes: the oldest go to fit; a larger file is refused")
    func byteLimit() throws {
        let big = [UInt8](repeating: 0x41, count: 5_000)
        let entries = (0..<10).map { i in
            NotificationHistory.Entry(category: .email, appIdentifier: Array("app\(i)".utf8), title: Array("t\(i)".utf8), message: big)
        }
        let bytes = NotificationHistory.encode(entries)
        #expect(bytes.count <= NotificationHistory.maximumFileBytes)
        let kept = try NotificationHistory.decode(bytes)
        #expect(kept.count == 6 && kept.first?.title == Array("t4".utf8) && kept.last?.title == Array("t9".utf8), "the newest that fit")
        let oversized = bytes + [UInt8](repeating: 0, count: NotificationHistory.maximumFileBytes)
        #expect(throws: NotificationHistory.DecodeError.tooLarge(oversized.count)) { try NotificationHistory.decode(oversized) }
    }

    @Test("bounded by count: the newest maximumEntries are written")
    func countLimit() throws {
        let entries = (0..<40).map { NotificationHistory.Entry(category: .social, title: Array("n\($0)".utf8)) }
        let kept = try NotificationHistory.decode(NotificationHistory.encode(entries))
        #expect(kept.count == NotificationHistory.maximumEntries && kept.first?.title == Array("n8".utf8))
    }

    @Test("a damaged, cut, foreign or other-version file is refused with its reason")
    func damagedFiles() {
        let good = NotificationHistory.encode([NotificationHistory.Entry(category: .social, date: Self.date, title: Array("Mom".utf8))])
        var flipped = good
        flipped[12] ^= 0x20
        #expect(throws: NotificationHistory.DecodeError.badChecksum) { try NotificationHistory.decode(flipped) }
        #expect(throws: NotificationHistory.DecodeError.badChecksum) { try NotificationHistory.decode(Array(good.dropLast(3))) }
        #expect(throws: NotificationHistory.DecodeError.notAHistoryFile) { try NotificationHistory.decode(Array("{\"list\": []}".utf8)) }
        var v2 = good
        v2[4] = 2
        #expect(throws: NotificationHistory.DecodeError.unsupportedVersion(2)) { try NotificationHistory.decode(v2) }
        // A count that promises more than the bytes hold (checksum made to match).
        var lying = Array(good.dropLast(4))
        lying[5] = 2
        NotificationHistory.appendUInt32(NotificationHistory.checksum(lying[...]), to: &lying)
        #expect(throws: NotificationHistory.DecodeError.truncated) { try NotificationHistory.decode(lying) }
        #expect(NotificationHistory.DecodeError.badChecksum.description.contains("damaged"))
    }

    @Test("restoring keeps the newest when the store is smaller, and leaves out calls")
    func restoreIsBounded() {
        var entries = (0..<5).map { NotificationHistory.Entry(category: .social, title: Array("n\($0)".utf8)) }
        entries.append(NotificationHistory.Entry(category: .incomingCall, title: Array("Dad".utf8)))
        var c = NotificationConsumer.Configuration()
        c.storeCapacity = 3
        let restored = NotificationConsumer(configuration: c)
        #expect(restored.restorePreviousSession(entries) == 3)
        #expect(Self.titles(restored) == ["n2", "n3", "n4"])
    }
}
