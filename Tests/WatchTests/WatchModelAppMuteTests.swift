import BoardConfig
import HAL
import Input
import Notifications
import Screens
import Testing

@testable import Watch

/// Issue 25 item 3: an app muted from the wrist (a notification's menu:
/// 1 hour, today, always), listed and undone on "Muted apps", on the
/// manual clock.
@Suite struct WatchModelAppMuteTests {
    /// 2024-05-01 21:30 by the system clock; two chat notifications on the list.
    static func rig() -> (ModelRig, DeskSource) {
        var settings = ModelRig.defaultSettings()
        settings.systemClock = { CivilTime(year: 2024, month: 5, day: 1, hour: 21, minute: 30, second: 0) }
        let rig = ModelRig(settings: settings)
        let desk = DeskSource()
        desk.events = { [unowned rig] e in rig.model.notificationEvent(e, now: rig.now) }
        rig.model.phoneConnected(notifications: desk, now: rig.now)
        desk.post(7, app: "com.example.chat", appName: "Chat", title: "Lunch?", message: "At one", flags: [.important])
        rig.press(.back)
        _ = rig.sink.take()
        return (rig, desk)
    }

    func plays(_ rig: ModelRig) -> Bool {
        rig.sink.take().contains { if case .play = $0 { true } else { false } }
    }

    /// The list's negative long press, then the `index`th entry.
    func choose(_ rig: ModelRig, _ entry: NotificationMenu.Entry) {
        rig.press(.negative, .longPress)
        while case .notificationMenu(let uid, let selected) = rig.screen,
              NotificationMenu.entry(selected, for: uid, in: rig.model.notifications, hasReplies: true, timeKnown: true) != entry {
            rig.press(.down)
        }
        rig.press(.positive)
    }

    @Test func muteOneHourKeepsTheAppStillThenItBuzzesAgain() {
        let (rig, desk) = Self.rig()
        choose(rig, .muteHour)
        #expect(rig.screen == .message("Chat muted for 1 hour"))
        #expect(rig.sink.take().contains(.mutesChanged))
        rig.press(.negative)
        desk.post(8, app: "com.example.chat", appName: "Chat", title: "Still there?", message: "", flags: [.important])
        rig.advance(by: .seconds(2))
        #expect(!plays(rig), "muted: listed, still")
        #expect(rig.screen != .detail(NotificationID(8), scroll: 0), "and no pop-up")
        #expect(rig.listUIDs.contains(8))
        // Another app is not muted.
        desk.post(9, app: "com.example.mail", appName: "Mail", title: "Invoice", message: "", flags: [.important])
        rig.advance(by: .seconds(2))
        #expect(plays(rig))
        // An hour later the app buzzes again; the mute has left the table.
        rig.advance(by: .seconds(3600))
        desk.post(10, app: "com.example.chat", appName: "Chat", title: "Hello?", message: "", flags: [.important])
        rig.advance(by: .seconds(2))
        #expect(plays(rig))
        #expect(rig.model.appMutes.count(now: rig.now) == 0)
    }

    @Test func muteTodayEndsAtMidnightAndAlwaysStaysUntilUndone() {
        let (rig, desk) = Self.rig()
        choose(rig, .muteUntilTomorrow)
        #expect(rig.screen == .message("Chat muted until tomorrow"))
        // 21:30 + 2 h 29 min: still today.
        rig.advance(by: .seconds(2 * 3600 + 29 * 60))
        #expect(rig.model.appMutes.isMuted(UnsafeRawBufferPointer(start: nil, count: 0), now: rig.now) == false)
        #expect(rig.model.appMutes.count(now: rig.now) == 1)
        rig.advance(by: .seconds(60))
        #expect(rig.model.appMutes.count(now: rig.now) == 0, "midnight")

        rig.press(.negative)  // the notice: back to the clock
        rig.press(.positive)  // the list
        choose(rig, .muteAlways)
        #expect(rig.screen == .message("Chat muted (Menu > Muted apps undoes it)"))
        rig.advance(by: .seconds(30 * 86_400))
        desk.post(11, app: "com.example.chat", appName: "Chat", title: "A month on", message: "", flags: [.important])
        rig.advance(by: .seconds(2))
        #expect(!plays(rig))
        #expect(rig.model.appMutes.count(now: rig.now) == 1)
    }

    @Test func mutedAppsListsThemAndThePositiveButtonUndoesOne() {
        let (rig, desk) = Self.rig()
        choose(rig, .muteHour)
        rig.press(.negative)
        desk.post(8, app: "com.example.mail", appName: "Mail", title: "Invoice", message: "", flags: [])
        rig.press(.back)
        choose(rig, .muteAlways)
        rig.press(.negative)
        #expect(rig.model.appMutes.count(now: rig.now) == 2)
        // The clock's negative long press, then up twice: "Muted apps" before "Status".
        rig.press(.back)
        rig.press(.negative, .longPress)
        rig.press(.up)
        rig.press(.up)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.mutedApps.rawValue))
        rig.press(.positive)
        #expect(rig.screen == .mutedApps(selected: 0))
        _ = rig.sink.take()
        rig.press(.down)
        rig.press(.positive)  // undoes Mail
        #expect(rig.sink.take().contains(.mutesChanged))
        #expect(rig.model.appMutes.count(now: rig.now) == 1)
        #expect(rig.screen == .mutedApps(selected: 0))
        rig.press(.positive)  // and Chat
        #expect(rig.model.appMutes.count(now: rig.now) == 0)
        rig.press(.negative)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.mutedApps.rawValue))
    }

    @Test func theTableIsBoundedTheMuteThatEndsFirstMakesRoom() {
        var mutes = AppMutes()
        let now = MonotonicInstant.zero
        for i in 0..<AppMutes.capacity {
            var id = "app\(i)"
            id.withUTF8 { b in _ = mutes.mute(UnsafeRawBufferPointer(b), name: UnsafeRawBufferPointer(b), until: i == 3 ? now.advanced(by: .seconds(10)) : nil, now: now) }
        }
        #expect(mutes.count(now: now) == AppMutes.capacity)
        var extra = "extra"
        extra.withUTF8 { b in _ = mutes.mute(UnsafeRawBufferPointer(b), name: UnsafeRawBufferPointer(b), until: nil, now: now) }
        #expect(mutes.count(now: now) == AppMutes.capacity)
        var third = "app3"
        let thirdMuted = third.withUTF8 { mutes.isMuted(UnsafeRawBufferPointer($0), now: now) }
        #expect(!thirdMuted, "the timed one made room")
        let extraMuted = extra.withUTF8 { mutes.isMuted(UnsafeRawBufferPointer($0), now: now) }
        #expect(extraMuted)
        // Empty or oversized identifiers are refused.
        let empty = mutes.mute(UnsafeRawBufferPointer(start: nil, count: 0), name: UnsafeRawBufferPointer(start: nil, count: 0), until: nil, now: now)
        #expect(!empty)
    }
}
