import Display
import Graphics
import HAL
import SimBoard
import Testing

@Suite("Display emulator")
struct EmulatorTests {
    @Test("round trip: framebuffer -> driver bytes -> emulator picture = framebuffer, every panel and rotation",
          arguments: [0, 1, 2, 3], Rotation.allCases)
    func roundTrip(index: Int, rotation: Rotation) throws {
        let (spec, panel) = panels[index]
        for smbus in [false, true] {
            let rig = Rig(spec, panel: panel, smbusOnly: smbus, rotation: rotation)
            rig.bus.recording = false
            try rig.driver.initialize(rotation: rotation)
            var rng = UInt64(0x1234 + index)
            func next() -> Int {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                return Int(truncatingIfNeeded: rng >> 33)
            }
            for round in 0..<12 {
                // Random rectangles, lines and pixels: each round flushes only what changed.
                for _ in 0..<(1 + next() % 4) {
                    let x = next() % rig.fb.width, y = next() % rig.fb.height
                    switch next() % 4 {
                    case 0: rig.fb.fill(Rect(x: x, y: y, width: 1 + next() % 40, height: 1 + next() % 20), .invert)
                    case 1: rig.fb.line(x0: x, y0: y, x1: next() % rig.fb.width, y1: next() % rig.fb.height)
                    case 2: rig.fb.setPixel(x: x, y: y, .invert)
                    default: rig.fb.draw(Scene.bell, x: x, y: y, ink: .invert)
                    }
                }
                try rig.driver.flush(rig.fb)
                let seen = rig.image.viewed(as: rotation)
                #expect(seen == MonoImage(rig.fb), "\(spec.name) \(rotation) smbus \(smbus) round \(round): \(seen.differences(from: MonoImage(rig.fb)))")
            }
            #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
        }
    }

    @Test("a driver table bug shows as a fault or a wrong picture")
    func driverBugsShow() throws {
        // SSD1306 commands sent to an SH1106.
        let wrongChip = Rig(.ssd1306_128x64, panel: .sh1106_128x64)
        #expect(throws: HALError.self) { try wrongChip.driver.initialize() }
        #expect(wrongChip.bus.emulator.faults.contains { $0.message.contains("0x20 is not a SH1106 command") })

        // A 128x32 init on a 128x64 glass: multiplex and COM pins do not match.
        let wrongSize = EmulatedI2CDisplay(panel: .ssd1306_128x64)
        let d = OLEDDriver(spec: ControllerSpec(name: "bad", family: .ssd1306, width: 128, height: 64, ramColumns: 128, columnOffset: 0,
                                                addressing: .horizontalWindow, initCommands: ControllerSpec.ssd1306_128x32.initCommands,
                                                defaultContrast: 0x80),
                           transport: wrongSize)
        #expect(throws: HALError.self) { try d.initialize() }
        #expect(wrongSize.emulator.faults.contains { $0.message.contains("multiplex ratio 32") })

        // The SH1106 column offset left out: the picture is shifted by two columns.
        let noOffset = Rig(.sh1106_128x64.withColumnOffset(0), panel: .sh1106_128x64)
        try noOffset.driver.initialize()
        noOffset.fb.setPixel(x: 10, y: 10)
        try noOffset.driver.flush(noOffset.fb)
        #expect(noOffset.image != MonoImage(noOffset.fb))
        #expect(noOffset.image[8, 10])
    }

