import BoardConfig
import HAL
import Input
import Notifications
import Screens
import Testing
import Watch

/// A notification's menu (the list's negative long press): reply with a
/// canned text, mute the app; only what the phone offers (an iPhone: none,
/// and the gesture goes back to the clock as before).
@Suite struct WatchModelNotificationMenuTests {
    /// A desktop source offering `offered`, with two notifications, on the list (7 selected).
    static func onTheList(offering offered: Set<NotificationRequest>) -> (ModelRig, DeskSource) {
        let rig = ModelRig()
        let desk = DeskSource()
        desk.offered = offered
        desk.events = { [unowned rig] e in rig.model.notificationEvent(e, now: rig.now) }
        rig.model.phoneConnected(notifications: desk, now: rig.now)
        desk.post(6, app: "chat", appName: "Chat", title: "Older", message: "", flags: [.negativeAction])
        desk.post(7, app: "chat", appName: "Chat", title: "Lunch?", message: "At one", flags: [.negativeAction])
        #expect(rig.screen == .detail(NotificationID(7), scroll: 0))  // it popped up
        rig.press(.back)
        #expect(rig.screen == .list(selected: 0))
        _ = rig.sink.take()
        return (rig, desk)
    }

    @Test(arguments: BoardButtons.all)
    func theMenuMovesChoosesAndGoesBack(board: BoardButtons) {
        let back = WatchModelButtonTests.Outcome(screen: .list(selected: 0))
        let uid = NotificationID(7)
        WatchModelButtonTests().check(board, start: {
            let (rig, _) = Self.onTheList(offering: [.reply, .muteApp])
            rig.press(.negative, .longPress)
            #expect(rig.screen == .notificationMenu(uid, selected: 0))
            return rig
        }, [
            "positive press": .init(screen: .replyPicker(uid, selected: 0)), "select press": .init(screen: .replyPicker(uid, selected: 0)),
            "positive longPress": .init(screen: .notificationMenu(uid, selected: 1)),
            "down press": .init(screen: .notificationMenu(uid, selected: 1)), "down longPress": .init(screen: .notificationMenu(uid, selected: 1)),
            // Five entries (reply, mute on phone, the watch's three mutes): up wraps to the last.
            "positive doublePress": .init(screen: .notificationMenu(uid, selected: 4)),
            "up press": .init(screen: .notificationMenu(uid, selected: 4)), "up longPress": .init(screen: .notificationMenu(uid, selected: 4)),
            "negative press": back, "negative longPress": back, "back press": back, "back longPress": back,
        ])
    }

    @Test func aCannedReplyGoesOutWithItsIndex() {
        let (rig, _) = Self.onTheList(offering: [.reply, .muteApp])
        rig.model.userSettings.replies = ["OK", "On my way", "Later"]
        rig.press(.negative, .longPress)
        rig.press(.positive)
        rig.press(.down)
        #expect(rig.screen == .replyPicker(NotificationID(7), selected: 1))
        rig.press(.positive)
        #expect(rig.sink.take() == [.request(.reply, 7, reply: 1)])
        #expect(rig.screen == .list(selected: 0))
    }

    @Test func muteThisAppAloneWhenThePhoneCannotReplyOrThereAreNoReplies() {
        let (rig, _) = Self.onTheList(offering: [.muteApp])
        rig.press(.negative, .longPress)
        rig.press(.positive)
        #expect(rig.sink.take() == [.request(.muteApp, 7, reply: 0)])

        let (noReplies, _) = Self.onTheList(offering: [.reply, .muteApp])
        noReplies.model.userSettings.replies = []
        noReplies.press(.negative, .longPress)
        noReplies.press(.positive)
        #expect(noReplies.sink.take() == [.request(.muteApp, 7, reply: 0)])
    }

    @Test func withNothingFromThePhoneTheWatchsOwnMutesAreOffered() {
        let (rig, _) = Self.onTheList(offering: [])
        rig.press(.negative, .longPress)
        #expect(rig.screen == .notificationMenu(NotificationID(7), selected: 0))
        #expect(NotificationMenu.count(for: NotificationID(7), in: rig.model.notifications, hasReplies: true, timeKnown: true) == 3)
        // "Mute today" needs the local time.
        #expect(NotificationMenu.count(for: NotificationID(7), in: rig.model.notifications, hasReplies: true, timeKnown: false) == 2)
        #expect(NotificationMenu.entry(0, for: NotificationID(7), in: rig.model.notifications, hasReplies: true, timeKnown: true) == .muteHour)
    }

    @Test func theNotificationGoingTakesItsMenuAndPickerBackToTheList() {
        let (rig, desk) = Self.onTheList(offering: [.reply])
        rig.press(.negative, .longPress)
        rig.press(.positive)
        #expect(rig.screen == .replyPicker(NotificationID(7), selected: 0))
        desk.withdraw(7)
        #expect(rig.screen == .list(selected: 0))
        #expect(rig.sink.take().allSatisfy { if case .request = $0 { false } else { true } })
    }

    @Test func backFromThePickerIsTheMenu() {
        let (rig, _) = Self.onTheList(offering: [.reply, .muteApp])
        rig.press(.negative, .longPress)
        rig.press(.positive)
        rig.press(.up)
        rig.press(.negative)
        #expect(rig.screen == .notificationMenu(NotificationID(7), selected: 0))
    }
}
