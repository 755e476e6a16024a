import Graphics
import Testing

/// Draws `text` wrapped to `width` and returns the picture.
private func render(_ text: String, fonts: FontChain, width: Int = 124, height: Int = 64) -> MonoPicture {
    let layout = TextLayout()
    layout.layout(text, fonts: fonts, width: width)
    let fb = Framebuffer(width: 128, height: height)
    layout.draw(text, fonts: fonts, into: fb, x: 0, y: 0)
    return MonoPicture(fb)
}

/// True when row `y` of the picture has no lit pixel.
private func rowIsBlank(_ p: MonoPicture, _ y: Int) -> Bool {
    !p.bits[(y * p.width)..<((y + 1) * p.width)].contains(true)
}

@Suite("Text: decomposed Vietnamese, CJK leading, Arabic")
struct TextScriptTests {
    static let small = FontChain(ShippedFonts.small, ShippedFonts.cjk)

    // The same sentence precomposed (NFC) and decomposed (NFD, written out).
    static let nfc = "Tiếng Việt: Chúc mừng năm mới, hẹn gặp lại!"
    static let nfd = "Tie\u{0302}\u{0301}ng Vie\u{0323}\u{0302}t: Chu\u{0301}c mu\u{031B}\u{0300}ng na\u{0306}m mo\u{031B}\u{0301}i, "
        + "he\u{0323}n ga\u{0323}\u{0306}p la\u{0323}i!"

    @Test("Vietnamese: NFC and NFD of the same sentence draw the same pixels, in every font chain")
    func vietnameseNFD() {
        // The two spellings are canonically equivalent but not the same bytes.
        #expect(Self.nfc == Self.nfd)
        #expect(Array(Self.nfc.utf8) != Array(Self.nfd.utf8))
        for chain in [ShippedFonts.chain, Self.small] {
            for width in [124, 60] {
                #expect(wrap(Self.nfc, width: width, fonts: chain).count == wrap(Self.nfd, width: width, fonts: chain).count)
                #expect(render(Self.nfd, fonts: chain, width: width) == render(Self.nfc, fonts: chain, width: width),
                        "width \(width), \(chain.primary.name)")
            }
            #expect(TextLayout.measure(Self.nfd, fonts: chain) == TextLayout.measure(Self.nfc, fonts: chain))
        }
    }

    @Test("NFD: marks in non-canonical order still compose; marks with no composite stay overlaid")
    func compositionEdges() {
        let chain = ShippedFonts.chain
        func single(_ s: String) -> MonoPicture {
            let fb = Framebuffer(width: 32, height: 16)
            fb.drawText(s, fonts: chain, x: 0, y: 0)
            return MonoPicture(fb)
        }
        // ệ: dot below (class 220) and circumflex (230) in either order.
        #expect(single("e\u{0302}\u{0323}") == single("ệ"))
        #expect(single("e\u{0323}\u{0302}") == single("ệ"))
        // ặ (a + breve + dot below), ờ (o + horn + grave), Ư, đ stays as is.
        #expect(single("a\u{0306}\u{0323}") == single("ặ"))
        #expect(single("o\u{031B}\u{0300}") == single("ờ"))
        #expect(single("U\u{031B}") == single("Ư"))
        // Latin-1 and Extended-A: é, ñ, ç, ő, ž.
        for (d, c) in [("e\u{0301}", "é"), ("n\u{0303}", "ñ"), ("c\u{0327}", "ç"), ("o\u{030B}", "ő"), ("z\u{030C}", "ž")] {
            #expect(single(d) == single(c), "\(c)")
        }
        // q + acute has no precomposed letter: the mark is drawn over the q.
        #expect(single("q\u{0301}") != single("q"))
        #expect(TextLayout.measure("q\u{0301}", fonts: chain) == TextLayout.measure("q", fonts: chain))
        // A composite plus a mark it cannot take: ế + dot below keeps the dot.
        #expect(single("e\u{0302}\u{0301}\u{0323}") != single("ế"))
        #expect(single("e\u{0302}\u{0301}\u{0323}").count > single("ế").count)
    }

    @Test("CJK lines get 1 px of leading: a blank row between two lines; Latin keeps its pitch")
    func cjkLeading() {
        let chain = ShippedFonts.chain
        let layout = TextLayout()
        // Two lines of 8 hanzi whose strokes reach the top and bottom rows of the cell.
        let text = "妈妈：晚饭好了，快回家吧！今天做了红烧肉"
        layout.layout(text, fonts: chain, width: 128)
        #expect(layout.lineCount >= 2)
        #expect(layout.leading == 1)
        #expect(layout.lineHeight == 17)
        #expect(layout.height(lines: 2) == 33)
        #expect(layout.linesFitting(in: 32) == 1 && layout.linesFitting(in: 33) == 2 && layout.linesFitting(in: 50) == 3)
        let fb = Framebuffer(width: 128, height: 64)
        layout.draw(text, fonts: chain, into: fb, x: 0, y: 0)
        let p = MonoPicture(fb)
        // Line 1 has ink in its last cell row (15); row 16 is blank; line 2 starts at row 17.
        #expect(!rowIsBlank(p, 15))
        #expect(rowIsBlank(p, 16))
        #expect(!rowIsBlank(p, 18))
        #expect(p.minY >= 0)

        // Latin text: no leading, 13-px lines as before.
        layout.layout("The quick brown fox jumps over the lazy dog", fonts: chain, width: 128)
        #expect(layout.leading == 0 && layout.lineHeight == 13)
        #expect(layout.height(lines: 2) == 26)
    }

    @Test("Arabic is drawn unjoined: the shipped fonts have no presentation forms, so each letter is its isolated glyph, right to left")
    func arabicUnjoined() {
        let chain = ShippedFonts.chain
        // No font has the contextual forms (U+FB50-FDFF, U+FE70-FEFF); if this
        // fails, the fonts were rebuilt with them and shaping can be added.
        let large = try! ShippedFonts.loader.load(.large)
        for font in [ShippedFonts.body, ShippedFonts.small, large, ShippedFonts.cjk] {
            for c: UInt32 in 0xFB50...0xFDFF { #expect(!font.contains(c), "\(font.name) U+\(String(c, radix: 16))") }
            for c: UInt32 in 0xFE70...0xFEFF where c != 0xFEFF { #expect(!font.contains(c), "\(font.name) U+\(String(c, radix: 16))") }
        }
        // "سلام" (seen, lam, alef, meem) is the four nominal glyphs from the right edge leftwards.
        let letters: [UInt32] = [0x0633, 0x0644, 0x0627, 0x0645]
        let word = String(String.UnicodeScalarView(letters.map { Unicode.Scalar($0)! }))
        #expect(missing(word).isEmpty)
        let layout = TextLayout()
        layout.layout(word, fonts: chain, width: 128)
        let fb = Framebuffer(width: 128, height: 16)
        layout.draw(word, fonts: chain, into: fb, x: 0, y: 0)
        let manual = Framebuffer(width: 128, height: 16)
        var right = 128
        for c in letters {
            let g = chain.lookup(c)!
            right -= g.glyph.advance
            manual.draw(g.glyph, of: chain.fonts[g.font], x: right, baselineY: layout.ascent)
        }
        #expect(MonoPicture(fb) == MonoPicture(manual))
    }
}
