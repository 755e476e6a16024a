import HAL
import Haptics
import Loop
import PhoneServices
import Screens
import Testing
import Timekeeping
@testable import Watch

/// Alarms on the controller and a manual loop whose wall clock can be
/// stepped: they ring on the wall clock (a CLOCK_REALTIME timer), at the
/// second, whatever quiet hours and Do Not Disturb say; snooze and dismiss;
/// a week of them; clock steps; the phone's time; the timer and the
/// stopwatch's second tick; and no wake-up at all when nothing is due.
@Suite struct WatchControllerAlarmTests {
    typealias Rig = WatchControllerTests.Rig

    /// 2024-05-01 (a Wednesday) at hh:mm:ss UTC, the rig's local time.
    static func wall(day: Int = 1, _ h: Int, _ m: Int, _ s: Int = 0) -> WallClockInstant {
        WallClockInstant(secondsSinceEpoch: CivilTime(year: 2024, month: 5, day: day, hour: h, minute: m, second: s).secondsSinceEpoch)
    }

    /// A watch on a synchronised system clock (UTC), at Wednesday 06:00,
    /// quiet all day and Do Not Disturb on, with a motor.
    static func rig(at start: WallClockInstant = wall(6, 0)) throws -> (Rig, LoopWallClockAsUTC) {
        let clock = LoopWallClockAsUTC()
        let rig = try Rig(wallClock: start, quietHours: QuietHours(startMinute: 0, endMinute: 23 * 60 + 59)) { $0.systemClock = clock.read }
        clock.loop = rig.loop
        rig.watch.restoreDoNotDisturb(remaining: nil)
        return (rig, clock)
    }

    /// From the clock: the watch menu (negative long press), down to `entry`, chosen.
    static func open(_ entry: WatchMenu.Entry, on rig: Rig) {
        rig.watch.button(.negative, .longPress)
        for _ in 0..<WatchMenu.entryCount {
            if case .watchMenu(let selected) = rig.watch.screen, selected == entry.rawValue { break }
            rig.watch.button(.positive, .longPress)
        }
        rig.watch.button(.positive, .press)
    }

    static func advance(_ rig: Rig, to instant: WallClockInstant) {
        rig.loop.advance(by: instant.duration(since: rig.loop.wallClockNow))
    }

    @Test func aWeekdayAlarmRingsAtItsSecondFiveTimesAWeekThroughQuietHoursAndDoNotDisturb() throws {
        let (rig, _) = try Self.rig()
        var kept: [AlarmList] = []
        rig.watch.alarmsObserver = { kept.append($0) }
        rig.watch.restoreAlarms([Alarm(hour: 7, minute: 0, days: .weekdays)])
        #expect(rig.watch.model.isQuietHours(at: rig.loop.now) && rig.watch.model.isDoNotDisturbOn)
        var rang: [Int] = []
        for day in 1...7 {
            Self.advance(rig, to: Self.wall(day: day, 6, 59, 59))
            #expect(rig.watch.model.ringing == nil)
            let firings = rig.loop.timerFirings
            Self.advance(rig, to: Self.wall(day: day, 7, 0))
            if rig.watch.model.ringing != nil {
                rang.append(day)
                #expect(rig.loop.timerFirings > firings)
                #expect(rig.motor?.currentPattern?.name == "alarm", "quiet hours and Do Not Disturb do not silence it")
                #expect(rig.watch.screen == .ringing(.alarm(hour: 7, minute: 0, snoozes: 0)))
                rig.watch.button(.negative, .press)  // dismiss
                #expect(rig.watch.model.ringing == nil && rig.motor?.isPlaying == false)
            }
        }
        // 1 May 2024 is a Wednesday: Wed, Thu, Fri, then Mon 6 and Tue 7.
        #expect(rang == [1, 2, 3, 6, 7])
        #expect(kept.isEmpty, "a repeating alarm stays as it is: nothing to write")
    }

