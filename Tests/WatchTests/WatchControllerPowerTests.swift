import Graphics
import HAL
import Loop
import PhoneServices
import Screens
import Testing
import Watch

/// Idle costs nothing: over a simulated hour on the manual loop, the loop
/// wakes exactly once a minute while the panel is lit (the burn-in shift
/// rides on that tick) and never while it is dark; waking draws the
/// current state at once.
@Suite struct WatchControllerPowerTests {
    typealias Rig = WatchControllerTests.Rig

    /// 2024-05-01T09:41:23.456789Z: not on a whole second, so a tick armed
    /// in whole seconds from "now" would miss the minute.
    static let start = WallClockInstant(nanosecondsSinceEpoch: 1_714_556_483_456_789_000)

    /// Lit for the whole test: dim and off after two hours.
    static func lit(_ s: inout WatchSettings) {
        s.dimAfter = .seconds(7200)
        s.offAfter = .seconds(7200)
    }

    @Test func litForAnHourOnTheSystemClockTheLoopWakesExactlySixtyTimes() throws {
        let rig = try Rig(wallClock: Self.start, Self.lit)
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 60, "one wake-up a minute, nothing else")
        // The burn-in shift rode on those ticks: due every 180 s from the
        // start (1 s), taken on the next tick (the wall minute falls 36.5 s
        // after the start): at 216.5 s, 396.5 s ... 3456.5 s.
        #expect(rig.watch.model.shiftStep == 19)
        #expect(rig.watch.timeSource == .system)
    }

    @Test func litForAnHourOnThePhonesTimeTheLoopWakesExactlySixtyTimes() throws {
        let rig = try Rig(wallClock: Self.start, Self.lit)
        rig.watch.phoneTimeReceived(PhoneClock(
            time: CurrentTime(year: 2024, month: 5, day: 1, hours: 12, minutes: 0, seconds: 7, fractions256: 64),
            receivedAt: rig.loop.now))
        rig.loop.runDeferred()
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 60)
        #expect(rig.watch.model.shiftStep == 19)
        #expect(rig.watch.timeSource == .phone)
    }

    @Test func dimmedIsStillLitAndTicks() throws {
        let rig = try Rig(wallClock: Self.start) {
            $0.dimAfter = .seconds(1)
            $0.offAfter = .seconds(7200)
        }
        rig.loop.advance(by: .seconds(1))
        #expect(rig.watch.displayState == "dimmed")
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 60)
    }

    @Test func darkForAnHourTheLoopNeverWakesAndWakingDrawsTheCurrentStateAtOnce() throws {
        let clock = LoopWallClockAsUTC()
        let rig = try Rig(wallClock: Self.start) { $0.systemClock = clock.read }
        clock.loop = rig.loop
        rig.loop.advance(by: .seconds(30))
        #expect(rig.watch.displayState == "off")
        #expect(rig.driver.isOn == false)
        let dark = rig.image
        let writes = rig.transport.writes
        let firings = rig.loop.timerFirings

        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 0, "no minute, shift or render timer in the dark")
        #expect(rig.loop.armedTimerCount == 0)
        #expect(rig.transport.writes == writes, "nothing sent")
        #expect(rig.image == dark, "nothing drawn either")

        // A press wakes it: the state of this moment (10:41, an hour on) is
        // drawn and sent in the same loop iteration, then the panel lights.
        rig.watch.button(.back, .press)
        #expect(rig.driver.isOn == false, "not lit before the new picture is on the glass")
        rig.loop.runDeferred()
        #expect(rig.driver.isOn)
        #expect(rig.transport.writes > writes)
        let now = try #require(clock.read())
        #expect(now.hour == 10 && now.minute == 41)
        #expect(rig.image == rig.expectedImage(time: now))
        // And the minute tick is back, on the wall-clock minute.
        let next = rig.loop.wallClockNow.nextWholeMinute
        let before = rig.transport.writes
        rig.loop.advance(by: next.duration(since: rig.loop.wallClockNow))
        #expect(rig.transport.writes > before)
        let later = try #require(clock.read())
        #expect(rig.image == rig.expectedImage(time: later))
    }
}

/// The loop's wall clock as a synchronised system clock in UTC (a
/// `WatchSettings.systemClock`), or unsynchronised (nil) on demand.
final class LoopWallClockAsUTC: @unchecked Sendable {
    weak var loop: ManualLoop?
    var synchronised = true

    var read: @Sendable () -> CivilTime? {
        { [self] in
            guard synchronised, let loop else { return nil }
            return loop.wallClockNow.utc
        }
    }
}
