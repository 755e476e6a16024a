import HAL
import Haptics
import LinuxLoop
import Loop
import Testing

@testable import Haptics

/// A motor line that records every write, and can be told to fail.
private final class RecordingMotorLine: MotorLine {
    var level = false
    var writes: [Bool] = []
    var released = false
    /// Writes of this value throw.
    var failOn: Bool?

    func setActive(_ on: Bool) throws(HALError) {
        writes.append(on)
        if failOn == on {
            throw HALError(operation: "set GPIO line 18", errno: 5, reason: "Input/output error")
        }
        level = on
    }

    func release() {
        level = false
        released = true
    }
}

/// A controller on a manual-clock loop; transitions are recorded as
/// (on, milliseconds since start).
private final class Bench {
    let clock = ManualClock(now: MonotonicInstant(nanoseconds: 5_000_000_000))
    let loop: EpollLoop
    let start: MonotonicInstant
    let line = RecordingMotorLine()
    var motor: MotorController!
    var transitions: [(Bool, Int64)] = []
    var errors: [HALError] = []

    init(_ configuration: HapticsConfiguration = .defaults) throws {
        loop = try EpollLoop(clock: .manual(clock))
        start = clock.now
        motor = MotorController(line: line, scheduler: loop, configuration: configuration)
        motor.stateHandler = { [weak self] on, t in
            guard let self else { return }
            self.transitions.append((on, (t - self.start).millisecondsClamped))
        }
        motor.errorHandler = { [weak self] e in self?.errors.append(e) }
    }

    func run(to ms: Int64) {
        let left = (start + .milliseconds(ms)) - loop.now
        if left > .zero { loop.advanceClock(by: left) }
    }

    /// The timeline as "+t" (on) / "-t" (off) strings, easy to read in failures.
    var timeline: [String] { transitions.map { ($0.0 ? "+" : "-") + String($0.1) } }
}

@Suite struct MotorControllerTests {
    @Test func shortPatternTimeline() throws {
        let b = try Bench()
        #expect(b.motor.play(.short) == .started)
        #expect(b.motor.isMotorOn && b.motor.isPlaying)
        b.run(to: 10_000)
        #expect(b.timeline == ["+0", "-80"])
        #expect(!b.motor.isPlaying && !b.motor.isMotorOn && !b.line.level)
    }

    @Test func doublePatternTimeline() throws {
        let b = try Bench()
        b.motor.play(.double)
        b.run(to: 10_000)
        #expect(b.timeline == ["+0", "-80", "+200", "-280"])
        #expect(!b.motor.isPlaying)
    }

    @Test func ringRepeatsUntilStop() throws {
        let b = try Bench()
        b.motor.play(.ring)
        b.run(to: 4_100)
        // 400 on / 200 off / 400 on / 1000 off, repeating every 2 s.
        #expect(b.timeline == ["+0", "-400", "+600", "-1000", "+2000", "-2400", "+2600", "-3000", "+4000"])
        b.motor.stop()
        #expect(b.timeline.last == "-4100")
        #expect(!b.motor.isPlaying && !b.line.level)
        b.run(to: 20_000)
        #expect(b.timeline.count == 10)
    }

    @Test func ringStopsAtItsMaximumDuration() throws {
        let b = try Bench(HapticsConfiguration(ringMaxDuration: .milliseconds(4_200)))
        b.motor.play(.ring)
        b.run(to: 4_199)
        #expect(b.motor.isPlaying)
        b.run(to: 4_200)  // in the middle of the pulse that began at 4000
        #expect(!b.motor.isPlaying && !b.line.level)
        #expect(b.timeline.suffix(2) == ["+4000", "-4200"])
        b.run(to: 60_000)
        #expect(b.timeline.last == "-4200")
    }