    @Test func withTheDisplayOffAndNoAlarmDueTheWatchDoesNotWakeUp() throws {
        let (rig, _) = try Self.rig(at: Self.wall(day: 3, 8, 0))  // Friday 08:00
        rig.watch.restoreAlarms([Alarm(hour: 7, minute: 0, days: .weekdays)])
        rig.loop.advance(by: .seconds(60))  // the display dims and goes dark
        #expect(rig.watch.model.displayPower == .off)
        let firings = rig.loop.timerFirings
        Self.advance(rig, to: Self.wall(day: 6, 6, 59, 59))  // the whole weekend
        #expect(rig.loop.timerFirings == firings, "no wake-up from Friday to Monday 06:59:59")
        Self.advance(rig, to: Self.wall(day: 6, 7, 0))
        #expect(rig.loop.timerFirings == firings + 1, "one: the alarm's own timer")
        #expect(rig.watch.model.ringing != nil)
        #expect(rig.watch.model.displayPower == .on, "a ring lights the panel")
    }

    @Test func aOneTimeAlarmRingsOnceSwitchesItselfOffAndIsKept() throws {
        let (rig, _) = try Self.rig()
        var kept: [AlarmList] = []
        rig.watch.alarmsObserver = { kept.append($0) }
        rig.watch.restoreAlarms([Alarm(hour: 6, minute: 30)])
        Self.advance(rig, to: Self.wall(6, 30))
        #expect(rig.watch.model.ringing == .alarm(hour: 6, minute: 30, snoozes: 0))
        #expect(rig.watch.model.alarms[0].enabled == false)
        #expect(kept.count == 1 && kept.last?[0].enabled == false)
        rig.watch.button(.negative, .press)
        Self.advance(rig, to: Self.wall(day: 3, 7, 0))
        #expect(rig.watch.model.ringing == nil, "not again the next day")
    }

    @Test func snoozeRingsAgainAfterTheSnoozeAndUnansweredRingsGiveUp() throws {
        let (rig, _) = try Self.rig()
        rig.watch.restoreAlarms([Alarm(hour: 7, minute: 0, days: .everyDay)])
        Self.advance(rig, to: Self.wall(7, 0))
        rig.watch.button(.positive, .press)  // snooze
        #expect(rig.watch.model.ringing == nil && rig.motor?.isPlaying == false)
        #expect(rig.watch.model.snoozedAlert == .alarm(hour: 7, minute: 0, snoozes: 1))
        Self.advance(rig, to: Self.wall(7, 8, 59))
        #expect(rig.watch.model.ringing == nil)
        Self.advance(rig, to: Self.wall(7, 9))
        #expect(rig.watch.model.ringing == .alarm(hour: 7, minute: 0, snoozes: 1), "nine minutes later (the default snooze)")
        // Nobody answers: it snoozes by itself after a minute, up to three times, then stops.
        Self.advance(rig, to: Self.wall(7, 50))
        #expect(rig.watch.model.ringing == nil && rig.watch.model.snoozedAlert == nil)
        #expect(rig.motor?.isPlaying == false)
    }

    @Test func aClockStepPastTheAlarmRingsItIfRecentAndSkipsItIfLongPast() throws {
        let (rig, _) = try Self.rig()
        rig.watch.restoreAlarms([Alarm(hour: 7, minute: 0, days: .everyDay)])
        // 06:00 → 07:05: NTP set the clock; the 07:00 alarm is 5 minutes late: it rings.
        rig.loop.stepWallClock(by: .seconds(65 * 60))
        #expect(rig.watch.model.ringing == .alarm(hour: 7, minute: 0, snoozes: 0))
        rig.watch.button(.negative, .press)
        // The next day, a step from 06:00 to 09:00 skips it: two hours late is not an alarm.
        Self.advance(rig, to: Self.wall(day: 2, 6, 0))
        rig.loop.stepWallClock(by: .seconds(3 * 3600))
        #expect(rig.watch.model.ringing == nil)
        #expect(rig.watch.model.alarmsSkipped == 1)
        // It is armed for the day after, on the wall clock.
        Self.advance(rig, to: Self.wall(day: 3, 7, 0))
        #expect(rig.watch.model.ringing != nil)
    }

    @Test func aClockStepBackBeforeTheAlarmStillRingsItOnTheNewClock() throws {
        let (rig, _) = try Self.rig(at: Self.wall(6, 50))
        rig.watch.restoreAlarms([Alarm(hour: 7, minute: 0)])
        rig.loop.stepWallClock(by: .seconds(-3600))  // 05:50
        #expect(rig.watch.model.ringing == nil)
        rig.loop.advance(by: .seconds(10 * 60))  // 06:00 on the new clock, 07:00 by the old one
        #expect(rig.watch.model.ringing == nil, "the alarm follows the wall clock, not the time elapsed")
        Self.advance(rig, to: Self.wall(7, 0))
        #expect(rig.watch.model.ringing != nil)
    }

