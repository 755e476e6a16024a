import ANCS
import WearerSettings
import BoardConfig
import HAL
import Haptics
import Notifications
import Testing
import Watch

/// Quiet hours are the model's decision (WatchModel+Vibration), on the
/// watch's own clock: the motor only plays what the model sends it.
@Suite struct WatchModelQuietHoursTests {
    static func rig(at hh: Int, _ mm: Int) -> (ModelRig, SettableClock) {
        var settings = ModelRig.defaultSettings()
        settings.quietHours = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60)
        let clock = SettableClock(SettableClock.at(hh, mm))
        settings.systemClock = clock.read
        let rig = ModelRig(settings: settings)
        var s = UserSettings()
        s.apps.add("com.apple.MobileSMS", AppRule(alwaysAlert: true))
        rig.model.userSettings = s
        rig.connect()
        _ = rig.sink.take()
        return (rig, clock)
    }

    @Test func anImportantNotificationInQuietHoursPopsUpButDoesNotBuzz() {
        let (rig, _) = Self.rig(at: 23, 30)
        #expect(rig.model.isQuietHours(at: rig.now))
        rig.add(1, .social, flags: [.important])
        while rig.phone!.answer(app: "com.example.chat") != nil {}
        #expect(!rig.sink.take().contains { if case .play = $0 { true } else { false } })
        #expect(rig.model.vibrationsKeptStill == 1)
        #expect(rig.screen == .detail(NotificationID(1), scroll: 0), "still shown")
    }

    @Test func anAlwaysAlertAppBuzzesAtAnyHour() {
        let (rig, _) = Self.rig(at: 3, 0)
        rig.add(2, .social, flags: [])
        while rig.phone!.answer(app: "com.apple.MobileSMS") != nil {}
        #expect(rig.sink.take().contains(.play("double")), "alwaysAlert without a pattern of its own: the double pulse")
        #expect(rig.model.vibrationsKeptStill == 0)
    }

    @Test func theEndOfQuietHoursAndAnUnknownTimeLetItBuzz() {
        let (rig, clock) = Self.rig(at: 6, 59)
        rig.add(3, .incomingCall, flags: [])
        #expect(rig.model.vibrationsKeptStill == 1, "06:59: the call rings still")
        clock.time = SettableClock.at(7, 0)
        rig.add(4, .social, flags: [.important])
        while rig.phone!.answer() != nil {}
        #expect(rig.sink.take().contains(.play("double")), "07:00 is outside 22:00-07:00")
        clock.time = nil  // the clock unknown: nothing says it is night
        #expect(!rig.model.isQuietHours(at: rig.now))
    }
}
