import Graphics
import HAL
import Haptics
import Loop
import PhoneServices
import Screens
import Testing
import Watch

/// Time without an RTC: the phone's time when known (kept across
/// disconnects), else a synchronised system clock, else `--:--`; the minute
/// tick lands on the minute of the clock shown; a clock step redraws at once;
/// quiet hours read the same clock.
@Suite struct WatchControllerTimeTests {
    typealias Rig = WatchControllerTests.Rig

    static let start = WatchControllerPowerTests.start  // 09:41:23.456789Z

    static func lit(_ s: inout WatchSettings) { WatchControllerPowerTests.lit(&s) }

    /// The phone's time: 2024-05-01 12:00:07 and 128/256 s.
    static func phoneClock(at now: MonotonicInstant) -> PhoneClock {
        PhoneClock(
            time: CurrentTime(year: 2024, month: 5, day: 1, hours: 12, minutes: 0, seconds: 7, dayOfWeek: 3, fractions256: 128),
            receivedAt: now)
    }

    // MARK: the source

    @Test func anUnsynchronisedSystemClockAndNoPhoneShowDashes() throws {
        let rig = try Rig(wallClock: Self.start) { $0.systemClock = { nil } }
        #expect(rig.watch.timeSource == .unknown)
        #expect(rig.watch.minuteOfDay == nil)
        #expect(rig.image == rig.expectedImage(time: nil), "--:-- in the status bar")
        // Still ticking while lit (a clock that becomes synchronised shows up).
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(15))
        rig.watch.button(.back, .press)
        rig.loop.advance(by: .seconds(30))
        #expect(rig.loop.timerFirings > firings)
    }

    @Test func aSynchronisedSystemClockIsShown() throws {
        let clock = LoopWallClockAsUTC()
        let rig = try Rig(wallClock: Self.start) { $0.systemClock = clock.read }
        clock.loop = rig.loop
        rig.watch.requestRender()
        rig.loop.runDeferred()
        #expect(rig.watch.timeSource == .system)
        #expect(rig.watch.minuteOfDay == 9 * 60 + 41)
        #expect(rig.image == rig.expectedImage(time: clock.read()))
        clock.synchronised = false
        #expect(rig.watch.timeSource == .unknown)
    }

    @Test func thePhonesTimeWinsOverTheSystemClock() throws {
        let rig = try Rig(wallClock: Self.start)  // system clock pinned at 09:41
        rig.watch.phoneTimeReceived(Self.phoneClock(at: rig.loop.now))
        rig.loop.runDeferred()
        #expect(rig.watch.timeSource == .phone)
        #expect(rig.watch.minuteOfDay == 12 * 60)
        #expect(rig.image == rig.expectedImage(time: CivilTime(year: 2024, month: 5, day: 1, hour: 12, minute: 0, second: 7)))
    }

    @Test func thePhonesTimeIsKeptAndAdvancesWhenThePhoneSendsAnUnknownDate() throws {
        let rig = try Rig(wallClock: Self.start) { $0.systemClock = { nil } }
        rig.watch.phoneTimeReceived(Self.phoneClock(at: rig.loop.now))
        rig.loop.advance(by: .seconds(3600))
        // A phone whose Current Time has no date does not erase a known one.
        rig.watch.phoneTimeReceived(PhoneClock(time: CurrentTime(year: 0, month: 0, day: 0, hours: 0, minutes: 0, seconds: 0), receivedAt: rig.loop.now))
        #expect(rig.watch.timeSource == .phone)
        #expect(rig.watch.minuteOfDay == 13 * 60, "an hour on, by the monotonic clock")
    }

    // MARK: the tick

    @Test func theMinuteTickLandsOnTheSystemClocksMinute() throws {
        let clock = LoopWallClockAsUTC()
        let rig = try Rig(wallClock: Self.start) {
            $0.systemClock = clock.read
            Self.lit(&$0)
        }
        clock.loop = rig.loop
        let writes = rig.transport.writes
        // 09:41:23.456789 → 09:42:00.000000000, to the nanosecond.
        rig.loop.advance(by: Self.start.nextWholeMinute.duration(since: Self.start) - .nanoseconds(1))
        #expect(rig.transport.writes == writes, "09:41:59.999999999: nothing yet")
        rig.loop.advance(by: .nanoseconds(1))
        #expect(rig.transport.writes > writes, "09:42:00 on the glass at 09:42:00")
        #expect(rig.loop.wallClockNow == Self.start.nextWholeMinute)
        #expect(rig.image == rig.expectedImage(time: clock.read()))
        #expect(clock.read()?.minute == 42)
    }

    @Test func theMinuteTickLandsOnThePhonesMinute() throws {
        let rig = try Rig(wallClock: Self.start, Self.lit)
        let received = rig.loop.now
        rig.watch.phoneTimeReceived(Self.phoneClock(at: received))
        rig.loop.runDeferred()
        let writes = rig.transport.writes
        // 12:00:07.5 → 12:01:00 is 52.5 s on the monotonic clock.
        rig.loop.advance(by: .milliseconds(52_500) - .nanoseconds(1))
        #expect(rig.transport.writes == writes)
        rig.loop.advance(by: .nanoseconds(1))
        #expect(rig.transport.writes > writes)
        #expect(rig.loop.now == received.advanced(by: .milliseconds(52_500)))
        #expect(rig.watch.minuteOfDay == 12 * 60 + 1)
        #expect(rig.image == rig.expectedImage(time: CivilTime(year: 2024, month: 5, day: 1, hour: 12, minute: 1, second: 0)))
    }

    @Test func aClockStepRedrawsAtOnceAndTheTickFollowsTheNewMinute() throws {
        let clock = LoopWallClockAsUTC()
        let rig = try Rig(wallClock: Self.start) {
            $0.systemClock = clock.read
            Self.lit(&$0)
        }
        clock.loop = rig.loop
        let firings = rig.loop.timerFirings
        let writes = rig.transport.writes
        // NTP (or a person) sets the clock 2 h 30 min 10 s later: 12:11:33.
        rig.loop.stepWallClock(by: .seconds(2 * 3600 + 30 * 60 + 10))
        #expect(rig.loop.timerFirings == firings + 1, "woken at once")
        #expect(rig.transport.writes > writes, "redrawn at once")
        #expect(rig.image == rig.expectedImage(time: clock.read()))
        #expect(clock.read()?.hour == 12 && clock.read()?.minute == 11)
        // The next tick is on the new clock's minute.
        let toNext = rig.loop.wallClockNow.nextWholeMinute.duration(since: rig.loop.wallClockNow)
        let before = rig.transport.writes
        rig.loop.advance(by: toNext - .nanoseconds(1))
        #expect(rig.transport.writes == before)
        rig.loop.advance(by: .nanoseconds(1))
        #expect(rig.transport.writes > before)
        #expect(clock.read()?.minute == 12)
    }

    // MARK: quiet hours

    @Test func quietHoursFollowTheWatchsClock() throws {
        // Quiet 11:00-13:00. The system clock (pinned 09:41) is unsynchronised.
        let rig = try Rig(wallClock: Self.start, quietHours: QuietHours(startMinute: 11 * 60, endMinute: 13 * 60)) {
            $0.systemClock = { nil }
        }
        let model = rig.watch.model
        // Time unknown: nothing says it is night, so the motor runs.
        #expect(!model.isQuietHours(at: rig.loop.now))
        // The phone says 12:00: quiet.
        rig.watch.phoneTimeReceived(Self.phoneClock(at: rig.loop.now))
        #expect(model.isQuietHours(at: rig.loop.now))
        // An hour later (13:00 by the phone, kept): no longer quiet.
        rig.loop.advance(by: .seconds(3600))
        #expect(!model.isQuietHours(at: rig.loop.now))
    }

    @Test func withASynchronisedSystemClockQuietHoursReadIt() throws {
        let rig = try Rig(wallClock: Self.start, quietHours: QuietHours(startMinute: 9 * 60, endMinute: 10 * 60))
        #expect(rig.watch.timeSource == .system)
        #expect(rig.watch.model.isQuietHours(at: rig.loop.now), "09:41 by the system clock is quiet")
    }

    // MARK: setSystemClock

    @Test func anUnsynchronisedSystemClockIsSetFromThePhoneWhenAsked() throws {
        let calls = SetClockCalls()
        let rig = try Rig(wallClock: Self.start) {
            $0.systemClock = { nil }
            $0.setSystemClock = calls.record
        }
        var clock = Self.phoneClock(at: rig.loop.now)
        clock.localTimeInformation = LocalTimeInformation(timeZoneQuarterHours: 8, dstQuarterHours: 4)
        rig.watch.phoneTimeReceived(clock)
        // 2024-05-01T12:00:07.5 local, UTC+3 (zone +2 h, DST +1 h).
        #expect(calls.calls.count == 1)
        #expect(calls.calls.first?.local == 1_714_564_807_500_000_000)
        #expect(calls.calls.first?.offset == 3 * 3600)
    }

    @Test func aSynchronisedSystemClockIsLeftToNTP() throws {
        let calls = SetClockCalls()
        let rig = try Rig(wallClock: Self.start) { $0.setSystemClock = calls.record }
        rig.watch.phoneTimeReceived(Self.phoneClock(at: rig.loop.now))
        #expect(calls.calls.isEmpty)
    }
}

/// Records `WatchSettings.setSystemClock` calls.
final class SetClockCalls: @unchecked Sendable {
    var calls: [(local: Int64, offset: Int?)] = []
    var record: @Sendable (Int64, Int?) throws(HALError) -> Void {
        { [self] local, offset throws(HALError) in calls.append((local, offset)) }
    }
}
