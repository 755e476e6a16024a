import ANCS
import Notifications
import ATTCodec
import GATT
import PhoneServices
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import SimBoard
import Testing

/// The ANCS consumer (through PhoneSession) against the simulated iPhone,
/// over a SEQPACKET socket pair, through the real EventLoop.
final class EndToEnd {
    let loop: EpollLoop
    let link: SimulatedLink
    let phone: SimulatedPhone
    let session: PhoneSession
    var events: [PhoneSession.Event] = []
    var ancsEvents: [ANCSEvent] = []
    var subscribed = 0

    init(_ config: SimulatedPhone.Configuration = .init(), consumer: NotificationConsumer.Configuration = .init()) throws {
        loop = try EpollLoop()
        link = SimulatedLink(timers: loop)
        let (w, p) = try SeqPacketChannel.pair()
        phone = SimulatedPhone(channel: p, loop: loop, security: link.phoneEnd, configuration: config)
        session = PhoneSession(channel: w, loop: loop, security: link.watchEnd, consumerConfiguration: consumer)
        session.eventHandler = { [unowned self] e in
            self.events.append(e)
            if case .ancs(let a) = e { self.ancsEvents.append(a) }
            if case .ancsSubscribed = e { self.subscribed += 1 }
        }
        try phone.start()
        try session.start()
    }

    @discardableResult
    func run(until condition: () -> Bool, timeout: Duration = .seconds(5)) throws -> Bool {
        try loop.runUntil(timeout: timeout, condition)
    }

    func text(_ uid: UInt32, _ field: NotificationTextField) -> String? {
        session.consumer.notification(NotificationUID(uid)).map { String(decoding: $0.bytes(field), as: UTF8.self) }
    }

    func appName(_ uid: UInt32) -> String? {
        session.consumer.notification(NotificationUID(uid))?.appDisplayNameBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    func has(_ e: ANCSEvent) -> Bool { ancsEvents.contains(e) }

    /// Runs the loop for a while (to show that something does NOT happen).
    func idle(_ d: Duration) throws { _ = try loop.runUntil(timeout: d) { false } }

    func attributesReady(_ uid: UInt32, _ fields: NotificationFields) -> Bool {
        guard let n = session.consumer.notification(NotificationUID(uid)) else { return false }
        return n.available.isSuperset(of: fields)
    }
}

@Suite("ANCS end to end against the simulated iPhone")
struct EndToEndTests {
    static let anna = SimulatedNotification(
        uid: 1, category: .social, appIdentifier: "com.apple.MobileSMS", title: "Anna", message: "Lunch at 12?")

    @Test func preExistingNotificationsAreDeliveredAndFetched() throws {
        var config = SimulatedPhone.Configuration()
        config.preexisting = [Self.anna]
        let t = try EndToEnd(config)
        try t.run(until: { t.attributesReady(1, [.appIdentifier, .title]) && t.appName(1) != nil })
        #expect(t.subscribed == 1)
        #expect(t.phone.ancsSessionActive)
        let added = t.ancsEvents.compactMap { e -> NotificationInfo? in
            if case .notificationAdded(let i) = e { return i } else { return nil }
        }
        #expect(added.count == 1)
        #expect(added.first?.isPreExisting == true)
        #expect(added.first?.shouldAlert == false, "pre-existing notifications never vibrate")
        #expect(t.text(1, .title) == "Anna")
        #expect(t.text(1, .appIdentifier) == "com.apple.MobileSMS")
        #expect(t.appName(1) == "Messages")
        #expect(t.text(1, .negativeActionLabel) == "Clear")
    }

    /// At ATT_MTU 23 a Get App Attributes command for a bundle identifier
    /// longer than 17 bytes does not fit a Write Request: it goes as a long
    /// write (Prepare Write + Execute Write) and the app's name arrives.
    @Test func appNamesOfLongBundleIdentifiersArriveAtMTU23() throws {
        var config = SimulatedPhone.Configuration()
        config.mtu = 23
        config.preexisting = [Self.anna]  // com.apple.MobileSMS: 19 bytes
        let t = try EndToEnd(config)
        try t.run(until: { t.attributesReady(1, [.appIdentifier, .title]) && t.appName(1) != nil })
        #expect(t.appName(1) == "Messages")
        #expect(t.session.bearer.mtu == 23)
    }