    @Test func onThePhonesTimeTheAlarmRingsByTheMonotonicClock() throws {
        let rig = try Rig(wallClock: Self.wall(6, 0), quietHours: QuietHours(startMinute: 0, endMinute: 1)) { $0.systemClock = { nil } }
        rig.watch.phoneTimeReceived(PhoneClock(
            time: CurrentTime(year: 2024, month: 5, day: 1, hours: 6, minutes: 59, seconds: 30), receivedAt: rig.loop.now))
        rig.watch.restoreAlarms([Alarm(hour: 7, minute: 0)])
        #expect(rig.watch.timeSource == .phone)
        rig.loop.advance(by: .seconds(29))
        #expect(rig.watch.model.ringing == nil)
        rig.loop.advance(by: .seconds(1))
        #expect(rig.watch.model.ringing == .alarm(hour: 7, minute: 0, snoozes: 0))
    }

    @Test func thePhonesAlarmsRingToo() throws {
        let (rig, _) = try Self.rig()
        rig.watch.model.phoneAlarmsReceived([Alarm(hour: 6, minute: 45, days: .everyDay)], now: rig.loop.now)
        rig.watch.afterInput()  // as the controller does for Gadgetbridge's alarm line
        #expect(rig.watch.model.alarms.count == 1 && rig.watch.model.alarms.isFromPhone(0))
        Self.advance(rig, to: Self.wall(6, 45))
        #expect(rig.watch.model.ringing == .alarm(hour: 6, minute: 45, snoozes: 0))
    }

    // MARK: the timer and the stopwatch

    @Test func theTimerRingsAtItsEndAndTicksOnlyWhileShownLit() throws {
        let (rig, _) = try Self.rig()
        Self.open(.timer, on: rig)
        rig.watch.button(.positive, .doublePress)  // 5 → 4 minutes
        rig.watch.button(.positive, .doublePress)  // 3
        rig.watch.button(.positive, .press)  // start
        #expect(rig.watch.model.countdown.isRunning)
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(10))
        let ticks = rig.loop.timerFirings - firings
        #expect(ticks >= 10 && ticks <= 11, "one redraw a second while shown lit (\(ticks))")
        rig.watch.button(.negative, .longPress)  // back to the menu: it keeps running
        let before = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(100))
        #expect(rig.loop.timerFirings - before <= 2, "no second tick off its screen (dim and off only)")
        Self.advance(rig, to: Self.wall(6, 3))
        #expect(rig.watch.model.ringing == .timer(seconds: 180))
        #expect(rig.motor?.currentPattern?.name == "timer", "quiet hours and Do Not Disturb do not silence it")
        rig.watch.button(.positive, .press)
        #expect(rig.watch.model.ringing == nil && rig.motor?.isPlaying == false)
    }

    @Test func theStopwatchKeepsLaps() throws {
        let (rig, _) = try Self.rig()
        Self.open(.stopwatch, on: rig)
        rig.watch.button(.positive, .press)  // start
        rig.loop.advance(by: .milliseconds(11_200))
        rig.watch.button(.negative, .press)  // lap 1
        rig.loop.advance(by: .milliseconds(9_900))
        rig.watch.button(.negative, .press)  // lap 2
        rig.watch.button(.positive, .press)  // stop
        let s = rig.watch.model.stopwatch
        #expect(s.lapCount == 2 && !s.isRunning)
        #expect(s.lap(0)?.length == .milliseconds(9_900) && s.lap(1)?.length == .milliseconds(11_200))
        #expect(s.elapsed(at: rig.loop.now) == .milliseconds(21_100))
        rig.loop.advance(by: .seconds(600))
        #expect(rig.watch.model.stopwatch.elapsed(at: rig.loop.now) == .milliseconds(21_100), "stopped, it does not run")
        rig.watch.button(.back, .press)  // wakes the dark panel only
        rig.watch.button(.negative, .press)  // reset
        #expect(rig.watch.model.stopwatch.lapCount == 0)
    }
}

