import Display
import Graphics
import HAL
import SimBoard
import Testing

@Suite("Golden byte streams and pictures")
struct GoldenStreamTests {
    @Test("init, full frame, one dirty page, a column window, rotation 180", arguments: [0, 1, 2, 3])
    func controller(index: Int) throws {
        let (spec, panel) = panels[index]
        let rig = Rig(spec, panel: panel)
        let name = spec.name

        try rig.driver.initialize()
        Golden.check(stream: rig.take(), "\(name)-init")
        #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
        #expect(rig.bus.emulator.displayOn)
        #expect(rig.image.litCount == 0)
        Golden.check(image: rig.image, "\(name)-init")

        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb, full: true)
        Golden.check(stream: rig.take(), "\(name)-full")
        Golden.check(image: rig.image, "\(name)-full")
        #expect(rig.image == MonoImage(rig.fb))

        // One dirty page: a full-width change inside page 2 (rows 16...23).
        rig.fb.invert(Rect(x: 0, y: 17, width: spec.width, height: 3))
        try rig.driver.flush(rig.fb)
        let page = rig.take()
        Golden.check(stream: page, "\(name)-page")
        Golden.check(image: rig.image, "\(name)-page")
        #expect(rig.image == MonoImage(rig.fb))

        // A column window: a small change across pages 1 and 2.
        rig.fb.fill(Rect(x: 40, y: 12, width: 9, height: 8), .invert)
        try rig.driver.flush(rig.fb)
        let window = rig.take()
        Golden.check(stream: window, "\(name)-window")
        Golden.check(image: rig.image, "\(name)-window")
        #expect(rig.image == MonoImage(rig.fb))