    /// Issue 19 item 1 (the app's end): a command that cannot be sent is
    /// an event the watch logs, once per reason per ANCS session.
    @Test func aCommandThatCannotBeSentIsReportedOncePerSession() throws {
        var config = SimulatedPhone.Configuration()
        config.mtu = 23
        // Bundle identifiers of 300 bytes (kept: the consumer allows 400):
        // Get App Attributes for one needs 17 Prepare Writes + Execute Write
        // at ATT_MTU 23, more than the bearer's 16-request queue holds.
        let apps = ["one", "two"].map { "com.example." + String(repeating: "x", count: 284) + "." + $0 }
        config.preexisting = apps.enumerated().map { i, app in
            SimulatedNotification(uid: UInt32(i + 1), category: .social, appIdentifier: app, title: "T\(i + 1)")
        }
        var consumer = NotificationConsumer.Configuration()
        consumer.appIdentifierMaxLength = 400
        let t = try EndToEnd(config, consumer: consumer)
        func notSent() -> [PhoneSession.CommandFailure] {
            t.events.compactMap { if case .ancsCommandNotSent(let f) = $0 { f } else { nil } }
        }
        try t.run(until: { t.attributesReady(1, [.title]) && t.attributesReady(2, [.title]) })
        try t.run(until: { !notSent().isEmpty })
        try t.idle(.milliseconds(200))
        #expect(notSent() == [.queueFull], "two app names could not be asked for: reported once")
        #expect(t.appName(1) == nil && t.appName(2) == nil)
        // A new ANCS session reports it again.
        try t.run(until: { t.phone.log.contains("service changed subscribed") })
        t.phone.perform(.unpublishANCS)
        try t.run(until: { t.has(.sessionEnded(.serviceChanged)) })
        t.phone.perform(.publishANCS(at: nil))
        try t.run(until: { notSent().count == 2 })
        #expect(notSent() == [.queueFull, .queueFull])
    }