    @Test func defaultRingMaximumIsSixtySeconds() throws {
        let b = try Bench()
        b.motor.play(.ring)
        b.run(to: 59_999)
        #expect(b.motor.isPlaying)
        b.run(to: 60_000)
        #expect(!b.motor.isPlaying && !b.line.level)
    }

    @Test func newPatternReplacesTheCurrentOne() throws {
        let b = try Bench()
        b.motor.play(.ring)
        b.run(to: 100)
        #expect(b.motor.play(.short) == .started)
        b.run(to: 10_000)
        #expect(b.timeline == ["+0", "-100", "+100", "-180"])
        #expect(b.motor.currentPattern == nil)
    }

    @Test func capCutsPulsesShortAndRefusesWhenUsedUp() throws {
        // 1 s budget per minute: a ring gets 400 + 400 ms, then 200 ms of the next pulse.
        let b = try Bench(HapticsConfiguration(maxOnTimePerMinute: .seconds(1), ringMaxDuration: .seconds(90)))
        b.motor.play(.ring)
        b.run(to: 2_500)
        #expect(b.timeline == ["+0", "-400", "+600", "-1000", "+2000", "-2200"])
        #expect(b.motor.isPlaying)  // the ring keeps its rhythm silently
        #expect(b.motor.remainingOnTime == .zero)
        #expect(b.motor.play(.short) == .suppressedCap)
        #expect(b.motor.currentPattern == .ring)  // a refused play leaves the ring alone
        // 60 s after the first pulse, budget frees up and the ring buzzes again.
        b.run(to: 61_000)
        #expect(b.timeline.count > 6)
        let resumed = b.transitions[6]
        #expect(resumed.0 == true && resumed.1 >= 60_000)
        b.motor.stop()
        #expect(!b.line.level)
    }

    @Test func capCountsOnTimeAcrossPatterns() throws {
        let b = try Bench(HapticsConfiguration(maxOnTimePerMinute: .milliseconds(200)))
        b.motor.play(.short)  // 80
        b.run(to: 1_000)
        b.motor.play(.short)  // 80 → 160 used
        b.run(to: 2_000)
        b.motor.play(.short)  // only 40 left
        b.run(to: 3_000)
        #expect(b.timeline == ["+0", "-80", "+1000", "-1080", "+2000", "-2040"])
        #expect(b.motor.play(.short) == .suppressedCap)
        b.run(to: 60_000)  // the first pulse (0-80) is still partly in the window
        #expect(b.motor.play(.short) == .suppressedCap)
        b.run(to: 60_100)  // now it has left: 120 ms used, 80 left
        #expect(b.motor.play(.short) == .started)
        b.run(to: 61_000)
        #expect(b.timeline.suffix(2) == ["+60100", "-60180"])
    }

