/// Horizontal placement of each line inside the layout width.
public enum TextAlignment: Sendable {
    case leading, center, trailing
}

/// One laid-out line: a byte range of the text (trailing spaces excluded),
/// its width in pixels, and whether an ellipsis follows it.
public struct TextLine: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var width: Int
    public var ellipsis: Bool
}

/// Wraps UTF-8 text into lines for a fixed width, then draws them.
///
/// - decodes UTF-8 from the caller's bytes (invalid sequences become U+FFFD);
/// - keeps combining marks, variation selectors and ZWJ sequences with their base;
/// - wraps Latin text at spaces (a word longer than the line is cut), CJK text
///   between any two characters, never starting a line with closing
///   punctuation (。、」）!? …) nor ending one with opening punctuation;
/// - honours "\n"; ends the last permitted line with "…" when text is left over;
/// - puts 1 px of leading between lines when the text has wide (CJK) characters;
/// - draws decomposed Latin / Vietnamese letters (NFD) with their precomposed
///   glyphs when a font has them (`Composition`), so NFD looks like NFC;
/// - takes each character from the first font of the chain that has it and
///   draws a box for a character no font has;
/// - shapes Arabic (`ArabicShaping`): each letter in the form its neighbours
///   call for, lam-alef as one ligature, decided in logical order;
/// - right-to-left lines (Hebrew, Arabic) are drawn right to left, with
///   left-to-right runs (numbers, Latin words) kept in order inside them: a
///   simplified bidi (first strong character decides).
///
/// The line table is allocated once (`capacity`); `layout` and `draw`
/// allocate nothing, so a notification can be laid out on every frame.
public final class TextLayout {
    public let capacity: Int
    private let lines: UnsafeMutablePointer<TextLine>

    /// Lines produced by the last `layout`.
    public private(set) var lineCount = 0
    /// True when the text did not fit in `maxLines` (or `capacity`) lines.
    public private(set) var truncated = false
    /// Baseline-to-baseline distance, from the fonts the text actually uses,
    /// plus `leading`.
    public private(set) var lineHeight = 0
    /// Blank rows between lines: 1 when the text has wide (CJK, kana,
    /// Hangul, emoji) characters, whose 16-px Unifont glyphs fill their
    /// whole cell and would touch the next line; else 0.
    public private(set) var leading = 0
    /// Pixels from a line's top to its baseline.
    public private(set) var ascent = 0
    /// The width the text was laid out for.
    public private(set) var maxWidth = 0
    /// The widest line.
    public private(set) var widestLine = 0
    /// True when the text has right-to-left letters (drawn in visual order).
    public private(set) var containsRightToLeft = false

    // Scratch for drawing right-to-left lines in visual order.
    private static let clusterCapacity = 512
    private let clusterStart: UnsafeMutablePointer<Int32>
    private let clusterEnd: UnsafeMutablePointer<Int32>
    private let clusterDirection: UnsafeMutablePointer<Int8>

    public init(capacity: Int = 128) {
        precondition(capacity > 0)
        self.capacity = capacity
        lines = .allocate(capacity: capacity)
        lines.initialize(repeating: TextLine(start: 0, end: 0, width: 0, ellipsis: false), count: capacity)
        clusterStart = .allocate(capacity: Self.clusterCapacity)
        clusterEnd = .allocate(capacity: Self.clusterCapacity)
        clusterDirection = .allocate(capacity: Self.clusterCapacity)
    }

    deinit {
        lines.deallocate()
        clusterStart.deallocate()
        clusterEnd.deallocate()
        clusterDirection.deallocate()
    }

    public func line(_ i: Int) -> TextLine {
        precondition(i >= 0 && i < lineCount, "line \(i) of \(lineCount)")
        return lines[i]
    }

    /// Total height of `count` lines (all by default): the leading goes
    /// between lines, not after the last.
    public func height(lines count: Int? = nil) -> Int {
        let n = count ?? lineCount
        return n > 0 ? n * lineHeight - leading : 0
    }

    /// How many lines fit in `rows` pixel rows (at least 1).
    public func linesFitting(in rows: Int) -> Int { max(1, (rows + leading) / max(1, lineHeight)) }

    // MARK: layout

