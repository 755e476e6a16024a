import HAL
import Testing
import Timekeeping

/// The values behind alarms, the timer and the stopwatch, on plain numbers:
/// local seconds for alarms, monotonic instants for the rest.
@Suite struct AlarmTests {
    /// Local seconds of 2024-05-01 (a Wednesday) + `day` at hh:mm:ss.
    static func local(day: Int = 0, _ h: Int, _ m: Int, _ s: Int = 0) -> Int64 {
        CivilTime(year: 2024, month: 5, day: 1 + day, hour: h, minute: m, second: s).secondsSinceEpoch
    }

    @Test func aOnceAlarmRingsAtTheNextOccurrenceOfItsTime() {
        let a = Alarm(hour: 7, minute: 30)
        #expect(a.nextRing(after: Self.local(6, 0)) == Self.local(7, 30))
        #expect(a.nextRing(after: Self.local(7, 30)) == Self.local(day: 1, 7, 30), "strictly after")
        #expect(a.nextRing(after: Self.local(23, 59, 59)) == Self.local(day: 1, 7, 30))
        var off = a
        off.enabled = false
        #expect(off.nextRing(after: Self.local(6, 0)) == nil)
        #expect(Alarm(hour: 24, minute: 0).nextRing(after: 0) == nil && Alarm(hour: 7, minute: 60).nextRing(after: 0) == nil)
    }

    @Test func weekdayAlarmsAcrossAWeek() {
        // Wednesday 1 May 2024 08:00: Mon-Fri 07:00 next rings Thursday; Sat,Sun 09:00 on Saturday 4 May.
        let weekdays = Alarm(hour: 7, minute: 0, days: .weekdays)
        let weekend = Alarm(hour: 9, minute: 0, days: .weekend)
        var t = Self.local(8, 0)
        var rings: [Int64] = []
        for _ in 0..<5 {
            t = weekdays.nextRing(after: t)!
            rings.append(t)
        }
        #expect(rings == [Self.local(day: 1, 7, 0), Self.local(day: 2, 7, 0), Self.local(day: 5, 7, 0), Self.local(day: 6, 7, 0), Self.local(day: 7, 7, 0)])
        #expect(weekend.nextRing(after: Self.local(8, 0)) == Self.local(day: 3, 9, 0))
        #expect(weekend.nextRing(after: Self.local(day: 4, 9, 0)) == Self.local(day: 10, 9, 0), "Sunday's → next Saturday")
        #expect(Alarm(hour: 7, minute: 0, days: AlarmDays(weekday: 3)).nextRing(after: Self.local(7, 0)) == Self.local(day: 7, 7, 0),
                "Wednesday only: a week on")
    }

    @Test func daysAreNamedAsTheScreensSayThem() {
        #expect(AlarmDays().text == "Once" && AlarmDays.everyDay.text == "Every day")
        #expect(AlarmDays.weekdays.text == "Mon-Fri" && AlarmDays.weekend.text == "Sat,Sun")
        #expect(AlarmDays(rawValue: 0b0010101).text == "Mon,Wed,Fri")
        #expect(AlarmDays.choices.count == 11 && Set(AlarmDays.choices.map(\.rawValue)).count == 11)
    }

    @Test func theListFindsTheNextRingAmongOwnAndPhoneAlarmsAndKeepsItsBounds() {
        var list = AlarmList()
        #expect(list.nextRing(after: 0) == nil)
        let added = list.add(Alarm(hour: 8, minute: 0))
        #expect(added)
        let leftOut = list.replacePhoneAlarms([Alarm(hour: 7, minute: 15, days: .everyDay), Alarm(hour: 25, minute: 0)])
        #expect(leftOut == 1)
        let next = list.nextRing(after: Self.local(6, 0))
        #expect(next?.row == 1 && next?.at == Self.local(7, 15) && list.isFromPhone(1))
        for h in 0..<9 { list.add(Alarm(hour: h, minute: 1)) }
        #expect(list.ownCount == AlarmList.capacity)
        let addedPastFull = list.add(Alarm(hour: 1, minute: 1))
        #expect(!addedPastFull, "full: refused")
        list.remove(0)
        #expect(list.ownCount == 9 && list[0] == Alarm(hour: 0, minute: 1))
        list.rang(0)
        #expect(!list[0].enabled, "a one-time alarm switches itself off")
        list.rang(list.ownCount)  // the phone's repeating one stays on
        #expect(list[list.ownCount].enabled)
    }
}

@Suite struct CountdownTimerTests {
    let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func runsPausesResumesAndRoundsUp() {
        var t = CountdownTimer()
        #expect(t.secondsLeft(at: t0) == 300 && !t.isRunning)
        t.adjust(byMinutes: -4)
        #expect(t.length == 60)
        t.adjust(byMinutes: -4)
        #expect(t.length == 60, "never under a minute")
        t.adjust(byMinutes: 200)
        #expect(t.length == CountdownTimer.maxSeconds)
        t.adjust(byMinutes: -98)
        t.start(now: t0)
        #expect(t.deadline == t0.advanced(by: .seconds(60)))
        t.adjust(byMinutes: 5)
        #expect(t.length == 60, "not while running")
        #expect(t.secondsLeft(at: t0.advanced(by: .milliseconds(100))) == 60, "59.9 s left reads 1:00")
        t.pause(now: t0.advanced(by: .seconds(20)))
        #expect(t.secondsLeft(at: t0.advanced(by: .seconds(500))) == 40 && !t.isRunning)
        t.start(now: t0.advanced(by: .seconds(500)))
        #expect(t.deadline == t0.advanced(by: .seconds(540)))
        t.reset()
        #expect(t.state == .stopped && t.secondsLeft(at: t0) == 60)
    }
}

@Suite struct StopwatchTests {
    let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func lapsPastTheTableKeepTheLatestAndTheirNumbers() {
        var s = Stopwatch()
        s.lap(now: t0)
        #expect(s.lapCount == 0, "no lap while stopped")
        s.start(now: t0)
        for i in 1...10 { s.lap(now: t0.advanced(by: .seconds(i * i))) }
        #expect(s.lapCount == 10 && s.lapsKept == Stopwatch.lapCapacity)
        #expect(s.lap(0)! == (10, .seconds(19)), "10² - 9²")
        #expect(s.lap(7)! == (3, .seconds(5)), "3² - 2²: the oldest kept")
        #expect(s.lap(8) == nil)
        s.stop(now: t0.advanced(by: .seconds(120)))
        #expect(s.elapsed(at: t0.advanced(by: .seconds(900))) == .seconds(120))
        s.start(now: t0.advanced(by: .seconds(1000)))
        #expect(s.elapsed(at: t0.advanced(by: .seconds(1001))) == .seconds(121))
        s.reset()
        #expect(s == Stopwatch())
    }
}
