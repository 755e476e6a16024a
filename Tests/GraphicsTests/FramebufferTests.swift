import Graphics
import Testing

@Suite("Framebuffer")
struct FramebufferTests {
    @Test("pixels are stored in controller page layout, LSB on top")
    func pageLayout() {
        let fb = Framebuffer(width: 128, height: 64)
        fb.setPixel(x: 3, y: 10)
        fb.setPixel(x: 127, y: 63)
        #expect(fb.storage[1 * 128 + 3] == 0b0000_0100)
        #expect(fb.storage[7 * 128 + 127] == 0b1000_0000)
        #expect(fb.storage.reduce(0) { $0 + $1.nonzeroBitCount } == 2)
        #expect(fb.pixel(x: 3, y: 10))
        #expect(!fb.pixel(x: 4, y: 10))
        fb.setPixel(x: 3, y: 10, .invert)
        #expect(!fb.pixel(x: 3, y: 10))
    }

    @Test("dirty tracking records the touched columns per page")
    func dirtyTracking() {
        let fb = Framebuffer(width: 128, height: 64)
        #expect(fb.dirtyColumns(page: 0) == 0...127)   // a new frame is all dirty
        fb.clearDirty()
        #expect(!fb.isDirty)
        fb.setPixel(x: 40, y: 20)
        fb.fill(Rect(x: 10, y: 30, width: 5, height: 12))   // rows 30..41: pages 3,4,5
        #expect(fb.dirtyColumns(page: 2) == 40...40)
        #expect(fb.dirtyColumns(page: 3) == 10...14)
        #expect(fb.dirtyColumns(page: 4) == 10...14)
        #expect(fb.dirtyColumns(page: 5) == 10...14)
        #expect(fb.dirtyColumns(page: 6) == nil)
        #expect(fb.dirtyColumns(page: 0) == nil)
        fb.hline(x0: 100, x1: 90, y: 17)
        #expect(fb.dirtyColumns(page: 2) == 40...100)
        fb.clearDirty()
        fb.setPixel(x: 500, y: 5)   // outside: no change, nothing dirty
        #expect(!fb.isDirty)
    }

    @Test("fill uses page masks correctly across page boundaries")
    func fillAcrossPages() {
        let fb = Framebuffer(width: 16, height: 24)
        fb.fill(Rect(x: 2, y: 5, width: 3, height: 10))   // rows 5...14
        for y in 0..<24 {
            for x in 0..<16 {
                let inside = x >= 2 && x < 5 && y >= 5 && y < 15
                #expect(fb.pixel(x: x, y: y) == inside, "(\(x),\(y))")
            }
        }
        #expect(fb.storage[2] == 0b1110_0000)
        #expect(fb.storage[16 + 2] == 0b0111_1111)
        fb.invert(Rect(x: 0, y: 0, width: 16, height: 24))
        #expect(!fb.pixel(x: 3, y: 6))
        #expect(fb.pixel(x: 0, y: 0))
    }

    @Test("rotation 90 and 270 swap width and height and map to the panel")
    func rotations() {
        let fb = Framebuffer(width: 128, height: 64, rotation: .r90)
        #expect(fb.width == 64 && fb.height == 128)
        fb.setPixel(x: 0, y: 0)
        #expect(fb.panelPixel(x: 127, y: 0))
        fb.setPixel(x: 63, y: 127)
        #expect(fb.panelPixel(x: 0, y: 63))
        fb.clear()
        fb.rotation = .r270
        fb.setPixel(x: 0, y: 0)
        #expect(fb.panelPixel(x: 0, y: 63))
        fb.clearDirty()
        fb.fill(Rect(x: 10, y: 20, width: 4, height: 2))
        // logical (10..13, 20..21) -> panel x = y (20..21), panel y = 63 - x (50..53)
        for py in 50...53 { for px in 20...21 { #expect(fb.panelPixel(x: px, y: py)) } }
        #expect(fb.dirtyColumns(page: 6) == 20...21)
        // 180 is done by the controller: the bytes are the same as at 0.
        fb.rotation = .r180
        fb.clear()
        fb.setPixel(x: 1, y: 2)
        #expect(fb.panelPixel(x: 1, y: 2))
    }

    @Test("clipping discards drawing outside the clip rectangle")
    func clipping() {
        let fb = Framebuffer(width: 32, height: 16)
        fb.withClip(Rect(x: 4, y: 4, width: 8, height: 8)) {
            fb.fill(Rect(x: 0, y: 0, width: 32, height: 16))
            fb.line(x0: 0, y0: 0, x1: 31, y1: 15)
        }
        var lit = 0
        for y in 0..<16 { for x in 0..<32 where fb.pixel(x: x, y: y) { lit += 1; #expect(x >= 4 && x < 12 && y >= 4 && y < 12) } }
        #expect(lit == 64)
        #expect(fb.clip == fb.bounds)
    }

    @Test("lines include both end points; inverting twice restores")
    func lines() {
        let fb = Framebuffer(width: 32, height: 16)
        fb.line(x0: 1, y0: 1, x1: 20, y1: 9)
        #expect(fb.pixel(x: 1, y: 1) && fb.pixel(x: 20, y: 9))
        var count = 0
        for y in 0..<16 { for x in 0..<32 where fb.pixel(x: x, y: y) { count += 1 } }
        #expect(count == 20)   // one pixel per column for a shallow line
        fb.line(x0: 1, y0: 1, x1: 20, y1: 9, .invert)
        #expect(fb.storage.allSatisfy { $0 == 0 })
        fb.strokeRect(Rect(x: 0, y: 0, width: 5, height: 4))
        #expect(fb.pixel(x: 4, y: 3) && fb.pixel(x: 0, y: 3) && !fb.pixel(x: 2, y: 2))
    }

    @Test("bitmaps draw set bits; opaque clears the others")
    func bitmaps() {
        let icon = Bitmap(rows: [
            "#..#",
            ".##.",
            "#..#",
        ])
        #expect(icon.bits == [0b1001_0110, 0b1001_0000])
        let fb = Framebuffer(width: 16, height: 8)
        fb.fill(Rect(x: 0, y: 0, width: 16, height: 8))
        fb.draw(icon, x: 2, y: 1, ink: .off)
        #expect(!fb.pixel(x: 2, y: 1) && fb.pixel(x: 3, y: 1) && !fb.pixel(x: 3, y: 2))
        fb.clear()
        fb.fill(Rect(x: 0, y: 0, width: 16, height: 8))
        fb.draw(icon, x: 2, y: 1, opaque: true)
        #expect(fb.pixel(x: 2, y: 1) && !fb.pixel(x: 3, y: 1) && fb.pixel(x: 3, y: 2))
        // partly outside: clipped, no crash
        fb.draw(icon, x: 14, y: 6)
        fb.draw(icon, x: -2, y: -2)
        #expect(fb.pixel(x: 15, y: 6))
    }
}