    /// Wraps `text` (UTF-8 bytes) into lines at most `width` pixels wide and
    /// at most `maxLines` lines. The same bytes must be passed to `draw`.
    public func layout(_ text: UnsafeRawBufferPointer, fonts: FontChain, width: Int, maxLines: Int = .max) {
        let limit = max(1, min(maxLines, capacity))
        maxWidth = max(1, width)
        lineCount = 0
        truncated = false
        widestLine = 0
        containsRightToLeft = false
        var usedFonts: UInt32 = 0
        var wide = false
        let n = text.count

        var lineStart = 0
        var i = 0
        var lineWidth = 0
        var breakEnd = -1, breakNext = -1, breakWidth = 0      // last wrap opportunity on this line
        var prevStart = -1
        var prevBase: UInt32 = 0
        var prevWasSpace = false
        var stopped = false

        func resetLine(at start: Int) {
            lineStart = start
            i = start
            lineWidth = 0
            breakEnd = -1; breakNext = -1; breakWidth = 0
            prevStart = -1
            prevBase = 0
            prevWasSpace = false
        }

        /// Emits [start, end); returns false when the line table is full.
        func emit(_ start: Int, _ end: Int, _ w: Int) -> Bool {
            if lineCount == limit {
                truncated = true
                return false
            }
            lines[lineCount] = TextLine(start: start, end: end, width: w, ellipsis: false)
            lineCount += 1
            widestLine = max(widestLine, w)
            return true
        }

        while i < n && !stopped {
            let (end, base) = Self.cluster(text, at: i)
            if base == 0x0A || base == 0x0D || base == 0x2028 || base == 0x2029 {
                let e = prevWasSpace && breakEnd >= 0 ? breakEnd : i
                let w = prevWasSpace && breakEnd >= 0 ? breakWidth : lineWidth
                if !emit(lineStart, e, w) { stopped = true; break }
                resetLine(at: end)
                continue
            }
            let (w, mask) = Self.advance(text, i..<end, fonts: fonts, drawing: nil)
            usedFonts |= mask
            if CharacterClass.isRightToLeft(base) { containsRightToLeft = true }
            if CharacterClass.breaksAnywhere(base) { wide = true }
            if CharacterClass.isSpace(base) {
                if !prevWasSpace {
                    breakEnd = i
                    breakWidth = lineWidth
                }
                breakNext = end
                lineWidth += w
                prevWasSpace = true
                prevStart = i
                prevBase = base
                i = end
                continue
            }
            // A wrap opportunity before this cluster, between CJK characters.
            if prevStart >= 0 && !prevWasSpace
                && (CharacterClass.breaksAnywhere(base) || CharacterClass.breaksAnywhere(prevBase))
                && !CharacterClass.isClosing(base) && !CharacterClass.isOpening(prevBase) {
                breakEnd = i; breakNext = i; breakWidth = lineWidth
            } else if prevStart >= 0 && !prevWasSpace && (prevBase == 0x2D || prevBase == 0x2010 || prevBase == 0x2013 || prevBase == 0x2014)
                        && !CharacterClass.isClosing(base) {
                // after a hyphen or dash
                breakEnd = i; breakNext = i; breakWidth = lineWidth
            }
            if lineWidth + w > maxWidth && i > lineStart {
                if breakNext > lineStart && breakEnd > lineStart {
                    if !emit(lineStart, breakEnd, breakWidth) { stopped = true; break }
                    resetLine(at: breakNext)
                } else if breakNext > lineStart && breakEnd == lineStart {
                    // only spaces before: drop them
                    resetLine(at: breakNext)
                } else if CharacterClass.isClosing(base) && prevStart > lineStart {
                    // Kinsoku: take the previous character down with the punctuation.
                    let (pw, _) = Self.advance(text, lineStart..<prevStart, fonts: fonts, drawing: nil)
                    if !emit(lineStart, prevStart, pw) { stopped = true; break }
                    resetLine(at: prevStart)
                } else {
                    if !emit(lineStart, i, lineWidth) { stopped = true; break }
                    resetLine(at: i)
                }
                continue
            }
            lineWidth += w
            prevStart = i
            prevBase = base
            prevWasSpace = false
            i = end
        }
        if !stopped && lineStart < n {
            let e = prevWasSpace && breakEnd >= lineStart ? breakEnd : n
            let w = prevWasSpace && breakEnd >= lineStart ? breakWidth : lineWidth
            if !emit(lineStart, e, w) { stopped = true }
        }
        if stopped {
            // Is anything visible left? Trailing spaces and newlines don't count.
            var j = lines[lineCount - 1].end
            var more = false
            while j < n {
                let (end, base) = Self.cluster(text, at: j)
                if !(CharacterClass.isSpace(base) || base == 0x0A || base == 0x0D || CharacterClass.isInvisible(base)) { more = true; break }
                j = end
            }
            truncated = more
            if more { addEllipsis(text, fonts: fonts) }
        }
        let m = fonts.metrics(usedFonts: usedFonts)
        ascent = m.ascent
        leading = wide ? 1 : 0
        lineHeight = m.ascent + m.descent + leading
    }

