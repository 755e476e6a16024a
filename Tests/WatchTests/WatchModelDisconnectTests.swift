import ANCS
import Notifications
import HAL
import Haptics
import Screens
import Testing
import Watch

/// Issue 15 item 4: the disconnect alert, and the list kept across a short
/// disconnect (marked as from the previous session, then reconciled).
@Suite struct WatchModelDisconnectTests {
    /// A connected phone whose ANCS session started (the link is established).
    static func established(_ rig: ModelRig) -> AnsweringPhone {
        let phone = AnsweringPhone(rig: rig)
        phone.connect()
        #expect(rig.model.linkEstablished)
        _ = rig.sink.take()
        return phone
    }

    // MARK: the alert

    @Test func aPhoneGoneForTheDelayVibratesOnceAndSaysSo() {
        let rig = ModelRig()
        let phone = Self.established(rig)
        #expect(rig.model.disconnectAlertDelay == .seconds(10))
        rig.advance(by: .seconds(60), phone: phone)  // the display is off by now
        _ = rig.sink.take()
        phone.disconnect()
        rig.advance(by: .milliseconds(9_999), phone: phone)
        #expect(rig.sink.take().isEmpty)
        #expect(rig.screen == .waitingForPhone)
        rig.advance(by: .milliseconds(1), phone: phone)
        #expect(rig.sink.take() == [.power(.on), .play("short")])
        #expect(rig.screen == .message(WatchModel.disconnectNotice))
        rig.advance(by: .seconds(3600), phone: phone)
        #expect(!rig.sink.take().contains(.play("short")), "once per disconnect")
    }

    @Test func aShortDisconnectSaysNothing() {
        let rig = ModelRig()
        let phone = Self.established(rig)
        phone.disconnect()
        rig.advance(by: .seconds(9), phone: phone)
        phone.connect()
        rig.advance(by: .seconds(60), phone: phone)
        #expect(!rig.sink.take().contains(.play("short")))
        #expect(rig.screen == .idleClock)
    }