    @Test("strict decoding reports malformed streams", arguments: [
        (EmulatedPanel.ssd1306_128x64, [0x01, 0xAF] as [UInt8], "non-zero low bits"),
        (.ssd1306_128x64, [0x00], "followed by nothing"),
        (.ssd1306_128x64, [0x80], "ends the transaction"),
        (.ssd1306_128x64, [0x00, 0x20, 0x03], "addressing mode 3"),
        (.ssd1306_128x64, [0x00, 0x21, 0x10, 0x05], "column window 16...5"),
        (.ssd1306_128x64, [0x00, 0x22, 0x00, 0x08], "page window"),
        (.ssd1306_128x64, [0x00, 0xA8, 0x05], "multiplex ratio 5"),
        (.ssd1306_128x64, [0x00, 0xDA, 0x02], "alternative (0x12)"),
        (.ssd1306_128x32, [0x00, 0xDA, 0x12], "sequential (0x02)"),
        (.ssd1306_128x64, [0x00, 0xD9, 0xF0], "pre-charge"),
        (.ssd1306_128x64, [0x00, 0x8D, 0x33], "charge pump parameter"),
        (.ssd1306_128x64, [0x00, 0xAF], "charge pump off"),
        (.ssd1306_128x64, [0x00, 0x2F], "not emulated"),
        (.ssd1306_128x64, [0x00, 0x20, 0x00, 0xB3], "page addressing mode"),
        (.ssd1306_128x64, [0x00, 0xFF], "0xFF is not a SSD1306 command"),
        (.ssd1306_128x64, [0x00, 0x81, 0x40, 0x00], "waits for"),
        (.ssd1309_128x64, [0x00, 0x8D, 0x14], "0x8D is not a SSD1309 command"),
        (.ssd1309_128x64, [0x00, 0xFD, 0x16, 0xAF], "command lock"),
        (.sh1106_128x64, [0x00, 0x21, 0x00, 0x7F], "0x21 is not a SH1106 command"),
        (.sh1106_128x64, [0x00, 0xAD, 0x00], "DC-DC parameter"),
        (.sh1106_128x64, [0x00, 0x19], "beyond 131"),
    ] as [(EmulatedPanel, [UInt8], String)])
    func strict(panel: EmulatedPanel, stream: [UInt8], message: String) {
        let emulator = DisplayEmulator(panel: panel, strict: false)
        if stream == [0x00, 0x81, 0x40, 0x00] {
            // contrast waits for its parameter, then data arrives
            try? emulator.receive([0x00, 0x81])
            try? emulator.receive([0x40, 0x00])
        } else {
            try? emulator.receive(stream)
        }
        #expect(emulator.faults.contains { $0.message.contains(message) }, "\(emulator.faults)")
        // And with strict on, receive throws.
        let strictEmulator = DisplayEmulator(panel: panel, strict: true)
        var threw = false
        do {
            if stream == [0x00, 0x81, 0x40, 0x00] {
                try strictEmulator.receive([0x00, 0x81])
                try strictEmulator.receive([0x40, 0x00])
            } else {
                try strictEmulator.receive(stream)
            }
        } catch { threw = true }
        #expect(threw)
    }

    @Test("SH1106 data past column 131 is reported, not wrapped")
    func sh1106Overrun() throws {
        let e = DisplayEmulator(panel: .sh1106_128x64, strict: false)
        try e.receive([0x00, 0xB0, 0x02, 0x18])   // column 130
        try e.receive([0x40, 0xAA, 0xBB, 0xCC])
        #expect(e.ramByte(page: 0, column: 130) == 0xAA && e.ramByte(page: 0, column: 131) == 0xBB)
        #expect(e.faults.count == 1 && e.faults[0].message.contains("past column 131"))
    }

    @Test("addressing modes: horizontal wraps in its window, vertical goes down first, page mode stays on its page")
    func addressingModes() throws {
        let e = DisplayEmulator(panel: .ssd1306_128x64)
        try e.receive([0x00, 0x8D, 0x14, 0x20, 0x00, 0x21, 10, 11, 0x22, 3, 4])
        try e.receive([0x40, 1, 2, 3, 4, 5])   // 10/3, 11/3, 10/4, 11/4, then back to 10/3
        #expect(e.ramByte(page: 3, column: 10) == 5 && e.ramByte(page: 3, column: 11) == 2)
        #expect(e.ramByte(page: 4, column: 10) == 3 && e.ramByte(page: 4, column: 11) == 4)
        try e.receive([0x00, 0x20, 0x01, 0x21, 20, 21, 0x22, 0, 1])
        try e.receive([0x40, 7, 8, 9])          // 20/0, 20/1, 21/0
        #expect(e.ramByte(page: 0, column: 20) == 7 && e.ramByte(page: 1, column: 20) == 8 && e.ramByte(page: 0, column: 21) == 9)
        try e.receive([0x00, 0x20, 0x02, 0xB5, 0x0E, 0x17])   // page 5, column 0x7E
        try e.receive([0x40, 0x11, 0x22, 0x33])               // 126, 127, wraps to 0
        #expect(e.ramByte(page: 5, column: 126) == 0x11 && e.ramByte(page: 5, column: 127) == 0x22 && e.ramByte(page: 5, column: 0) == 0x33)
        // Co = 1 control bytes: command, then data, in one transaction.
        try e.receive([0x80, 0xB6, 0x80, 0x01, 0x80, 0x10, 0xC0, 0x5A])
        #expect(e.ramByte(page: 6, column: 1) == 0x5A)
        #expect(e.faults.isEmpty)
    }

