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

/// Issue 25 item 3: quiet hours by weekday on the watch's own clock, across
/// a week: a window crossing midnight belongs to the day it starts on.
@Suite struct WatchModelWeekdayQuietHoursTests {
    /// 2024-05-06 is a Monday.
    static func at(_ day: Int, _ hh: Int, _ mm: Int) -> CivilTime {
        CivilTime(year: 2024, month: 5, day: day, hour: hh, minute: mm, second: 0)
    }

    @Test func weeknightsAndWeekendMorningsAcrossAWeek() {
        var settings = ModelRig.defaultSettings()
        let weekdays = QuietHours.Weekdays(rawValue: 0b001_1111)
        let weekend = QuietHours.Weekdays(rawValue: 0b110_0000)
        settings.quietHours = QuietHours(windows: [
            .init(days: weekdays, startMinute: 22 * 60, endMinute: 7 * 60),
            .init(days: weekend, startMinute: 23 * 60, endMinute: 9 * 60),
        ])
        let clock = SettableClock(Self.at(6, 12, 0))
        settings.systemClock = clock.read
        let rig = ModelRig(settings: settings)
        #expect(Self.at(6, 0, 0).weekday == 1 && Self.at(12, 0, 0).weekday == 7)
        func quiet(_ day: Int, _ hh: Int, _ mm: Int) -> Bool {
            clock.time = Self.at(day, hh, mm)
            return rig.model.isQuietHours(at: rig.now)
        }
        // Every day of the week 6-12 May 2024, at 22:30, 23:30, 03:00, 07:30 and 08:30.
        var table: [String] = []
        for day in 6...12 {
            table.append([quiet(day, 22, 30), quiet(day, 23, 30), quiet(day, 3, 0), quiet(day, 7, 30), quiet(day, 8, 30)]
                .map { $0 ? "Q" : "." }.joined())
        }
        #expect(table == [
            "QQQQQ",  // Mon: its night from 22:00; the morning is Sunday night's, to 09:00
            "QQQ..",  // Tue: the morning is Monday night's, to 07:00
            "QQQ..",
            "QQQ..",
            "QQQ..",  // Fri: from 22:00
            ".QQ..",  // Sat: 23:00 on; 03:00 is Friday night's
            ".QQQQ",  // Sun: Saturday night's runs to 09:00
        ])
        // The clock unknown: never quiet.
        clock.time = nil
        #expect(!rig.model.isQuietHours(at: rig.now))
    }
}
