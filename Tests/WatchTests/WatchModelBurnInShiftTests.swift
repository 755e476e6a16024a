import HAL
import Testing
import Watch

/// Static content moves around a 2x2 pixel square, one step per
/// `pixelShiftInterval`, from `start`.
@Suite struct WatchModelBurnInShiftTests {
    @Test func itStepsAroundTheSquare() {
        let rig = ModelRig()
        let start = rig.now
        #expect(rig.model.pixelShift == (0, 0))
        var seen: [String] = []
        for k in 1...4 {
            let renders = rig.sink.renders
            rig.advance(by: .seconds(180))
            #expect(rig.sink.renders == renders + 1, "a redraw per step")
            #expect(rig.model.shiftStep == k)
            seen.append("\(rig.model.pixelShift)")
        }
        #expect(seen == ["(x: 1, y: 0)", "(x: 1, y: 1)", "(x: 0, y: 1)", "(x: 0, y: 0)"])
        #expect(rig.model.nextDeadline == start.advanced(by: .seconds(5 * 180)))
    }

    @Test func nothingShiftsBeforeTheWatchStarts() {
        let rig = ModelRig(started: false)
        rig.advance(by: .seconds(3600))
        #expect(rig.model.shiftStep == 0)
        #expect(rig.model.nextDeadline == nil, "dim and off are done, nothing else is timed")
    }

    @Test func itKeepsShiftingWhileTheDisplayIsOff() {
        let rig = ModelRig()
        rig.advance(by: .seconds(360))
        #expect(rig.model.displayPower == .off)
        #expect(rig.model.shiftStep == 2)
    }

    @Test func afterAStallItStepsOnceAndStaysOnItsGrid() {
        let rig = ModelRig()
        let start = rig.now
        // Woken 3.5 intervals late: one step, like a repeating loop timer.
        rig.now = start.advanced(by: .seconds(3 * 180 + 90))
        rig.model.handleDeadline(now: rig.now)
        #expect(rig.model.shiftStep == 1)
        #expect(rig.model.nextDeadline == start.advanced(by: .seconds(4 * 180)))
    }
}
