import ANCS
import BoardConfig
import HAL
import Haptics
import Notifications
import Screens
import Testing
import WearerSettings

@testable import Watch

/// Issue 25 item 3: the settings file's filters decide an alert by what it
/// says, once its attributes have arrived (the same wait as an app rule).
@Suite struct WatchModelFilterTests {
    static func rig(doNotDisturb: Bool = false) throws -> ModelRig {
        let rig = ModelRig()
        var s = try UserSettingsLoader.parse(Array(#"""
            {
              "apps": { "com.example.chat": { "vibrate": "ring" } },
              "filters": [
                { "title": "mum", "alwaysAlert": true },
                { "message": "promo", "mute": true },
                { "title": "bank", "hideContent": true, "vibrate": "none" }
              ]
            }
            """#.utf8), file: "settings.json", motorCap: .seconds(20))
        s.doNotDisturb.calls = .silent
        rig.model.userSettings = s
        if doNotDisturb { rig.model.restoreDoNotDisturb(remaining: nil, now: rig.now) }
        rig.connect()
        _ = rig.sink.take()
        return rig
    }

    func plays(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .play(let name) = $0 { name } else { nil } }
    }

    @Test func aMessageThatSaysPromoIsListedButStaysStillAndDoesNotPopUp() throws {
        let rig = try Self.rig()
        rig.add(1, .social, flags: [.important])
        #expect(plays(rig.sink.take()).isEmpty, "the motor waits for what it says")
        while rig.phone!.answer(title: "Shop", message: "Your PROMO code: 20% off") != nil {}
        rig.advance(by: .seconds(2))
        #expect(plays(rig.sink.take()).isEmpty)
        #expect(rig.screen != .detail(NotificationID(1), scroll: 0))
        #expect(rig.listUIDs == [1])
        // Another message of the same app: its app rule (ring).
        rig.add(2, .social, flags: [])
        while rig.phone!.answer(title: "Anna", message: "Lunch?") != nil {}
        #expect(plays(rig.sink.take()) == ["ring"])
    }

    @Test func mumAlertsThroughDoNotDisturbWhatElseStaysStill() throws {
        let rig = try Self.rig(doNotDisturb: true)
        rig.add(1, .social, flags: [])
        while rig.phone!.answer(title: "Mum", message: "Call me") != nil {}
        #expect(plays(rig.sink.take()) == ["double"], "alwaysAlert without a pattern of its own: the double pulse")
        #expect(rig.screen == .detail(NotificationID(1), scroll: 0), "and it pops up")
        rig.add(2, .social, flags: [])
        while rig.phone!.answer(title: "Anna", message: "Lunch?") != nil {}
        #expect(plays(rig.sink.take()).isEmpty, "Do Not Disturb keeps the rest still")
    }

    @Test func aBankHidesItsContentAndDoesNotVibrate() throws {
        let rig = try Self.rig()
        rig.add(1, .social, flags: [.important])
        while rig.phone!.answer(title: "My Bank", message: "Balance: 1,234.56") != nil {}
        rig.advance(by: .seconds(2))
        #expect(plays(rig.sink.take()).isEmpty, "vibrate: none")
        let n = try #require(rig.model.notifications.notification(NotificationID(1)))
        #expect(rig.model.userSettings.hidesContent(n))
        rig.add(2, .social, flags: [])
        while rig.phone!.answer(title: "Anna", message: "Lunch?") != nil {}
        #expect(!rig.model.userSettings.hidesContent(rig.model.notifications.notification(NotificationID(2))!))
    }
}