    @Test func quietHoursAcrossMidnight() {
        let q = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60)
        #expect(q.contains(minuteOfDay: 22 * 60))
        #expect(q.contains(minuteOfDay: 23 * 60 + 59))
        #expect(q.contains(minuteOfDay: 0))
        #expect(q.contains(minuteOfDay: 6 * 60 + 59))
        #expect(!q.contains(minuteOfDay: 7 * 60))
        #expect(!q.contains(minuteOfDay: 12 * 60))
        #expect(!q.contains(minuteOfDay: 21 * 60 + 59))
        #expect(QuietHours(start: "22:00", end: "07:00") == q)
        #expect(QuietHours(start: "25:00", end: "07:00") == nil)
        #expect(!QuietHours(startMinute: 60, endMinute: 60).contains(minuteOfDay: 60))
    }

    @Test func lineFailingToTurnOnLeavesTheMotorOffAndReports() throws {
        let b = try Bench()
        b.line.failOn = true
        let outcome = b.motor.play(.ring)
        guard case .lineFailed(let e) = outcome else {
            Issue.record("expected .lineFailed, got \(outcome)")
            return
        }
        #expect(e.operation == "set GPIO line 18")
        #expect(b.errors == [e])
        #expect(!b.motor.isMotorOn && !b.motor.isPlaying)
        #expect(b.line.writes == [true, false])  // tried on, then forced off
        #expect(b.transitions.isEmpty)
        b.run(to: 10_000)
        #expect(b.line.writes == [true, false])  // nothing scheduled afterwards
    }

    @Test func lineFailingToTurnOffIsForcedOffAndReported() throws {
        let b = try Bench()
        b.motor.play(.double)
        b.line.failOn = false
        b.run(to: 80)
        #expect(b.errors.count == 1)
        #expect(!b.motor.isMotorOn && !b.motor.isPlaying)
        #expect(b.timeline == ["+0", "-80"])
        #expect(b.line.writes == [true, false, false])  // the step, then forceOff's retry
    }

    @Test func forceOffDuringAPulse() throws {
        let b = try Bench()
        b.motor.play(.ring)
        b.run(to: 150)
        b.motor.forceOff()
        #expect(!b.line.level && !b.motor.isMotorOn && !b.motor.isPlaying)
        #expect(b.timeline == ["+0", "-150"])
        b.run(to: 10_000)
        #expect(b.timeline == ["+0", "-150"])
        b.motor.forceOff()  // idempotent; drives the line off again, no new transition
        #expect(b.timeline.count == 2)
        #expect(b.line.writes.last == false)
    }

    @Test func stopAndDeinitLeaveTheLineOff() throws {
        let b = try Bench()
        b.motor.play(.ring)
        b.run(to: 100)
        b.motor.stop()
        #expect(!b.line.level)
        b.motor.play(.ring)
        b.run(to: 200)
        #expect(b.line.level)
        let timers = b.loop.timerCount
        b.motor = nil
        #expect(!b.line.level)
        #expect(b.loop.timerCount == timers - 2)
        b.run(to: 10_000)
        #expect(!b.line.level)
    }

    @Test func patternsAreData() {
        #expect(VibrationPattern.short.onTime == .milliseconds(80))
        #expect(VibrationPattern.double.pulses.count == 2)
        #expect(VibrationPattern.ring.repeats)
        #expect(VibrationPattern.ring.length == .milliseconds(2_000))
        #expect(VibrationPattern.named("ring") == .ring)
        #expect(VibrationPattern.named("nope") == nil)
        let custom = VibrationPattern(name: "sos", pulses: [.init(on: .milliseconds(50), off: .milliseconds(50))])
        #expect(custom != .short)
    }

    @Test func emptyPatternPlaysAsNothing() throws {
        let b = try Bench()
        #expect(b.motor.play(VibrationPattern(name: "none", pulses: [], repeats: true)) == .started)
        #expect(!b.motor.isPlaying)
        b.run(to: 1_000)
        #expect(b.transitions.isEmpty)
    }
}

@Suite struct OnTimeWindowTests {
    @Test func slidesAndMergesWhenFull() {
        var w = OnTimeWindow(window: .seconds(60), capacity: 2)
        let t0 = MonotonicInstant(nanoseconds: 100_000_000_000)
        w.record(from: t0, to: t0 + .milliseconds(100))
        w.record(from: t0 + .seconds(1), to: t0 + .milliseconds(1_100))
        #expect(w.used(at: t0 + .seconds(2), onSince: nil) == .milliseconds(200))
        // A third interval merges the two oldest: the 900 ms gap counts (safe side).
        w.record(from: t0 + .seconds(2), to: t0 + .milliseconds(2_100))
        #expect(w.count == 2)
        #expect(w.used(at: t0 + .seconds(3), onSince: nil) == .milliseconds(1_200))
        // The window slides: at t0+60.05 s, half the merged interval's start has left it.
        #expect(w.used(at: t0 + .milliseconds(60_050), onSince: nil) == .milliseconds(1_150))
        #expect(w.used(at: t0 + .seconds(70), onSince: t0 + .seconds(69)) == .seconds(1))
    }
}
