import Display
import Graphics
import HAL
import SimBoard
import Testing

/// What the glass must show for `fb` moved by `shift`: the framebuffer's
/// panel pixels, `x` columns right and `y` rows down, cut at the edges.
/// With the controller flip (rotation 180) the viewer sees that; otherwise
/// the glass in the controller's own orientation.
func expectedGlass(_ fb: Framebuffer, _ shift: PanelShift) -> MonoImage {
    var img = MonoImage(width: fb.panelWidth, height: fb.panelHeight)
    for y in 0..<fb.panelHeight {
        for x in 0..<fb.panelWidth where fb.panelPixel(x: x - shift.x, y: y - shift.y) { img[x, y] = true }
    }
    return img
}

extension Rig {
    /// The glass as `expectedGlass` describes it.
    var glass: MonoImage { fb.rotation.usesControllerFlip ? image.viewed(as: .r180) : image }
}

@Suite("Burn-in shift by the controller")
struct PanelShiftTests {
    @Test("a vertical step is the start line alone: 0x40 | 63 moves the picture one row down, nothing is rewritten",
          arguments: [0, 1, 2, 3])
    func verticalStepIsOneCommand(index: Int) throws {
        let (spec, panel) = panels[index]
        let rig = Rig(spec, panel: panel)
        try rig.driver.initialize()
        // Ink everywhere but the last row (which a step down would push off the glass).
        rig.fb.fill(Rect(x: 10, y: 3, width: 60, height: spec.height - 6))
        rig.fb.draw(Scene.bell, x: 90, y: 0)
        try rig.driver.flush(rig.fb)
        _ = rig.take()

        rig.driver.setShift(PanelShift(x: 0, y: 1))
        let stats = try rig.driver.flush(rig.fb)
        #expect(rig.take() == [[0x00, 0x7F]])
        #expect(stats.busBytes == 2 && stats.transactions == 1)
        #expect(rig.driver.appliedShift == PanelShift(x: 0, y: 1))
        #expect(rig.glass == expectedGlass(rig.fb, PanelShift(x: 0, y: 1)), "\(rig.glass.differences(from: expectedGlass(rig.fb, PanelShift(x: 0, y: 1))))")

        // Back: start line 0.
        rig.driver.setShift(.zero)
        try rig.driver.flush(rig.fb)
        #expect(rig.take() == [[0x00, 0x40]])
        #expect(rig.glass == expectedGlass(rig.fb, .zero))
        #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
    }