    @Test("contrast, invert, sleep, entire-display-on and start line reach the picture")
    func registers() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64)
        try rig.driver.initialize()
        rig.fb.setPixel(x: 5, y: 5)
        try rig.driver.flush(rig.fb)
        try rig.driver.setContrast(0x42)
        #expect(rig.bus.emulator.contrast == 0x42)
        try rig.driver.setInverted(true)
        #expect(rig.bus.emulator.inverted)
        #expect(!rig.image[5, 5] && rig.image[6, 5])
        try rig.driver.setInverted(false)
        try rig.driver.setDisplayOn(false)
        #expect(rig.image.litCount == 0 && !rig.bus.emulator.displayOn)
        try rig.driver.setDisplayOn(true)
        #expect(rig.image[5, 5])
        try rig.bus.write(.commands, [0xA5])
        #expect(rig.image.litCount == 128 * 64)
        try rig.bus.write(.commands, [0xA4, 0x41])   // start line 1: everything moves up a row
        #expect(rig.image[5, 4] && !rig.image[5, 5])
        #expect(rig.bus.emulator.faults.isEmpty)
    }

    @Test("persist keeps the picture on shutdown; otherwise RAM is cleared and the panel switched off")
    func persist() throws {
        for persist in [false, true] {
            let rig = Rig(.sh1106_128x64, panel: .sh1106_128x64, options: DisplayOptions(persist: persist))
            try rig.driver.initialize()
            Scene.draw(rig.fb)
            try rig.driver.flush(rig.fb)
            _ = rig.take()
            try rig.driver.shutdown()
            let bytes = rig.take()
            if persist {
                #expect(bytes.isEmpty)
                #expect(rig.image == MonoImage(rig.fb))
            } else {
                #expect(bytes.last == [0x00, 0xAE])
                #expect(!rig.bus.emulator.displayOn)
                #expect(rig.bus.emulator.ramByte(page: 3, column: 40) == 0)
            }
        }
    }
}

@Suite("Display emulator: start line and display offset")
struct EmulatorScrollRegisterTests {
    /// An SSD1306 128x64 or 128x32 switched on with RAM row 0 lit in column 0
    /// (pixel (127 - 0) on the glass with segment remap, so column 127) and
    /// RAM row 63 lit in column 1.
    func panel(_ p: EmulatedPanel) throws -> DisplayEmulator {
        let e = DisplayEmulator(panel: p)
        let mux: UInt8 = p.height == 64 ? 0x3F : 0x1F
        let pins: UInt8 = p.height == 64 ? 0x12 : 0x02
        try e.receive([0x00, 0xA8, mux, 0xDA, pins, 0x8D, 0x14, 0xA1, 0xC8, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7])
        try e.receive([0x40] + [UInt8](repeating: 0, count: 1024))
        try e.receive([0x00, 0x21, 0, 1, 0x22, 0, 0])
        try e.receive([0x40, 0x01, 0x00])
        try e.receive([0x00, 0x21, 0, 1, 0x22, 7, 7])
        try e.receive([0x40, 0x00, 0x80])
        try e.receive([0x00, 0xAF])
        return e
    }

    @Test("start line 0x40 | n: glass row y shows RAM row y + n, wrapping at 64 rows")
    func startLine() throws {
        let e = try panel(.ssd1306_128x64)
        #expect(e.isLit(x: 0, y: 0) && e.isLit(x: 1, y: 63))
        try e.receive([0x00, 0x7F])   // start line 63
        #expect(e.startLine == 63)
        #expect(e.isLit(x: 0, y: 1) && !e.isLit(x: 0, y: 0))
        #expect(e.isLit(x: 1, y: 0), "RAM row 63 wraps to the top")
    }

    @Test("display offset 0xD3 on a 32-row panel: a COM whose row is past the multiplex ratio stays dark")
    func displayOffsetOnThirtyTwoRows() throws {
        let e = try panel(.ssd1306_128x32)
        #expect(e.isLit(x: 0, y: 0))
        try e.receive([0x00, 0xD3, 63])
        #expect(e.displayOffset == 63)
        #expect(e.isLit(x: 0, y: 1) && !e.isLit(x: 0, y: 0))
        #expect(!e.isLit(x: 1, y: 0), "row 63 is not one of the 32 active rows: dark, not RAM row 63")
        // The start line instead shows RAM row 63 there.
        try e.receive([0x00, 0xD3, 0, 0x7F])
        #expect(e.isLit(x: 1, y: 0) && e.isLit(x: 0, y: 1))
    }
}