        // Rotation 180: remap commands, then the whole frame again.
        rig.fb.rotation = .r180
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        Golden.check(stream: rig.take(), "\(name)-rot180")
        Golden.check(image: rig.image, "\(name)-rot180")
        #expect(rig.image.viewed(as: .r180) == MonoImage(rig.fb))
        #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
        try rig.bus.emulator.checkIdle()
    }

    @Test("SSD1306 streams, spelled out: one transaction per window, window commands only when the window changes")
    func ssd1306Explicit() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64)
        #expect(rig.driver.oneTransactionPerWindow)
        try rig.driver.initialize()
        let initStream = rig.take()
        #expect(initStream.first == [0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00,
                                     0xDA, 0x12, 0xD9, 0xF1, 0xDB, 0x30, 0x2E, 0xA4, 0xA1, 0xC8, 0x81, 0xCF, 0xA6])
        // The RAM clear: the window's commands, each after a Co = 1 control
        // byte (0x80), then 0x40 and the data, in one transaction.
        #expect(initStream[1] == [0x80, 0x21, 0x80, 0x00, 0x80, 0x7F, 0x80, 0x22, 0x80, 0x00, 0x80, 0x07, 0x40]
                    + [UInt8](repeating: 0, count: 1024))
        #expect(initStream.count == 3)
        #expect(initStream.last == [0x00, 0xAF])

        // The controller's window is still the whole RAM and its pointer
        // wrapped to the start: a full frame is one transaction of 1,025 bytes.
        Scene.draw(rig.fb)
        let fullStats = try rig.driver.flush(rig.fb, full: true)
        let full = rig.take()
        #expect(full == [[0x40] + Array(rig.fb.storage)])
        #expect(fullStats.transactions == 1 && fullStats.busBytes == 1025)
        // 1,026 bytes with the address byte: 9,234 + 2 bit times, 23.09 ms at 400 kHz.
        #expect(fullStats.wireBits == 9236)
        #expect(fullStats.wireMicroseconds() == 23090)

        // One page: the columns are the known ones, only the page window is sent.
        rig.fb.invert(Rect(x: 0, y: 17, width: 128, height: 3))
        try rig.driver.flush(rig.fb)
        #expect(rig.take() == [[0x80, 0x22, 0x80, 0x02, 0x80, 0x02, 0x40] + Array(rig.fb.page(2))])

        rig.fb.fill(Rect(x: 40, y: 12, width: 9, height: 8), .invert)
        try rig.driver.flush(rig.fb)
        let w = rig.take()
        #expect(w.count == 1)
        #expect(w[0] == [0x80, 0x21, 0x80, 40, 0x80, 48, 0x80, 0x22, 0x80, 0x01, 0x80, 0x02, 0x40]
                    + Array(rig.fb.page(1)[40...48]) + Array(rig.fb.page(2)[40...48]))

        // The same window again: data only.
        rig.fb.fill(Rect(x: 41, y: 12, width: 7, height: 8), .invert)
        try rig.driver.flush(rig.fb)
        #expect(rig.take() == [[0x40] + Array(rig.fb.page(1)[40...48]) + Array(rig.fb.page(2)[40...48])])
        #expect(rig.image == MonoImage(rig.fb))
        #expect(rig.bus.emulator.faults.isEmpty, "\(rig.bus.emulator.faults)")
    }

    @Test("SSD1306 without one transaction per window (the option off): a command transaction and a data transaction, as before")
    func ssd1306TwoTransactions() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64, options: DisplayOptions(oneTransactionPerWindow: false))
        #expect(!rig.driver.oneTransactionPerWindow)
        try rig.driver.initialize()
        let initStream = rig.take()
        #expect(initStream[1] == [0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07])
        #expect(initStream[2] == [0x40] + [UInt8](repeating: 0, count: 1024))
        #expect(initStream[3] == [0x00, 0xAF])
        #expect(initStream.count == 4)

        Scene.draw(rig.fb)
        let stats = try rig.driver.flush(rig.fb, full: true)
        #expect(rig.take() == [[0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07], [0x40] + Array(rig.fb.storage)])
        // The "before": 2 transactions, 1,032 bytes (1,034 with the address bytes), 23.28 ms at 400 kHz.
        #expect(stats.transactions == 2 && stats.busBytes == 7 + 1025)
        #expect(stats.wireMicroseconds() == 23275)

        rig.fb.fill(Rect(x: 40, y: 12, width: 9, height: 8), .invert)
        try rig.driver.flush(rig.fb)
        let w = rig.take()
        #expect(w == [[0x00, 0x21, 40, 48, 0x22, 0x01, 0x02], [0x40] + Array(rig.fb.page(1)[40...48]) + Array(rig.fb.page(2)[40...48])])
        #expect(rig.image == MonoImage(rig.fb))
    }

    @Test("a transport whose messages are shorter than a frame and its framing gets the two-transaction framing")
    func shortMessages() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64, maxMessageLength: 1038)
        #expect(!rig.driver.oneTransactionPerWindow)
        let long = Rig(.ssd1306_128x64, panel: .ssd1306_128x64, maxMessageLength: 1039)
        #expect(long.driver.oneTransactionPerWindow)
        #expect(!Rig(.sh1106_128x64, panel: .sh1106_128x64).driver.oneTransactionPerWindow, "SH1106: page addressing, unchanged")
        #expect(!Rig(.ssd1306_128x64, panel: .ssd1306_128x64, smbusOnly: true).driver.oneTransactionPerWindow)
    }

    @Test("SH1106 streams, spelled out: page addressing at column offset 2")
    func sh1106Explicit() throws {
        let rig = Rig(.sh1106_128x64, panel: .sh1106_128x64)
        try rig.driver.initialize()
        let s = rig.take()
        #expect(s[0] == [0x00, 0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0xAD, 0x8B, 0x32, 0xDA, 0x12,
                         0xD9, 0x22, 0xDB, 0x35, 0xA4, 0xA1, 0xC8, 0x81, 0x80, 0xA6])
        // RAM cleared page by page, all 132 columns.
        for p in 0..<8 {
            #expect(s[1 + 2 * p] == [0x00, 0xB0 | UInt8(p), 0x00, 0x10])
            #expect(s[2 + 2 * p] == [0x40] + [UInt8](repeating: 0, count: 132))
        }
        #expect(s.last == [0x00, 0xAF])

        Scene.draw(rig.fb)
        rig.fb.invert(Rect(x: 0, y: 17, width: 128, height: 3))
        try rig.driver.flush(rig.fb, full: true)
        let full = rig.take()
        #expect(full.count == 16)
        #expect(full[4] == [0x00, 0xB2, 0x02, 0x10])
        #expect(full[5] == [0x40] + Array(rig.fb.page(2)))

        rig.fb.fill(Rect(x: 40, y: 12, width: 9, height: 3), .invert)   // page 1 only
        try rig.driver.flush(rig.fb)
        // column 40 + 2 = 42 = 0x2A: low nibble 0xA, high nibble 0x2
        #expect(rig.take() == [[0x00, 0xB1, 0x0A, 0x12], [0x40] + Array(rig.fb.page(1)[40...48])])

        // A change down three pages in one 16-column block: after the first
        // page the pointer already has the column's high nibble.
        _ = try rig.driver.flush(rig.fb)
        _ = rig.take()
        rig.fb.fill(Rect(x: 82, y: 0, width: 9, height: 24), .invert)
        try rig.driver.flush(rig.fb)
        // column 82 + 2 = 84 = 0x54
        #expect(rig.take() == [
            [0x00, 0xB0, 0x04, 0x15], [0x40] + Array(rig.fb.page(0)[82...90]),
            [0x00, 0xB1, 0x04], [0x40] + Array(rig.fb.page(1)[82...90]),
            [0x00, 0xB2, 0x04], [0x40] + Array(rig.fb.page(2)[82...90]),
        ])
        #expect(rig.image == MonoImage(rig.fb))

        // A user override of the offset moves every column.
        let moved = Rig(ControllerSpec.sh1106_128x64, panel: EmulatedPanel(chip: .sh1106, width: 128, height: 64, firstSegment: 0),
                        options: DisplayOptions(columnOffset: 4))
        try moved.driver.initialize()
        _ = moved.take()
        moved.fb.setPixel(x: 0, y: 0)
        try moved.driver.flush(moved.fb)
        #expect(moved.take() == [[0x00, 0xB0, 0x04, 0x10], [0x40, 0x01]])
        #expect(moved.image == MonoImage(moved.fb))
    }
}
