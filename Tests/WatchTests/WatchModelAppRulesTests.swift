import ANCS
import WearerSettings
import Notifications
import BoardConfig
import HAL
import Haptics
import Screens
import Testing
import Watch

/// The settings file's per-app rules, decided once the AppIdentifier has
/// arrived with the attributes (WatchModel+AppRules).
@Suite struct WatchModelAppRulesTests {
    static let heartbeat = try! VibrationPattern(name: "heartbeat", onOffMilliseconds: [80, 120, 80], cap: .seconds(20))

    static func rig(doNotDisturb: Bool = false, calls: DoNotDisturbOptions.Calls = .ring) -> ModelRig {
        let rig = ModelRig()
        var s = UserSettings()
        s.patterns = [heartbeat]
        s.apps.add("com.apple.MobileSMS", AppRule(vibrate: heartbeat, alwaysAlert: true))
        s.apps.add("com.facebook.Facebook", AppRule(mute: true))
        s.apps.add("com.apple.mobilemail", AppRule(hideContent: true, vibrateNone: true))
        s.doNotDisturb.calls = calls
        rig.model.userSettings = s
        if doNotDisturb { rig.model.restoreDoNotDisturb(remaining: nil, now: rig.now) }
        rig.connect()
        _ = rig.sink.take()
        return rig
    }

    /// The phone answers the attribute fetch (and the app name's) as `app`.
    func answer(_ rig: ModelRig, app: String) {
        while rig.phone!.answer(app: app) != nil {}
    }

    @Test func aMutedAppNeitherVibratesNorPopsUpButIsListed() {
        let rig = Self.rig()
        rig.add(1, .social, flags: [.important])
        #expect(rig.sink.take() == [.shown(1)], "the motor waits for the app")
        answer(rig, app: "com.facebook.Facebook")
        #expect(rig.sink.take() == [])
        #expect(rig.screen == .idleClock)
        #expect(rig.listUIDs == [1])
        #expect(rig.model.unread == 1)
        #expect(rig.model.pendingPopUp == nil)
    }

    @Test func anAppsPatternReplacesTheCategorysOnceItsAttributesAreThere() {
        let rig = Self.rig()
        rig.add(2, .social, flags: [.important])
        #expect(rig.sink.take() == [.shown(2)])
        answer(rig, app: "com.apple.MobileSMS")
        #expect(rig.sink.take() == [.play("heartbeat")])
        #expect(rig.screen == .detail(NotificationUID(2), scroll: 0))
    }

    @Test func vibrateNoneStaysStillButPopsUp() {
        let rig = Self.rig()
        rig.add(3, .email, flags: [.important])
        answer(rig, app: "com.apple.mobilemail")
        #expect(rig.sink.take() == [.shown(3)])
        #expect(rig.screen == .detail(NotificationUID(3), scroll: 0))
    }

    @Test func anAppWithoutARuleGetsItsCategorysPatternAfterTheAttributes() {
        let rig = Self.rig()
        rig.add(4, .social, flags: [.important])
        #expect(rig.sink.take() == [.shown(4)])
        answer(rig, app: "com.example.chat")
        #expect(rig.sink.take() == [.play("double")])
        #expect(rig.screen == .detail(NotificationUID(4), scroll: 0))
    }

    @Test func withoutAttributesTheRuleWaitsOneSecondThenTheCategoryDecides() {
        let rig = Self.rig()
        rig.add(5, .social, flags: [.important])
        _ = rig.sink.take()
        rig.advance(by: .milliseconds(999))
        #expect(rig.sink.take() == [])
        rig.advance(by: .milliseconds(1))
        #expect(rig.sink.take() == [.play("double")])
        #expect(rig.screen == .detail(NotificationUID(5), scroll: 0))
    }

    @Test func withoutRulesTheMotorDoesNotWait() {
        let rig = ModelRig()
        rig.connect()
        _ = rig.sink.take()
        rig.add(6, .social, flags: [.important])
        #expect(rig.sink.take() == [.play("double"), .shown(6)])
    }