    /// Shortens the last line so that it and an ellipsis fit.
    private func addEllipsis(_ text: UnsafeRawBufferPointer, fonts: FontChain) {
        let ew = Self.ellipsisWidth(fonts)
        let k = lineCount - 1
        var l = lines[k]
        if l.width + ew > maxWidth {
            var j = l.start, w = 0, keep = l.start, keepWidth = 0
            while j < l.end {
                let (end, base) = Self.cluster(text, at: j)
                let (cw, _) = Self.advance(text, j..<end, fonts: fonts, drawing: nil)
                if w + cw + ew > maxWidth { break }
                w += cw
                if !CharacterClass.isSpace(base) { keep = end; keepWidth = w }
                j = end
            }
            l.end = keep
            l.width = keepWidth
        }
        l.ellipsis = true
        lines[k] = l
        widestLine = 0
        for i in 0..<lineCount { widestLine = max(widestLine, lines[i].width + (lines[i].ellipsis ? ew : 0)) }
    }

    // MARK: drawing

    /// Draws lines `firstLine ..< firstLine + maxLines` of the last layout with
    /// the top of the first at `y`, aligned inside `[x, x + maxWidth)`.
    /// Returns the number of lines drawn.
    @discardableResult
    public func draw(_ text: UnsafeRawBufferPointer, fonts: FontChain, into fb: Framebuffer,
                     x: Int, y: Int, alignment: TextAlignment = .leading,
                     firstLine: Int = 0, maxLines: Int = .max, ink: Ink = .on) -> Int {
        guard firstLine < lineCount else { return 0 }
        let last = min(lineCount, firstLine + max(0, maxLines))
        let ew = Self.ellipsisWidth(fonts)
        var baseline = y + ascent
        for k in firstLine..<last {
            let l = lines[k]
            let total = l.width + (l.ellipsis ? ew : 0)
            let clusters = containsRightToLeft ? collectClusters(text, l) : 0
            let rightToLeft = clusters > 0 && paragraphIsRightToLeft(clusters)
            var pen = x
            switch alignment {
            case .leading: if rightToLeft { pen = x + maxWidth - total }
            case .center: pen = x + (maxWidth - total) / 2
            case .trailing: pen = x + maxWidth - total
            }
            if clusters == 0 {
                // Left-to-right only (or too long to reorder): logical order.
                let advanced = Self.draw(text, l.start..<l.end, fonts: fonts, into: fb, x: pen, baselineY: baseline, ink: ink)
                if l.ellipsis {
                    _ = Self.ellipsis(fonts) { Self.draw($0, 0..<$0.count, fonts: fonts, into: fb, x: pen + advanced, baselineY: baseline, ink: ink) }
                }
            } else {
                // The ellipsis ends the line: on the left of a right-to-left line.
                if l.ellipsis && rightToLeft {
                    pen += Self.ellipsis(fonts) { Self.draw($0, 0..<$0.count, fonts: fonts, into: fb, x: pen, baselineY: baseline, ink: ink) }
                }
                pen = drawVisualOrder(text, clusters: clusters, rightToLeft: rightToLeft, fonts: fonts, into: fb,
                                      x: pen, baselineY: baseline, ink: ink)
                if l.ellipsis && !rightToLeft {
                    _ = Self.ellipsis(fonts) { Self.draw($0, 0..<$0.count, fonts: fonts, into: fb, x: pen, baselineY: baseline, ink: ink) }
                }
            }
            baseline += lineHeight
        }
        return last - firstLine
    }

    // MARK: right-to-left

