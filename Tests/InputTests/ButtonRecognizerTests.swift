import HAL
import Input
import LinuxLoop
import Loop
import Testing

@testable import Input

/// A recognizer on a manual-clock loop, with a script of edges at absolute
/// times (milliseconds from the start) and the gestures it reported, stamped.
private final class Bench {
    let clock = ManualClock(now: MonotonicInstant(nanoseconds: 1_000_000_000))
    let loop: EpollLoop
    let start: MonotonicInstant
    var recognizer: ButtonRecognizer!
    /// (gesture, ms since start when reported)
    var gestures: [(ButtonGesture, Int64)] = []
    var levels: [(Bool, Int64)] = []

    init(timing: ButtonTiming = .defaults, doublePress: Bool = false) throws {
        loop = try EpollLoop(clock: .manual(clock))
        start = clock.now
        recognizer = ButtonRecognizer(timing: timing, detectsDoublePress: doublePress, scheduler: loop) { [weak self] g in
            guard let self else { return }
            self.gestures.append((g, self.ms(self.loop.now)))
        }
        recognizer.levelHandler = { [weak self] level, t in
            guard let self else { return }
            self.levels.append((level, self.ms(t)))
        }
    }

    func ms(_ t: MonotonicInstant) -> Int64 { (t - start).millisecondsClamped }
    func at(_ ms: Int64) -> MonotonicInstant { start + .milliseconds(ms) }

    /// Runs time forward to `ms`, firing timers on the way.
    func run(to ms: Int64) {
        let left = at(ms) - loop.now
        if left > .zero { loop.advanceClock(by: left) }
    }

    /// Delivers an edge that happened (and was read) at `ms`.
    func edge(_ active: Bool, _ ms: Int64) {
        run(to: ms)
        recognizer.edge(LineEdge(active: active, timestamp: at(ms)))
    }

    /// Edges at the given times, alternating from `first`.
    func edges(startingWith first: Bool, _ times: [Int64]) {
        var level = first
        for t in times {
            edge(level, t)
            level.toggle()
        }
    }

    var kinds: [ButtonGesture] { gestures.map(\.0) }
}

@Suite struct ButtonRecognizerTests {
    @Test func cleanPressReportsOnePressAfterRelease() throws {
        let b = try Bench()
        b.edge(true, 0)
        b.edge(false, 100)
        b.run(to: 119)
        #expect(b.gestures.isEmpty)  // the release is not settled yet
        b.run(to: 120)
        #expect(b.kinds == [.press])
        #expect(b.gestures[0].1 == 120)  // release at 100 + 20 ms debounce
        #expect(b.levels.map(\.0) == [true, false])
        #expect(b.levels.map(\.1) == [0, 100])  // settled levels carry the edge time
        b.run(to: 5_000)
        #expect(b.kinds == [.press])
    }

    @Test func bouncesBeforeSettlingGiveExactlyOnePress() throws {
        let b = try Bench()
        // Contact bounce on the press (0, 2, 3, 6) and on the release (150, 151, 155, 158).
        b.edges(startingWith: true, [0, 2, 3, 5, 6])
        b.edges(startingWith: false, [150, 151, 155, 157, 158])
        b.run(to: 1_000)
        #expect(b.kinds == [.press])
        #expect(b.levels.map(\.0) == [true, false])
        #expect(b.levels.map(\.1) == [6, 158])
        #expect(b.gestures[0].1 == 178)
    }

    @Test func glitchShorterThanDebounceIsIgnored() throws {
        let b = try Bench()
        b.edge(true, 0)
        b.edge(false, 5)
        b.run(to: 2_000)
        #expect(b.gestures.isEmpty)
        #expect(b.levels.isEmpty)
        #expect(!b.recognizer.isPressed)
    }

    @Test func edgesReadLateInOneBatchAreJudgedByTheirTimestamps() throws {
        let b = try Bench()
        // The loop was busy: a clean 80 ms press is read at 500 ms, all at once.
        b.run(to: 500)
        b.recognizer.edge(LineEdge(active: true, timestamp: b.at(0)))
        b.recognizer.edge(LineEdge(active: false, timestamp: b.at(80)))
        b.run(to: 500)  // the release settle timer (due at 100) fires immediately
        b.loop.advanceClock(by: .zero)
        b.run(to: 501)
        #expect(b.kinds == [.press])
        #expect(b.levels.map(\.1) == [0, 80])
    }

    @Test func timestampsFromTheFutureDelayByAtMostTheirPeriod() throws {
        let b = try Bench()
        // An edge stamped an hour ahead (a clock mix-up) still settles and long-presses in time.
        b.recognizer.edge(LineEdge(active: true, timestamp: b.at(3_600_000)))
        b.run(to: 20)
        #expect(b.recognizer.isPressed)
        b.run(to: 620)
        #expect(b.kinds == [.longPress])
    }

    @Test func longPressFiresAt600WhileHeldAndReleaseAddsNothing() throws {
        let b = try Bench()
        b.edge(true, 0)
        b.run(to: 599)
        #expect(b.gestures.isEmpty)
        b.run(to: 600)
        #expect(b.kinds == [.longPress])
        #expect(b.gestures[0].1 == 600)
        #expect(b.recognizer.isPressed)
        b.edge(false, 2_000)
        b.run(to: 5_000)
        #expect(b.kinds == [.longPress])
    }

