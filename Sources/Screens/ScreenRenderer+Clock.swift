import Graphics

extension ScreenRenderer {
    /// The idle face: the time in the large font at twice its size, the
    /// date, the Bluetooth state and the unread count. No status bar.
    func drawIdleClock(_ status: StatusInfo, into fb: Framebuffer) {
        appendTime(status.time, to: scratch.clear())
        let scale = 2
        let timeWidth = bigTextWidth(scratch.bytes, scale: scale)
        let inkHeight = (digitInkTop - digitInkBottom + 1) * scale
        if isCompact {
            // 128x32: the time fills the height on the left; weekday, day and
            // the state glyphs stack on the right.
            let inkY = (height - inkHeight) / 2
            drawBig(scratch.bytes, x: 1, inkTop: inkY, scale: scale, into: fb)
            // The column right of the time: weekday, then day and Bluetooth
            // state, then the unread count.
            let column = timeWidth + 4
            if let t = status.time {
                scratch.clear()
                DateText.appendWeekday(DateText.weekday(t), to: scratch)
                line(fb, scratch.bytes, fonts.small, x: column, baseline: 8, maxWidth: width - column)
                scratch.clear().append(decimal: t.day)
                line(fb, scratch.bytes, fonts.small, x: column, baseline: 19, maxWidth: width - column)
            }
            drawLinkGlyph(status.link, rightEdge: width - 1, top: 11, into: fb)
            drawUnread(status.unread, rightEdge: width - 1, baseline: 30, into: fb)
            return
        }
        // 128x64: time centred at the top, the date under it, state glyphs
        // along the bottom.
        let inkY = 5
        drawBig(scratch.bytes, x: (width - timeWidth) / 2, inkTop: inkY, scale: scale, into: fb)
        if let t = status.time {
            scratch.clear()
            DateText.appendWeekday(DateText.weekday(t), to: scratch)
            scratch.append(" ").append(decimal: t.day).append(" ")
            DateText.appendMonth(t.month, to: scratch)
            line(fb, scratch.bytes, fonts.body, x: 0, baseline: inkY + inkHeight + 14, maxWidth: width, alignment: .center)
        }
        drawLinkGlyph(status.link, rightEdge: 11, top: height - 10, healthMarkOnRight: true, into: fb)
        drawUnread(status.unread, rightEdge: width - 2, baseline: height - 2, into: fb)
    }

    // MARK: scaled digits

    /// The advance of one character of the big clock: digits keep the
    /// font's (so the time does not jiggle), ':' is narrowed to its ink.
    func bigAdvance(_ c: UInt8, scale: Int) -> Int {
        if c == UInt8(ascii: ":") { return (colonInk.right - colonInk.left + 1 + 4) * scale }
        return (fonts.large.primary.glyph(for: UInt32(c))?.advance ?? fonts.large.primary.defaultAdvance) * scale
    }

    func bigTextWidth(_ text: UnsafeRawBufferPointer, scale: Int) -> Int {
        var w = 0
        for c in text { w += bigAdvance(c, scale: scale) }
        return w
    }

    /// Draws ASCII text from the large font with every pixel `scale` x
    /// `scale`, the digits' highest ink row at `inkTop`.
    func drawBig(_ text: UnsafeRawBufferPointer, x: Int, inkTop: Int, scale: Int, into fb: Framebuffer) {
        let font = fonts.large.primary
        let baseline = inkTop + digitInkTop * scale
        let area = font.bitmapArea
        var pen = x
        for c in text {
            guard let g = font.glyph(for: UInt32(c)) else {
                pen += bigAdvance(c, scale: scale)
                continue
            }
            // ':' is drawn from its ink's left edge plus two pixels of space.
            let shift = c == UInt8(ascii: ":") ? (2 - colonInk.left) * scale : 0
            let top = baseline - (g.yOffset + g.height) * scale
            for row in 0..<g.height {
                for col in 0..<g.width {
                    let bit = row * g.width + col
                    if area[g.bitmapOffset + (bit >> 3)] & (0x80 >> UInt8(bit & 7)) != 0 {
                        fill(fb, Rect(x: pen + shift + (g.xOffset + col) * scale, y: top + row * scale,
                                      width: scale, height: scale))
                    }
                }
            }
            pen += bigAdvance(c, scale: scale)
        }
    }
}