    @Test(arguments: [23, 185, 517])
    func liveNotificationsAreFetchedAcrossFragmentedDataSource(mtu: Int) throws {
        var config = SimulatedPhone.Configuration()
        config.mtu = mtu
        let t = try EndToEnd(config)
        try t.run(until: { t.subscribed == 1 })
        let message = String(repeating: "Long message with ünïcödé, ", count: 8)  // > 200 bytes
        t.phone.perform(.add(SimulatedNotification(
            uid: 42, category: .social, flags: .important, title: "Group chat", message: message)))
        t.session.notificationShown(NotificationUID(42))
        try t.run(until: { t.attributesReady(42, [.title, .message]) })
        #expect(t.text(42, .title) == "Group chat")
        let stored = try #require(t.text(42, .message))
        #expect(message.hasPrefix(stored) && stored.utf8.count >= 200)
        let ds = t.phone.log.filter { $0.hasPrefix("data source") }
        #expect(!ds.isEmpty)
        if mtu == 23 { #expect(ds.contains { !$0.hasSuffix("in 1 fragment") }, "\(ds)") }
        let info = t.ancsEvents.compactMap { e -> NotificationInfo? in
            if case .notificationAdded(let i) = e { return i } else { return nil }
        }.first
        #expect(info?.shouldAlert == true)
        #expect(info?.flags.contains(.important) == true)
    }

    @Test func answeringACallRemovesIt() throws {
        let t = try EndToEnd()
        try t.run(until: { t.subscribed == 1 })
        t.phone.perform(.add(SimulatedNotification(uid: 7, category: .incomingCall, title: "Mum")))
        try t.run(until: { t.attributesReady(7, [.title, .positiveActionLabel]) })
        #expect(t.text(7, .positiveActionLabel) == "Answer")
        #expect(t.text(7, .negativeActionLabel) == "Decline")
        try t.session.performAction(.positive, on: NotificationUID(7))
        try t.run(until: { t.has(.notificationRemoved(NotificationUID(7), .removedByPhone)) })
        #expect(t.has(.actionSent(NotificationUID(7), .positive)))
        #expect(t.phone.log.contains("action positive 7"))
        #expect(t.phone.log.contains("answered 7"))
        #expect(t.phone.provider.notification(7) == nil)
        #expect(t.session.consumer.notification(NotificationUID(7)) == nil)
    }

    @Test func dismissingWithTheNegativeAction() throws {
        var config = SimulatedPhone.Configuration()
        config.preexisting = [Self.anna]
        let t = try EndToEnd(config)
        try t.run(until: { t.attributesReady(1, [.title]) })
        try t.session.performAction(.negative, on: NotificationUID(1))
        try t.run(until: { t.has(.notificationRemoved(NotificationUID(1), .removedByPhone)) })
        #expect(t.phone.log.contains("dismissed 1"))
    }

    @Test func anActionOnANotificationThePhoneJustRemovedFailsWith0xA2() throws {
        var config = SimulatedPhone.Configuration()
        config.preexisting = [Self.anna]
        let t = try EndToEnd(config)
        try t.run(until: { t.attributesReady(1, [.title]) && t.appName(1) != nil })
        try t.session.performAction(.negative, on: NotificationUID(1))  // written at once
        t.phone.provider.notification(1).map { _ in t.phone.perform(.remove(uid: 1)) }
        try t.run(until: { t.phone.log.contains { $0.hasSuffix("-> error 0xA2") } })
        try t.run(until: {
            t.ancsEvents.contains {
                if case .actionFailed(NotificationUID(1), .negative, _) = $0 { return true }
                return false
            }
        })
        #expect(t.has(.actionFailed(NotificationUID(1), .negative, .phone(.invalidParameter))))
    }

    @Test func modifiedAndRemovedNotifications() throws {
        let t = try EndToEnd()
        try t.run(until: { t.subscribed == 1 })
        t.phone.run([
            .add(Self.anna),
            .wait(.milliseconds(50)),
            .modify(uid: 1, title: "Anna B.", subtitle: nil, message: nil, flags: nil),
            .wait(.milliseconds(50)),
            .remove(uid: 1),
        ])
        try t.run(until: { t.has(.notificationRemoved(NotificationUID(1), .removedByPhone)) })
        #expect(t.ancsEvents.contains { if case .notificationModified = $0 { return true } else { return false } })
    }

    @Test func ancsUnpublishedEndsTheSessionAndRepublishingStartsANewOne() throws {
        var config = SimulatedPhone.Configuration()
        config.preexisting = [Self.anna]
        let t = try EndToEnd(config)
        try t.run(until: { t.attributesReady(1, [.title]) })
        try t.run(until: { t.phone.log.contains("service changed subscribed") })
        t.phone.perform(.unpublishANCS)
        try t.run(until: { t.has(.sessionEnded(.serviceChanged)) })
        #expect(t.session.ancsService == nil)
        #expect(t.session.consumer.notificationCount == 0, "UIDs are only valid inside a session; ANCS withdrawn keeps nothing")
        t.phone.perform(.publishANCS(at: 0x0090))
        try t.run(until: { t.subscribed == 2 && t.attributesReady(1, [.title]) })
        #expect(t.session.ancsService?.range.start == 0x0090)
        #expect(t.text(1, .title) == "Anna")
        #expect(t.session.consumer.notificationCount == 1)
    }

    @Test func ancsAbsentAtConnectStartsWhenItAppears() throws {
        var config = SimulatedPhone.Configuration()
        config.ancsPublished = false
        let t = try EndToEnd(config)
        t.session.ancsAbsenceGrace = .milliseconds(50)
        try t.run(until: { t.events.contains { if case .ancsUnavailable = $0 { return true } else { return false } } })
        try t.run(until: { t.phone.log.contains("service changed subscribed") })
        t.phone.run([.publishANCS(at: nil), .wait(.milliseconds(20)), .add(Self.anna)])
        try t.run(until: { t.attributesReady(1, [.title]) })
        #expect(t.subscribed == 1)
    }

    @Test func encryptedANCSMakesTheWatchPairFirst() throws {
        var config = SimulatedPhone.Configuration()
        config.requireEncryption = true
        config.preexisting = [Self.anna]
        let t = try EndToEnd(config)
        try t.run(until: { t.attributesReady(1, [.title]) })
        #expect(t.link.level == .encrypted)
        #expect(t.link.pairingRequests >= 1)
    }

    @Test func phoneTimeArrives() throws {
        let t = try EndToEnd()
        try t.run(until: { t.events.contains { if case .phoneTime = $0 { return true } else { return false } } })
        #expect(t.session.currentTime.phoneClock?.time.year == 2024)
    }

    /// Issue 25 item 2: the phone's battery, read on connecting and then
    /// notified by its Battery Service (0x180F / 0x2A19).
    @Test func thePhonesBatteryIsReadThenFollowed() throws {
        let t = try EndToEnd()
        func levels() -> [Int?] {
            t.events.compactMap { if case .phoneBattery(let l) = $0 { return .some(l) } else { return nil } }
        }
        try t.run(until: { levels() == [87] })
        try t.run(until: { t.phone.log.contains("battery level subscribed") })
        t.phone.perform(.battery(42))
        try t.run(until: { levels() == [87, 42] })
        #expect(t.session.phoneBattery.level == 42)
        // The same level again is no change.
        t.phone.perform(.battery(42))
        try t.idle(.milliseconds(100))
        #expect(levels() == [87, 42])
    }

    @Test func disconnectEndsTheSession() throws {
        let t = try EndToEnd()
        try t.run(until: { t.subscribed == 1 })
        t.phone.perform(.disconnect)
        try t.run(until: { t.has(.sessionEnded(.disconnected)) })
        #expect(t.events.contains { if case .closed(.linkClosed) = $0 { return true } else { return false } })
    }

    @Test func textScriptDrivesThePhone() throws {
        let script = try PhoneScript.parse("""
            # a small scenario
            app com.example.chat "Chat"
            add uid=5 category=social app=com.example.chat title="Bob" message="Hi \\"there\\"" flags=important
            wait 20ms
            add uid=6 category=incomingCall title="Mum"
            """)
        #expect(script.count == 4)
        let t = try EndToEnd()
        try t.run(until: { t.subscribed == 1 })
        t.phone.run(script)
        try t.run(until: { t.attributesReady(5, [.title, .message]) && t.attributesReady(6, [.title]) && t.appName(5) != nil })
        #expect(t.text(5, .message) == "Hi \"there\"")
        #expect(t.appName(5) == "Chat")
    }
}