    @Test func quietHoursKeepItStillAndDark() {
        var settings = ModelRig.defaultSettings()
        settings.quietHours = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60)
        let clock = SettableClock(SettableClock.at(21, 59))
        settings.systemClock = clock.read
        let rig = ModelRig(settings: settings)
        let phone = Self.established(rig)
        rig.advance(by: .seconds(60), phone: phone)
        _ = rig.sink.take()
        clock.time = SettableClock.at(23, 0)
        phone.disconnect()
        rig.advance(by: .seconds(11), phone: phone)
        #expect(rig.sink.take().isEmpty, "no vibration, no display waking")
        #expect(rig.model.vibrationsKeptStill == 1)
        #expect(rig.screen == .waitingForPhone, "no notice")
    }

    @Test func aLinkThatNeverGotEstablishedRaisesNoAlert() {
        let rig = ModelRig()
        let phone = AnsweringPhone(rig: rig)
        rig.model.phoneConnected(notifications: phone.consumer, now: rig.now)
        rig.model.linkChanged(.connected, now: rig.now)
        #expect(!rig.model.linkEstablished)
        rig.model.phoneDisconnected(now: rig.now)
        rig.advance(by: .seconds(30), phone: phone)
        #expect(!rig.sink.take().contains(.play("short")))
        // Encrypted is established too.
        rig.model.phoneConnected(notifications: phone.consumer, now: rig.now)
        rig.model.linkChanged(.encrypted, now: rig.now)
        #expect(rig.model.linkEstablished)
        rig.model.phoneDisconnected(now: rig.now)
        rig.advance(by: .seconds(30), phone: phone)
        #expect(rig.sink.take().contains(.play("short")))
    }

    @Test func theDelayIsAdjustableAndNilTurnsItOff() {
        let rig = ModelRig()
        rig.model.disconnectAlertDelay = .seconds(2)
        let phone = Self.established(rig)
        phone.disconnect()
        rig.advance(by: .seconds(2), phone: phone)
        #expect(rig.sink.take().contains(.play("short")))
        rig.model.disconnectAlertDelay = nil
        phone.connect()
        phone.disconnect()
        rig.advance(by: .seconds(3600), phone: phone)
        #expect(!rig.sink.take().contains(.play("short")))
    }

    // MARK: the list across a disconnect

    static let mom = AnsweringPhone.Posted(title: "Mom", date: "20240501T110000")
    static let bob = AnsweringPhone.Posted(title: "Bob", date: "20240501T113000")
    static let report = AnsweringPhone.Posted(app: "com.apple.mobilemail", title: "Report", date: "20240501T114500")

    @Test func theListStaysThroughAShortDisconnectMarkedAsFromThePreviousSession() {
        let rig = ModelRig()
        let phone = Self.established(rig)
        phone.post(1, Self.mom)
        phone.post(2, Self.bob)
        phone.post(3, Self.report)
        #expect(rig.screen == .detail(NotificationUID(3), scroll: 0), "the last one popped up")
        rig.press(.back)
        #expect(rig.screen == .list(selected: 0))
        #expect(rig.listTitles == ["Report", "Bob", "Mom"])
        phone.disconnect()
        #expect(rig.listTitles == ["*Report", "*Bob", "*Mom"])
        #expect(rig.screen == .list(selected: 0), "the list stays on screen")
        #expect(rig.model.notifications.notification(NotificationUID(1)) == nil, "the session's UIDs are void")
        // While apart, the phone dismissed Bob; the new session announces the others.
        phone.notifications.removeAll { $0.uid == 2 }
        rig.advance(by: .seconds(5), phone: phone)
        phone.connect()
        #expect(rig.listTitles == ["Report", "Mom", "*Bob"], "re-announced ones replace their kept copy")
        rig.advance(by: .seconds(2), phone: phone)
        #expect(rig.listTitles == ["Report", "Mom"], "not re-announced: dropped once announcements settled")
        #expect(rig.screen == .list(selected: 0))
        #expect(rig.model.notifications.notification(NotificationUID(3))?.appDisplayName == "Mail")
    }

    @Test func sameAppTitleAndDateAreTheSameEntryEvenUnderANewUID() {
        let rig = ModelRig()
        let phone = Self.established(rig)
        phone.post(1, Self.mom)
        phone.post(2, Self.bob)
        phone.disconnect()
        // iOS may number the new session's notifications afresh; a Mom of
        // another date is another notification.
        phone.notifications = [
            (40, Self.bob), (41, Self.mom), (42, AnsweringPhone.Posted(title: "Mom", date: "20240501T123000")),
        ]
        phone.connect()
        rig.advance(by: .seconds(3), phone: phone)
        #expect(rig.listTitles == ["Mom", "Mom", "Bob"])
        let stats = rig.consumer.statistics
        #expect(stats.previousSessionReannounced == 2 && stats.previousSessionDropped == 0)
        var uids: [UInt32] = []
        rig.model.notifications.forEachNotification(newestFirst: true) { uids.append($0.uid.rawValue) }
        #expect(uids == [42, 41, 40])
    }

    @Test func aDetailOfAKeptNotificationFollowsItsReannouncement() {
        let rig = ModelRig()
        let phone = Self.established(rig)
        phone.post(1, Self.mom)
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0))
        phone.disconnect()
        #expect(rig.screen == .list(selected: 0), "a detail goes back to the kept list")
        // The phone is back but slow to answer: Mom is announced, not fetched yet.
        phone.answering = false
        phone.connect()
        #expect(rig.listTitles == ["", "*Mom"])
        rig.press(.down)
        rig.press(.select)
        guard case .detail(let kept, _) = rig.screen else {
            Issue.record("no detail: \(rig.screen)")
            return
        }
        #expect(kept.rawValue >= NotificationConsumer.previousSessionUIDBase)
        phone.answering = true
        phone.answerAll()
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0), "the same notification, under its new UID")
        #expect(rig.listTitles == ["Mom"])
    }

    @Test func theStoreOfKeptNotificationsIsBounded() {
        let rig = ModelRig()
        let phone = Self.established(rig)
        let capacity = phone.consumer.configuration.storeCapacity
        for uid in 1...UInt32(capacity) { phone.post(uid, .init(title: "n\(uid)")) }
        phone.disconnect()
        #expect(rig.consumer.previousSessionCount == capacity)
        // A new session with as many new ones pushes every kept one out, oldest first.
        phone.notifications = (1...UInt32(capacity)).map { (1000 + $0, AnsweringPhone.Posted(title: "new\($0)")) }
        phone.connect()
        #expect(rig.model.notifications.notificationCount == capacity)
        #expect(rig.consumer.previousSessionCount == 0)
    }
}