    @Test("the start line rides in the first window's transaction when something is drawn anyway")
    func startLineRidesWithAWindow() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64)
        try rig.driver.initialize()
        try rig.driver.flush(rig.fb)
        _ = rig.take()
        rig.fb.fill(Rect(x: 0, y: 0, width: 128, height: 8))
        rig.driver.setShift(PanelShift(x: 0, y: 1))
        try rig.driver.flush(rig.fb)
        let log = rig.take()
        #expect(log.count == 1)
        #expect(Array(log[0].prefix(9)) == [0x80, 0x7F, 0x80, 0x22, 0x80, 0x00, 0x80, 0x00, 0x40])
        #expect(rig.glass == expectedGlass(rig.fb, PanelShift(x: 0, y: 1)))
    }

    @Test("on a 64-row panel the row a step down pushes off is cut, not wrapped to the top")
    func wrappedRowIsCut() throws {
        let rig = Rig(.ssd1309_128x64, panel: .ssd1309_128x64)
        try rig.driver.initialize()
        rig.fb.hline(x0: 20, x1: 40, y: 63)
        rig.fb.hline(x0: 50, x1: 60, y: 0)
        try rig.driver.flush(rig.fb)
        _ = rig.take()
        rig.driver.setShift(PanelShift(x: 0, y: 2))
        let stats = try rig.driver.flush(rig.fb)
        // The start line and the cleared bits of the last row (21 bytes of page 7).
        #expect(stats.dataBytes == 21)
        #expect(rig.glass == expectedGlass(rig.fb, PanelShift(x: 0, y: 2)))
        #expect(!rig.glass[25, 1], "row 63 did not wrap to row 1")
        // And back: the row returns.
        rig.driver.setShift(.zero)
        try rig.driver.flush(rig.fb)
        #expect(rig.glass == MonoImage(rig.fb))
    }

    @Test("a horizontal step waits for a flush that rewrites the screen anyway", arguments: [0, 1, 2, 3])
    func horizontalStepIsFolded(index: Int) throws {
        let (spec, panel) = panels[index]
        let rig = Rig(spec, panel: panel)
        try rig.driver.initialize()
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        _ = rig.take()

        // A small change: the step would rewrite every lit column, so it waits.
        rig.driver.setShift(PanelShift(x: 1, y: 0))
        rig.fb.fill(Rect(x: 60, y: 20, width: 4, height: 4), .invert)
        let small = try rig.driver.flush(rig.fb)
        #expect(rig.driver.appliedShift == .zero)
        #expect(small.dataBytes <= 8)
        #expect(rig.glass == expectedGlass(rig.fb, .zero))

        // A screen change: the step goes with it.
        rig.fb.clear()
        rig.fb.fill(Rect(x: 5, y: 5, width: 100, height: spec.height - 10))
        rig.fb.draw(Scene.bell, x: 20, y: 10, ink: .off)
        try rig.driver.flush(rig.fb)
        #expect(rig.driver.appliedShift == PanelShift(x: 1, y: 0))
        #expect(rig.glass == expectedGlass(rig.fb, PanelShift(x: 1, y: 0)), "\(rig.glass.differences(from: expectedGlass(rig.fb, PanelShift(x: 1, y: 0))))")

        // A full flush takes it at once too.
        rig.driver.setShift(PanelShift(x: 0, y: 1))
        try rig.driver.flush(rig.fb, full: true)
        #expect(rig.driver.appliedShift == PanelShift(x: 0, y: 1))
        #expect(rig.glass == expectedGlass(rig.fb, PanelShift(x: 0, y: 1)))
        #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
    }

    @Test("random drawing under random shifts: the glass is always the shifted picture, every panel, rotation, adapter and compare option",
          arguments: [0, 1, 2, 3], Rotation.allCases)
    func randomShifts(index: Int, rotation: Rotation) throws {
        let (spec, panel) = panels[index]
        for (smbus, compare) in [(false, true), (true, true), (false, false)] {
            let rig = Rig(spec, panel: panel, smbusOnly: smbus, options: DisplayOptions(sendOnlyChangedBytes: compare),
                          rotation: rotation)
            rig.bus.recording = false
            try rig.driver.initialize(rotation: rotation)
            var rng = UInt64(0x5EED + index)
            func next() -> Int {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                return Int(truncatingIfNeeded: rng >> 33)
            }
            for round in 0..<40 {
                if next() % 3 == 0 { rig.driver.setShift(PanelShift(x: next() % 3, y: next() % 3)) }
                if next() % 8 == 0 { rig.fb.clear() }
                for _ in 0..<(1 + next() % 4) {
                    let x = next() % rig.fb.width, y = next() % rig.fb.height
                    switch next() % 3 {
                    case 0: rig.fb.fill(Rect(x: x, y: y, width: 1 + next() % 60, height: 1 + next() % 30), .invert)
                    case 1: rig.fb.line(x0: x, y0: y, x1: next() % rig.fb.width, y1: next() % rig.fb.height)
                    default: rig.fb.draw(Scene.bell, x: x, y: y, ink: .invert)
                    }
                }
                try rig.driver.flush(rig.fb, full: next() % 10 == 0)
                let want = expectedGlass(rig.fb, rig.driver.appliedShift)
                #expect(rig.glass == want, "\(spec.name) \(rotation) smbus \(smbus) compare \(compare) round \(round) shift \(rig.driver.appliedShift): \(rig.glass.differences(from: want))")
            }
            #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
        }
    }

    @Test("initialize clears every RAM page: the rows a 32-row panel hides come into view dark")
    func thirtyTwoRowsHiddenRAMIsCleared() throws {
        let rig = Rig(.ssd1306_128x32, panel: .ssd1306_128x32)
        try rig.driver.initialize()
        for p in 0..<8 {
            for c in 0..<128 { #expect(rig.bus.emulator.ramByte(page: p, column: c) == 0) }
        }
        rig.fb.fill(Rect(x: 0, y: 0, width: 128, height: 32))
        try rig.driver.flush(rig.fb)
        rig.driver.setShift(PanelShift(x: 0, y: 3))
        try rig.driver.flush(rig.fb)
        #expect(rig.glass == expectedGlass(rig.fb, PanelShift(x: 0, y: 3)))
        #expect(!rig.glass[0, 2] && rig.glass[0, 3])
    }
}