    @Test func bounceDuringLongHoldDoesNotSplitIt() throws {
        let b = try Bench()
        b.edges(startingWith: true, [0, 1, 4])
        // A contact glitch at 300 ms (3 ms open) while held.
        b.edges(startingWith: false, [300, 303])
        b.run(to: 603)
        #expect(b.gestures.isEmpty)
        b.run(to: 604)
        #expect(b.gestures.map(\.1) == [604])  // 600 ms after the settled press at 4  // 600 ms after the settled press at 4
        // A bouncy release after the long press produces nothing more.
        b.edges(startingWith: false, [900, 902, 905])
        b.run(to: 3_000)
        #expect(b.kinds == [.longPress])
        #expect(b.levels.map(\.0) == [true, false])
    }

    @Test func doublePress() throws {
        let b = try Bench(doublePress: true)
        b.edge(true, 0)
        b.edge(false, 80)
        b.run(to: 250)
        #expect(b.gestures.isEmpty)  // waiting for a possible second press
        b.edges(startingWith: true, [250, 252, 254])  // second press, with bounces
        b.edge(false, 330)
        b.run(to: 2_000)
        #expect(b.kinds == [.doublePress])
        #expect(b.gestures[0].1 == 350)
    }

    @Test func pressWithDoublePressEnabledWaitsForTheWindow() throws {
        let b = try Bench(doublePress: true)
        b.edge(true, 0)
        b.edge(false, 80)
        b.run(to: 379)
        #expect(b.gestures.isEmpty)
        b.run(to: 380)  // the 300 ms window runs from the release edge at 80
        #expect(b.kinds == [.press])
    }

    @Test func secondPressAfterTheWindowGivesTwoPresses() throws {
        let b = try Bench(doublePress: true)
        b.edge(true, 0)
        b.edge(false, 80)
        b.edge(true, 500)
        b.edge(false, 580)
        b.run(to: 2_000)
        #expect(b.kinds == [.press, .press])
        #expect(b.gestures.map(\.1) == [380, 880])
    }

    @Test func twoQuickPressesWithoutDoublePressDetectionAreTwoPresses() throws {
        let b = try Bench(doublePress: false)
        b.edge(true, 0)
        b.edge(false, 80)
        b.edge(true, 150)
        b.edge(false, 230)
        b.run(to: 2_000)
        #expect(b.kinds == [.press, .press])
        #expect(b.gestures.map(\.1) == [100, 250])
    }

    @Test func pressThenHoldIsPressThenLongPress() throws {
        let b = try Bench(doublePress: true)
        b.edge(true, 0)
        b.edge(false, 80)
        b.edge(true, 200)
        b.run(to: 800)
        #expect(b.kinds == [.press, .longPress])
        b.edge(false, 1_000)
        b.run(to: 3_000)
        #expect(b.kinds == [.press, .longPress])
    }

    @Test func configurableTimings() throws {
        let timing = ButtonTiming(debounce: .milliseconds(5), longPress: .milliseconds(1_000), doublePress: .milliseconds(150))
        let b = try Bench(timing: timing, doublePress: true)
        // 8 ms press: longer than this debounce, so it counts.
        b.edge(true, 0)
        b.edge(false, 8)
        b.run(to: 157)
        #expect(b.gestures.isEmpty)
        b.run(to: 158)  // the window runs from the release edge at 8
        #expect(b.kinds == [.press])
        #expect(b.gestures[0].1 == 158)
        // Held 900 ms: not yet a long press with a 1 s threshold.
        b.edge(true, 1_000)
        b.run(to: 1_999)
        #expect(b.kinds == [.press])
        b.run(to: 2_000)
        #expect(b.kinds == [.press, .longPress])
    }

    @Test func kernelDebounceSkipsSoftwareDebounce() throws {
        let b = try Bench()
        b.recognizer.kernelDebounceActive = true
        #expect(b.recognizer.effectiveDebounce == .zero)
        b.edge(true, 0)
        #expect(b.recognizer.isPressed)  // counted at once
        b.edge(false, 5)
        #expect(b.kinds == [.press])
        #expect(b.gestures[0].1 == 5)
    }

    @Test func resetForgetsEverythingInFlight() throws {
        let b = try Bench(doublePress: true)
        b.edge(true, 0)
        b.edge(false, 80)  // press pending in the double-press window
        b.run(to: 200)
        b.recognizer.reset()
        b.edge(true, 300)  // held, long press armed
        b.run(to: 500)
        b.recognizer.reset()
        b.run(to: 5_000)
        #expect(b.gestures.isEmpty)
        #expect(!b.recognizer.isPressed)
        // A button held across reset(level: true) gives no gesture on its release.
        b.recognizer.reset(level: true)
        b.edge(false, 6_000)
        b.run(to: 7_000)
        #expect(b.gestures.isEmpty)
        // And it works normally afterwards.
        b.edge(true, 8_000)
        b.edge(false, 8_100)
        b.run(to: 9_000)
        #expect(b.kinds == [.press])
    }

    @Test func deinitDestroysItsTimers() throws {
        let b = try Bench()
        let before = b.loop.timerCount
        var r: ButtonRecognizer? = ButtonRecognizer(detectsDoublePress: true, scheduler: b.loop) { _ in }
        #expect(b.loop.timerCount == before + 3)
        r?.edge(LineEdge(active: true, timestamp: b.loop.now))
        r = nil
        #expect(b.loop.timerCount == before)
        b.run(to: 5_000)  // nothing fires into the freed recognizer
    }

    @Test func defaultTimings() {
        #expect(ButtonTiming.defaults == ButtonTiming(debounce: .milliseconds(20), longPress: .milliseconds(600), doublePress: .milliseconds(300)))
    }
}

@Test func aPressRightAfterALongPressIsAPress() throws {
    let b = try Bench(doublePress: true)
    b.edge(true, 0)
    b.edge(false, 800)
    b.edge(true, 820)
    b.edge(false, 900)
    b.run(to: 2000)
    #expect(b.kinds == [.longPress, .press])
}