    /// Splits a line containing right-to-left letters into clusters with a
    /// direction each (1 right-to-left, 0 left-to-right, -1 neutral: spaces
    /// and punctuation). Returns 0 when the line has no right-to-left letter
    /// or more clusters than the scratch holds (then it is drawn in logical order).
    private func collectClusters(_ text: UnsafeRawBufferPointer, _ l: TextLine) -> Int {
        var n = 0
        var anyRTL = false
        var i = l.start
        while i < l.end {
            guard n < Self.clusterCapacity else { return 0 }
            let (end, base) = Self.cluster(text, at: i)
            let dir: Int8
            if CharacterClass.isRightToLeft(base) {
                dir = 1; anyRTL = true
            } else if CharacterClass.isSpace(base) || (base < 0x80 && !Self.isASCIIAlphanumeric(base))
                        || (base >= 0x2000 && base <= 0x206F) || (base >= 0x3000 && base <= 0x303F) {
                dir = -1
            } else {
                dir = 0
            }
            clusterStart[n] = Int32(i)
            clusterEnd[n] = Int32(end)
            clusterDirection[n] = dir
            n += 1
            i = end
        }
        if !anyRTL { return 0 }
        // Neutrals between two runs of the same direction take it; others take the paragraph's.
        let paragraph: Int8 = paragraphIsRightToLeft(n) ? 1 : 0
        var k = 0
        while k < n {
            if clusterDirection[k] != -1 { k += 1; continue }
            var j = k
            while j < n && clusterDirection[j] == -1 { j += 1 }
            let before: Int8 = k > 0 ? clusterDirection[k - 1] : paragraph
            let after: Int8 = j < n ? clusterDirection[j] : paragraph
            let resolved = before == after ? before : paragraph
            for m in k..<j { clusterDirection[m] = resolved }
            k = j
        }
        return n
    }

    /// The first strong cluster decides the line's direction.
    private func paragraphIsRightToLeft(_ n: Int) -> Bool {
        for k in 0..<n where clusterDirection[k] != -1 { return clusterDirection[k] == 1 }
        return false
    }

    @inline(__always)
    private static func isASCIIAlphanumeric(_ c: UInt32) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    /// Draws the collected clusters in visual order: runs of one direction,
    /// right-to-left runs reversed, and the runs themselves reversed in a
    /// right-to-left line. Returns the pen after the last cluster.
    private func drawVisualOrder(_ text: UnsafeRawBufferPointer, clusters n: Int, rightToLeft: Bool, fonts: FontChain,
                                 into fb: Framebuffer, x: Int, baselineY: Int, ink: Ink) -> Int {
        var pen = x
        func drawRun(_ a: Int, _ b: Int) {   // clusters a..<b, one direction
            if clusterDirection[a] == 1 {
                var k = b - 1
                while k >= a {
                    pen += Self.draw(text, Int(clusterStart[k])..<Int(clusterEnd[k]), fonts: fonts, into: fb, x: pen, baselineY: baselineY, ink: ink)
                    k -= 1
                }
            } else {
                pen += Self.draw(text, Int(clusterStart[a])..<Int(clusterEnd[b - 1]), fonts: fonts, into: fb, x: pen, baselineY: baselineY, ink: ink)
            }
        }
        if rightToLeft {
            var b = n
            while b > 0 {
                var a = b - 1
                while a > 0 && clusterDirection[a - 1] == clusterDirection[b - 1] { a -= 1 }
                drawRun(a, b)
                b = a
            }
        } else {
            var a = 0
            while a < n {
                var b = a + 1
                while b < n && clusterDirection[b] == clusterDirection[a] { b += 1 }
                drawRun(a, b)
                a = b
            }
        }
        return pen
    }

    // MARK: single lines

    /// The width of `text` drawn on one line (no wrapping; newlines ignored).
    public static func measure(_ text: UnsafeRawBufferPointer, fonts: FontChain) -> Int {
        advance(text, 0..<text.count, fonts: fonts, drawing: nil).width
    }

    /// Draws `bytes[range]` on one line with the pen at `x`; returns the advance.
    @discardableResult
    public static func draw(_ text: UnsafeRawBufferPointer, _ range: Range<Int>, fonts: FontChain, into fb: Framebuffer,
                            x: Int, baselineY: Int, ink: Ink = .on) -> Int {
        advance(text, range, fonts: fonts, drawing: (fb, x, baselineY, ink)).width
    }

