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

    @Test("the fallback font has the Arabic presentation forms; the Latin fonts have none")
    func arabicPresentationForms() throws {
        // Forms-B: every letter's forms and the lam-alef ligatures (U+FE75 is
        // unassigned, U+FEFF is the byte order mark); Forms-A: the Persian
        // letters, alef wasla, alef maksura's initial and medial forms.
        for c: UInt32 in 0xFE70...0xFEFC where c != 0xFE75 {
            #expect(ShippedFonts.cjk.contains(c), "U+\(String(c, radix: 16))")
        }
        for range: ClosedRange<UInt32> in [0xFB50...0xFB51, 0xFB56...0xFB59, 0xFB7A...0xFB7D, 0xFB8A...0xFB8B,
                                           0xFB8E...0xFB95, 0xFBE8...0xFBE9, 0xFBFC...0xFBFF] {
            for c in range { #expect(ShippedFonts.cjk.contains(c), "U+\(String(c, radix: 16))") }
        }
        let large = try ShippedFonts.loader.load(.large)
        for font in [ShippedFonts.body, ShippedFonts.small, large] {
            for c: UInt32 in 0xFB50...0xFDFF { #expect(!font.contains(c), "\(font.name) U+\(String(c, radix: 16))") }
            for c: UInt32 in 0xFE70...0xFEFF { #expect(!font.contains(c), "\(font.name) U+\(String(c, radix: 16))") }
        }
    }

    @Test("Arabic is joined: سلام is seen initial, lam-alef final, meem isolated, from the right edge leftwards")
    func arabicJoined() {
        let chain = ShippedFonts.chain
        let word = "\u{0633}\u{0644}\u{0627}\u{0645}"
        #expect(missing(word).isEmpty)
        let layout = TextLayout()
        layout.layout(word, fonts: chain, width: 128)
        #expect(layout.widestLine == 24, "three glyphs: the lam and its alef are one")
        #expect(TextLayout.measure(word, fonts: chain) == 24)
        let fb = Framebuffer(width: 128, height: 16)
        layout.draw(word, fonts: chain, into: fb, x: 0, y: 0)
        let manual = Framebuffer(width: 128, height: 16)
        var right = 128
        for c: UInt32 in [0xFEB3, 0xFEFC, 0xFEE1] {
            let g = chain.lookup(c)!
            right -= g.glyph.advance
            manual.draw(g.glyph, of: chain.fonts[g.font], x: right, baselineY: layout.ascent)
        }
        #expect(MonoPicture(fb) == MonoPicture(manual))
        // Not the isolated letters any more.
        let unjoined = Framebuffer(width: 128, height: 16)
        right = 128
        for c: UInt32 in [0x0633, 0x0644, 0x0627, 0x0645] {
            let g = chain.lookup(c)!
            right -= g.glyph.advance
            unjoined.draw(g.glyph, of: chain.fonts[g.font], x: right, baselineY: layout.ascent)
        }
        #expect(MonoPicture(fb) != MonoPicture(unjoined))
    }

    @Test("a word too long for a line is cut between letters, never between a lam and its alef")
    func lamAlefIsNeverSplit() {
        // "سلاسلاسلا..." (seen, lam, alef, repeated): wrapped at every width.
        let word = String(repeating: "\u{0633}\u{0644}\u{0627}", count: 12)
        let layout = TextLayout(capacity: 64)
        let bytes = Array(word.utf8)
        for width in 8...128 {
            layout.layout(word, fonts: ShippedFonts.chain, width: width)
            for k in 0..<layout.lineCount {
                let l = layout.line(k)
                let text = String(decoding: bytes[l.start..<l.end], as: UTF8.self)
                #expect(!text.unicodeScalars.starts(with: ["\u{0627}"]), "width \(width), line \(k) starts with the alef")
                #expect(text.unicodeScalars.last != "\u{0644}", "width \(width), line \(k) ends with the lam")
                #expect(l.width <= width)
            }
        }
    }

    @Test("mixed Arabic and Latin: the Latin run keeps its order and the Arabic word is joined")
    func mixedArabicLatin() {
        let chain = ShippedFonts.chain
        // "WristCore مرحبا": a left-to-right line with an Arabic word after the Latin one.
        let text = "Hi \u{0645}\u{0631}\u{062D}\u{0628}\u{0627}"
        let layout = TextLayout()
        layout.layout(text, fonts: chain, width: 128)
        let fb = Framebuffer(width: 128, height: 16)
        layout.draw(text, fonts: chain, into: fb, x: 0, y: 0)
        // By hand: "Hi " in the body font, then meem initial, reh final,
        // hah initial, beh medial, alef final, right to left.
        let manual = Framebuffer(width: 128, height: 16)
        var pen = manual.drawText("Hi ", fonts: chain, x: 0, baselineY: layout.ascent)
        for c: UInt32 in [0xFE8E, 0xFE92, 0xFEA3, 0xFEAE, 0xFEE3] {
            let g = chain.lookup(c)!
            manual.draw(g.glyph, of: chain.fonts[g.font], x: pen, baselineY: layout.ascent)
            pen += g.glyph.advance
        }
        #expect(MonoPicture(fb) == MonoPicture(manual))
    }
}
