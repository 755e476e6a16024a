import ANCS
import Notifications
import BoardConfig
import HAL
import Haptics
import Screens
import Testing
import Watch

/// Notifications arriving and leaving: what vibrates, what pops up, the
/// unread count, the list's selection, the phone and the link.
@Suite struct WatchModelNotificationTests {
    // MARK: vibration (the board's VibrationPolicy)

    /// Issue 19 item 9: by default only Important notifications (and calls)
    /// vibrate; the rest still pop up, silently.
    @Test func importantDoublePulsesOthersStayStill() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.important])
        rig.add(2, .email)
        rig.add(3, .news, flags: [.important, .positiveAction])
        let plays = rig.sink.take().filter { if case .play = $0 { true } else { false } }
        #expect(plays == [.play("double"), .play("double")])
        #expect(rig.screen == .detail(NotificationUID(3), scroll: 0))
    }

    @Test func aBoardCanTurnAShortPulseOnForTheRest() {
        var policy = VibrationPolicy.standard
        policy.defaultPattern = .short
        let rig = ModelRig(policy: policy)
        rig.connect()
        rig.add(1, .social)
        #expect(rig.sink.take() == [.play("short"), .shown(1)])
    }

    @Test func silentPreExistingModifiedAndRemovedNeverVibrate() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.silent, .important])
        rig.add(2, .social, flags: [.preExisting, .important])
        rig.modify(2, .social, flags: [.important])
        rig.remove(1)
        #expect(rig.sink.take() == [])
        #expect(rig.screen == .idleClock, "nothing popped up")
    }

    @Test func theBoardsPolicyDecides() {
        var policy = VibrationPolicy(important: .short, defaultPattern: nil)
        policy.setPattern(.double, for: .email)
        let rig = ModelRig(policy: policy)
        rig.connect()
        rig.add(1, .social)
        rig.add(2, .social, flags: [.important])
        rig.add(3, .email)
        let plays = rig.sink.take().filter { if case .play = $0 { true } else { false } }
        #expect(plays == [.play("short"), .play("double")])
    }

    // MARK: pop-ups

    @Test func aNewAlertOpensAndFetchesItsMessage() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.silent])
        rig.add(2, .social, flags: [.silent])
        rig.press(.positive)
        rig.press(.down)
        #expect(rig.screen == .list(selected: 1))
        _ = rig.sink.take()
        rig.add(3, .email)
        #expect(rig.screen == .detail(NotificationUID(3), scroll: 0))
        #expect(rig.model.listSelection == 0, "the newest is selected")
        #expect(rig.sink.take() == [.shown(3)])
    }

    // MARK: unread count

    @Test func unreadCountsNewNotificationsUntilTheListIsSeen() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.preExisting])
        #expect(rig.model.unread == 0, "pre-existing ones were seen on the phone")
        rig.add(2, .social, flags: [.silent])
        rig.add(3, .social)
        #expect(rig.model.unread == 2, "an alert that pops up is not yet read")
        rig.press(.negative, .longPress)
        #expect(rig.screen == .list(selected: 0))
        #expect(rig.model.unread == 0)
        rig.press(.back)
        rig.add(4, .social, flags: [.silent])
        #expect(rig.model.unread == 1)
        rig.press(.positive)
        #expect(rig.model.unread == 0)
        rig.press(.back)
        rig.add(5, .social, flags: [.silent])
        rig.disconnect()
        #expect(rig.model.unread == 0)
        rig.connect()
        #expect(rig.model.unread == 0)
    }

    /// Issue 19 item 7: removals take their notification out of the count.
    @Test func removalsDecreaseTheUnreadCount() {
        let rig = ModelRig()
        rig.connect()
        for uid: UInt32 in 1...3 { rig.add(uid, .social, flags: [.silent]) }
        #expect(rig.model.unread == 3)
        rig.remove(2)
        #expect(rig.model.unread == 2)
        rig.remove(1)
        rig.remove(3)
        #expect(rig.model.unread == 0, "the phone removed all three: nothing is unread")
        #expect(rig.model.notifications.notificationCount == 0)
        // A removal of a notification that was already seen leaves the rest.
        for uid: UInt32 in 4...5 { rig.add(uid, .social, flags: [.silent]) }
        rig.press(.positive)
        rig.press(.back)
        rig.add(6, .social, flags: [.silent])
        rig.remove(4)
        #expect(rig.model.unread == 1)
    }

    @Test func evictionsAndTheSessionsEndClearTheirPartOfTheCount() {
        let rig = ModelRig()
        let phone = rig.connect()
        let capacity = phone.consumer.configuration.storeCapacity
        for uid in 1...UInt32(capacity + 5) { rig.add(uid, .social, flags: [.silent]) }
        #expect(rig.model.unread == capacity, "never more than the store holds")
        phone.consumer.sessionEnded(.unsubscribed, now: rig.now)
        #expect(rig.model.unread == 0)
    }

    // MARK: the session and the link (issue 19 item 8)

    @Test func aDisconnectShowsTheLinkWaitingAgain() {
        let rig = ModelRig()
        rig.model.linkChanged(.advertising, now: rig.now)
        rig.connect()
        #expect(rig.model.link == .connected)
        rig.add(1, .social)
        rig.disconnect()
        #expect(rig.model.link == .advertising, "not a stale 'connected'")
        rig.model.linkChanged(.encrypted, now: rig.now)
        rig.connect()
        rig.disconnect()
        #expect(rig.model.link == .advertising)
        // Bluetooth that went off first stays off.
        rig.connect()
        rig.model.linkChanged(.off, now: rig.now)
        rig.disconnect()
        #expect(rig.model.link == .off)
    }

    @Test(arguments: [SessionEndReason.serviceChanged, .unsubscribed, .resubscribing])
    func theSessionsEndLeavesNoStaleNotificationOnScreen(reason: SessionEndReason) {
        let rig = ModelRig()
        rig.connect()
        rig.model.linkChanged(.encrypted, now: rig.now)
        rig.add(1, .social, flags: [.important])
        rig.add(2, .social, flags: [.silent])
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0))
        #expect(rig.model.unread == 2)
        rig.phone!.consumer.sessionEnded(reason, now: rig.now)
        #expect(rig.screen == .idleClock)
        #expect(rig.model.unread == 0)
        #expect(rig.model.link == .encrypted, "the link itself is still up")
        // From the list too.
        rig.phone!.consumer.sessionStarted(now: rig.now)
        rig.add(3, .social, flags: [.silent])
        rig.press(.positive)
        #expect(rig.screen == .list(selected: 0))
        rig.phone!.consumer.sessionEnded(reason, now: rig.now)
        #expect(rig.screen == .idleClock)
    }

    // MARK: the list's selection

    @Test func removingNotificationsClampsTheSelection() {
        let rig = ModelRig()
        rig.connect()
        for uid: UInt32 in 1...3 { rig.add(uid, .social, flags: [.silent]) }
        rig.press(.positive)
        rig.press(.up)
        #expect(rig.screen == .list(selected: 2))
        rig.remove(2)
        #expect(rig.screen == .list(selected: 1))
        #expect(rig.listUIDs == [3, 1])
        rig.remove(3)
        #expect(rig.screen == .list(selected: 0))
        rig.remove(1)
        #expect(rig.screen == .idleClock, "an emptied list goes back to the clock")
        #expect(rig.model.listSelection == 0)
    }

    @Test func removingTheOpenNotificationGoesBackToTheList() {
        let rig = ModelRig()
        rig.connect()
        for uid: UInt32 in 1...3 { rig.add(uid, .social, flags: [.silent]) }
        rig.press(.positive)
        rig.press(.down)
        rig.press(.down)
        rig.press(.positive)
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0))
        rig.remove(3)
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0), "another removal leaves it open")
        rig.remove(1)
        #expect(rig.screen == .list(selected: 0))
        #expect(rig.model.listSelection == 0)
    }

    @Test func theListIsNewestFirst() {
        let rig = ModelRig()
        rig.connect()
        for uid: UInt32 in [5, 9, 2] { rig.add(uid, .social, flags: [.silent]) }
        #expect(rig.listUIDs == [2, 9, 5])
        #expect(rig.model.uidInList(at: 1) == NotificationUID(9))
        #expect(rig.model.uidInList(at: 3) == nil)
    }

    // MARK: the phone and the link

    @Test func connectingShowsTheClockAndDisconnectingTheWaitingScreen() {
        let rig = ModelRig()
        #expect(rig.screen == .waitingForPhone)
        #expect(rig.model.link == .off)
        rig.connect()
        #expect(rig.screen == .idleClock)
        #expect(rig.model.isPhoneConnected)
        #expect(rig.model.link == .connected)
        rig.add(1, .social)
        rig.disconnect()
        #expect(rig.screen == .waitingForPhone)
        #expect(!rig.model.isPhoneConnected)
        #expect(rig.model.notifications.notificationCount == 0)
        // A second disconnection is ignored.
        let renders = rig.sink.renders
        rig.model.phoneDisconnected(now: rig.now)
        #expect(rig.sink.renders == renders)
    }

    @Test func theLinkIndicatorRedrawsOnlyWhenItChanges() {
        let rig = ModelRig()
        rig.model.linkChanged(.advertising, now: rig.now)
        let renders = rig.sink.renders
        rig.model.linkChanged(.advertising, now: rig.now)
        #expect(rig.sink.renders == renders)
        rig.model.linkChanged(.encrypted, now: rig.now)
        #expect(rig.sink.renders == renders + 1)
        // Connecting keeps a better indicator.
        rig.connect()
        #expect(rig.model.link == .encrypted)
    }

    @Test func modificationsAndFetchedAttributesRedraw() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.silent])
        var renders = rig.sink.renders
        rig.modify(1, .social, flags: [.silent])
        #expect(rig.sink.renders > renders)
        renders = rig.sink.renders
        rig.model.ancsEvent(.attributesReady(NotificationUID(1), [.title]), now: rig.now)
        #expect(rig.sink.renders > renders)
        #expect(rig.sink.take() == [])
    }
}