    // MARK: internals

    /// The end of the grapheme-like cluster starting at `i` and its base scalar.
    @inline(__always)
    static func cluster(_ text: UnsafeRawBufferPointer, at i: Int) -> (end: Int, base: UInt32) {
        let (base, len) = UTF8Decoder.decode(text, at: i)
        var j = i + len
        if base == 0x0D && j < text.count && text[j] == 0x0A { return (j + 1, base) }
        if base == 0x0A || base == 0x0D { return (j, base) }
        var joinNext = false
        // Lam takes the alef after it into one ligature (لا): one cluster,
        // so no line break or reordering separates them.
        var alefJoins = base == 0x0644
        while j < text.count {
            let (s, l) = UTF8Decoder.decode(text, at: j)
            if CharacterClass.isExtending(s) || joinNext || (alefJoins && ArabicShaping.isLigatingAlef(s)) {
                if ArabicShaping.isLigatingAlef(s) { alefJoins = false }
                joinNext = s == 0x200D
                j += l
            } else {
                break
            }
        }
        return (j, base)
    }

    /// Walks the scalars of `range`, computing the advance (and the fonts
    /// used), and draws them when `drawing` is given. Measuring and drawing
    /// share this walk, so they always agree.
    @inline(__always)
    static func advance(_ text: UnsafeRawBufferPointer, _ range: Range<Int>, fonts: FontChain,
                        drawing: (fb: Framebuffer, x: Int, baseline: Int, ink: Ink)?) -> (width: Int, fonts: UInt32) {
        var pen = 0
        var lastBase = 0
        var mask: UInt32 = 0
        var i = range.lowerBound
        var afterJoiner = false
        var atClusterStart = true
        while i < range.upperBound {
            let (s, len) = UTF8Decoder.decode(text, at: i)
            i += len
            if s == 0x0A || s == 0x0D || CharacterClass.isInvisible(s) {
                atClusterStart = true
                continue
            }
            if CharacterClass.isIgnorableExtender(s) {
                afterJoiner = s == 0x200D
                continue
            }
            let isMark = CharacterClass.isExtending(s) && !atClusterStart && !afterJoiner
            afterJoiner = false
            atClusterStart = false
            if isMark {
                drawMark(s, fonts: fonts, drawing: drawing, pen: pen, lastBase: lastBase, mask: &mask)
                continue
            }
            var scalar: UInt32 = s == 0x09 ? 0x20 : s
            // Decomposed letters (NFD: "e" + U+0302 + U+0301) are drawn with
            // the precomposed glyph ("ế") when a font has it, as in NFC text.
            var composed: Composition.Result? = nil
            if i < range.upperBound && scalar >= 0x41 && Composition.markStarts(text, at: i) {
                let c = Composition.compose(scalar, text, from: i, to: range.upperBound, fonts: fonts)
                scalar = c.scalar
                i = c.next
                composed = c
            } else if ArabicShaping.isShapingCandidate(scalar) {
                // Arabic letters take the form their neighbours call for
                // (logical order, the whole text); an alef inside a lam-alef
                // ligature was drawn with the lam.
                switch ArabicShaping.shape(scalar, in: text, start: i - len, end: i, fonts: fonts) {
                case .draw(let shaped): scalar = shaped
                case .ligated: continue
                }
            }
            if let found = fonts.lookup(scalar) {
                mask |= 1 << UInt32(found.font)
                let g = found.glyph
                if let d = drawing {
                    d.fb.draw(g, of: fonts.fonts[found.font], x: d.x + pen, baselineY: d.baseline, ink: d.ink)
                }
                lastBase = pen
                pen += g.advance
            } else {
                let p = fonts.primary
                let w = CharacterClass.breaksAnywhere(scalar) ? 2 * p.defaultAdvance : p.defaultAdvance
                if let d = drawing {
                    d.fb.drawMissingGlyphBox(x: d.x + pen, baselineY: d.baseline, advance: w, ascent: p.ascent, ink: d.ink)
                }
                mask |= 1
                lastBase = pen
                pen += w
            }
            // Marks with no composite to take them stay overlaid on the base.
            if let c = composed {
                for k in 0..<c.leftoverCount {
                    drawMark(c.leftover[k], fonts: fonts, drawing: drawing, pen: pen, lastBase: lastBase, mask: &mask)
                }
            }
        }
        return (pen, mask)
    }