    @Test func removedWhileWaitingNothingPlays() {
        let rig = Self.rig()
        rig.add(7, .social, flags: [.important])
        rig.remove(7)
        rig.advance(by: .seconds(2))
        #expect(rig.sink.take() == [.shown(7)])
    }

    // MARK: Do Not Disturb with rules

    @Test func duringDoNotDisturbOnlyAlwaysAlertAppsVibrateAndPopUp() {
        let rig = Self.rig(doNotDisturb: true)
        rig.add(8, .social, flags: [.important])
        answer(rig, app: "com.example.chat")
        #expect(rig.sink.take() == [.shown(8)])
        #expect(rig.screen == .idleClock)
        #expect(rig.model.unread == 1, "still listed and counted")
        rig.add(9, .social, flags: [])
        answer(rig, app: "com.apple.MobileSMS")
        #expect(rig.sink.take() == [.shown(9), .play("heartbeat")])
        #expect(rig.screen == .detail(NotificationUID(9), scroll: 0))
    }

    @Test func doNotDisturbWithoutAlwaysAlertAppsDecidesAtOnce() {
        let rig = ModelRig()
        var s = UserSettings()
        s.apps.add("com.facebook.Facebook", AppRule(mute: true))
        rig.model.userSettings = s
        rig.model.restoreDoNotDisturb(remaining: nil, now: rig.now)
        rig.connect()
        _ = rig.sink.take()
        rig.add(1, .social, flags: [.important])
        #expect(rig.sink.take() == [], "nothing can alert: no wait, no fetch ahead")
        #expect(rig.model.pendingPopUp == nil)
        #expect(rig.listUIDs == [1])
    }

    // MARK: calls

    @Test func aMutedCallAppDoesNotRing() {
        let rig = Self.rig()
        var s = rig.model.userSettings
        s.apps.add("com.apple.mobilephone", AppRule(mute: true))
        rig.model.userSettings = s
        rig.add(10, .incomingCall, flags: [.positiveAction, .negativeAction])
        #expect(rig.screen == .incomingCall(NotificationUID(10)), "the call screen still shows")
        #expect(!rig.sink.take().contains(.play("ring")), "the ring waits for the app")
        answer(rig, app: "com.apple.mobilephone")
        #expect(!rig.sink.take().contains(.play("ring")))
    }

    @Test func aCallOfAnUnmutedAppRingsOnceItsAppIsKnown() {
        let rig = Self.rig()
        rig.add(11, .incomingCall, flags: [.positiveAction, .negativeAction])
        #expect(!rig.sink.take().contains(.play("ring")), "some app is muted: the ring waits for the app")
        answer(rig, app: "net.whatsapp.WhatsApp")
        #expect(rig.sink.take().contains(.play("ring")))
    }

    @Test func aCallRingsAtTheBoundWithoutItsApp() {
        let rig = Self.rig()
        rig.add(12, .incomingCall, flags: [.positiveAction, .negativeAction])
        _ = rig.sink.take()
        rig.advance(by: .seconds(1))
        #expect(rig.sink.take().contains(.play("ring")))
    }

    @Test func callsRingDuringDoNotDisturbUnlessSilenced() {
        let ringing = ModelRig()
        ringing.model.restoreDoNotDisturb(remaining: nil, now: ringing.now)
        ringing.connect()
        ringing.add(1, .incomingCall, flags: [.positiveAction])
        #expect(ringing.sink.take().contains(.play("ring")))

        let silent = ModelRig()
        var s = UserSettings()
        s.doNotDisturb.calls = .silent
        silent.model.userSettings = s
        silent.model.restoreDoNotDisturb(remaining: nil, now: silent.now)
        silent.connect()
        silent.add(1, .incomingCall, flags: [.positiveAction])
        #expect(!silent.sink.take().contains(.play("ring")))
        #expect(silent.screen == .incomingCall(NotificationUID(1)))
    }
}
