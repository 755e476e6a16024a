import HAL
import Testing
import Watch

/// Static content moves around a 2x2 pixel square, one step per
/// `pixelShiftInterval`, from `start`, taken on the first minute tick at
/// or after each step falls due (no wake-up of its own), and never while
/// the panel is dark.
@Suite struct WatchModelBurnInShiftTests {
    /// Awake for the whole test: dim and off after two hours.
    static func awake() -> WatchSettings {
        var s = ModelRig.defaultSettings()
        s.dimAfter = .seconds(7200)
        s.offAfter = .seconds(7200)
        return s
    }

    @Test func itStepsAroundTheSquareOnTheMinuteTick() {
        let rig = ModelRig(settings: Self.awake())
        #expect(rig.model.pixelShift == (0, 0))
        var seen: [String] = []
        for k in 1...4 {
            let renders = rig.sink.renders
            rig.advance(by: .seconds(180))
            // Three minute ticks, each a redraw; the third also steps (and
            // asks for its own, coalesced by the controller).
            #expect(rig.sink.renders == renders + 4)
            #expect(rig.model.shiftStep == k)
            seen.append("\(rig.model.pixelShift)")
        }
        #expect(seen == ["(x: 1, y: 0)", "(x: 1, y: 1)", "(x: 0, y: 1)", "(x: 0, y: 0)"])
        #expect(rig.minuteTicks == 12)
        #expect(rig.model.nextDeadline == rig.model.settings.dimAfter.asDeadline(from: MonotonicInstant(nanoseconds: 1_000_000_000)),
            "the shift adds no deadline of its own")
    }

    @Test func aStepDueBetweenTicksWaitsForTheNextTick() {
        var settings = Self.awake()
        settings.pixelShiftInterval = .seconds(90)
        let rig = ModelRig(settings: settings)
        rig.advance(by: .seconds(90))
        #expect(rig.model.shiftStep == 0, "due at 90 s, the tick is at 120 s")
        rig.advance(by: .seconds(30))
        #expect(rig.model.shiftStep == 1)
    }

    @Test func nothingShiftsBeforeTheWatchStarts() {
        let rig = ModelRig(settings: Self.awake(), started: false)
        rig.advance(by: .seconds(3600))
        #expect(rig.model.shiftStep == 0)
        #expect(rig.minuteTicks == 0, "no minute tick before start")
    }

    @Test func itDoesNotShiftWhileTheDisplayIsOffAndStepsOnceOnTheFirstTickAfterWaking() {
        let rig = ModelRig()
        rig.advance(by: .seconds(3640))
        #expect(rig.model.displayPower == .off)
        #expect(rig.model.shiftStep == 0)
        #expect(rig.minuteTicks == 0, "dark from 30 s on: no tick at all")
        rig.press(.back)
        rig.advance(by: .seconds(20))  // the minute tick at 3661 s, while lit
        #expect(rig.minuteTicks == 1)
        #expect(rig.model.shiftStep == 1, "one step, not the twenty missed in the dark")
    }

    @Test func afterAStallItStepsOnceAndStaysOnItsGrid() {
        let rig = ModelRig(settings: Self.awake())
        let start = rig.now
        // A tick 3.5 intervals late: one step, like a repeating loop timer.
        rig.model.minuteTicked(now: start.advanced(by: .seconds(3 * 180 + 90)))
        #expect(rig.model.shiftStep == 1)
        rig.model.minuteTicked(now: start.advanced(by: .seconds(4 * 180 - 1)))
        #expect(rig.model.shiftStep == 1, "the next step is due on the grid, at 4 intervals")
        rig.model.minuteTicked(now: start.advanced(by: .seconds(4 * 180)))
        #expect(rig.model.shiftStep == 2)
    }
}

extension Duration {
    fileprivate func asDeadline(from start: MonotonicInstant) -> MonotonicInstant { start.advanced(by: self) }
}