    /// Draws a combining mark over the base before it: zero-advance marks
    /// are positioned from the pen after the base; marks given a whole cell
    /// overlay the base's cell. A mark no font has is left out.
    @inline(__always)
    static func drawMark(_ s: UInt32, fonts: FontChain, drawing: (fb: Framebuffer, x: Int, baseline: Int, ink: Ink)?,
                         pen: Int, lastBase: Int, mask: inout UInt32) {
        guard let found = fonts.lookup(s) else { return }
        mask |= 1 << UInt32(found.font)
        if let d = drawing {
            let g = found.glyph
            let mx = g.advance == 0 ? pen : lastBase
            d.fb.draw(g, of: fonts.fonts[found.font], x: d.x + mx, baselineY: d.baseline, ink: d.ink)
        }
    }

    private static let horizontalEllipsis: [UInt8] = [0xE2, 0x80, 0xA6]
    private static let threeDots: [UInt8] = [0x2E, 0x2E, 0x2E]

    /// Calls `body` with "…" when a font of the chain has it, else "...".
    @inline(__always)
    static func ellipsis<R>(_ fonts: FontChain, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if fonts.lookup(0x2026) != nil {
            return horizontalEllipsis.withUnsafeBytes(body)
        }
        return threeDots.withUnsafeBytes(body)
    }

    static func ellipsisWidth(_ fonts: FontChain) -> Int {
        ellipsis(fonts) { advance($0, 0..<$0.count, fonts: fonts, drawing: nil).width }
    }
}

// MARK: - String conveniences

extension TextLayout {
    /// Lays out a String (its UTF-8 storage is used in place for native strings).
    public func layout(_ text: String, fonts: FontChain, width: Int, maxLines: Int = .max) {
        Self.withUTF8(text) { layout($0, fonts: fonts, width: width, maxLines: maxLines) }
    }

    /// Lays out bytes held in a Span.
    public func layout(_ text: Span<UInt8>, fonts: FontChain, width: Int, maxLines: Int = .max) {
        text.withUnsafeBytes { layout($0, fonts: fonts, width: width, maxLines: maxLines) }
    }

    /// Draws the last layout of `text` (the same String that was laid out).
    @discardableResult
    public func draw(_ text: String, fonts: FontChain, into fb: Framebuffer, x: Int, y: Int,
                     alignment: TextAlignment = .leading, firstLine: Int = 0, maxLines: Int = .max, ink: Ink = .on) -> Int {
        Self.withUTF8(text) {
            draw($0, fonts: fonts, into: fb, x: x, y: y, alignment: alignment, firstLine: firstLine, maxLines: maxLines, ink: ink)
        }
    }

    /// Width of a String on one line.
    public static func measure(_ text: String, fonts: FontChain) -> Int {
        withUTF8(text) { measure($0, fonts: fonts) }
    }

    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let r = text.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return r
        }
        var copy = text
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

extension Framebuffer {
    /// Draws one line of text with its pen at `x` and its baseline at
    /// `baselineY`; returns its width (logical order, no wrapping).
    @discardableResult
    public func drawText(_ text: String, fonts: FontChain, x: Int, baselineY: Int, ink: Ink = .on) -> Int {
        TextLayout.withUTF8(text) { TextLayout.draw($0, 0..<$0.count, fonts: fonts, into: self, x: x, baselineY: baselineY, ink: ink) }
    }

    /// Draws one line of text with its top-left at (x, y); returns its width.
    /// For wrapping, alignment and ellipsis use `TextLayout`.
    @discardableResult
    public func drawText(_ text: String, fonts: FontChain, x: Int, y: Int, ink: Ink = .on) -> Int {
        TextLayout.withUTF8(text) { bytes in
            var ascent = fonts.primary.ascent
            // Use the tallest font the text needs so its glyphs are not cut.
            let (_, mask) = TextLayout.advance(bytes, 0..<bytes.count, fonts: fonts, drawing: nil)
            ascent = fonts.metrics(usedFonts: mask).ascent
            return TextLayout.draw(bytes, 0..<bytes.count, fonts: fonts, into: self, x: x, baselineY: y + ascent, ink: ink)
        }
    }
}
