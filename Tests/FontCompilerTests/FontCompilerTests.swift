import FontCompiler
import Graphics
import Testing

/// A tiny BDF: "A" (5x7 cell with a blank column), a space, "é" with a
/// descender-free accent, a zero-width combining acute with negative offset,
/// and an unencoded glyph that must be skipped.
let fixture = """
    STARTFONT 2.1
    FONT -test-tiny-medium-r-normal--8-80-75-75-c-60-iso10646-1
    SIZE 8 75 75
    FONTBOUNDINGBOX 6 8 0 -1
    STARTPROPERTIES 4
    FAMILY_NAME "Tiny"
    PIXEL_SIZE 8
    FONT_ASCENT 7
    FONT_DESCENT 1
    ENDPROPERTIES
    CHARS 5
    STARTCHAR space
    ENCODING 32
    SWIDTH 750 0
    DWIDTH 6 0
    BBX 6 8 0 -1
    BITMAP
    00
    00
    00
    00
    00
    00
    00
    00
    ENDCHAR
    STARTCHAR A
    ENCODING 65
    SWIDTH 750 0
    DWIDTH 6 0
    BBX 6 8 0 -1
    BITMAP
    00
    20
    50
    88
    F8
    88
    88
    00
    ENDCHAR
    STARTCHAR uni0301
    ENCODING 769
    SWIDTH 0 0
    DWIDTH 0 0
    BBX 2 2 -4 5
    BITMAP
    40
    80
    ENDCHAR
    STARTCHAR unencoded
    ENCODING -1
    DWIDTH 6 0
    BBX 1 1 0 0
    BITMAP
    80
    ENDCHAR
    STARTCHAR uni4E00
    ENCODING 19968
    DWIDTH 12 0
    BBX 12 1 0 3
    BITMAP
    FFF0
    ENDCHAR
    ENDFONT

    """

@Suite("Font compiler")
struct FontCompilerTests {
    @Test("parses BDF glyphs and metrics, skipping unencoded glyphs")
    func parse() throws {
        let font = try BDFParser.parse(fixture)
        #expect(font.family == "Tiny")
        #expect(font.pixelSize == 8 && font.ascent == 7 && font.descent == 1)
        #expect(font.glyphs.map(\.codepoint) == [32, 65, 0x301, 0x4E00])
        let a = font.glyphs[1]
        #expect(a.width == 6 && a.height == 8 && a.yOffset == -1 && a.advance == 6)
        #expect(a.rows[1] == [false, false, true, false, false, false])
        #expect(a.rows[4] == [true, true, true, true, true, false])
    }

    @Test("cropping keeps every pixel in place")
    func crop() throws {
        let a = try BDFParser.parse(fixture).glyphs[1]
        let c = a.croppedToInk()
        #expect(c.width == 5 && c.height == 6)
        #expect(c.xOffset == 0 && c.yOffset == 0)   // bottom ink row is one above the cell's bottom (-1)
        #expect(c.rows[0] == [false, false, true, false, false])
        let space = try BDFParser.parse(fixture).glyphs[0].croppedToInk()
        #expect(space.width == 0 && space.height == 0 && space.advance == 6)
    }

    @Test("compiled bytes load in the runtime and draw the same pixels")
    func roundTrip() throws {
        let bdf = try BDFParser.parse(fixture)
        let (bytes, report) = try FontCompiler.compile([bdf], options: .init(name: "Tiny"))
        #expect(report.glyphs == 4)
        // Header: magic, version, header size, count, pixel size, ascent, descent, default advance.
        #expect(Array(bytes[0..<4]) == Array("WCF1".utf8))
        #expect(bytes[4] == 1 && bytes[6] == 64 && bytes[8] == 4 && bytes[12] == 8 && bytes[14] == 7 && bytes[16] == 1)
        #expect(bytes[18] == 6)
        let font = try BitmapFont(bytes: bytes)
        #expect(font.name == "Tiny" && font.glyphCount == 4)
        #expect(font.glyph(for: 0x42) == nil)
        let a = try #require(font.glyph(for: 65))
        #expect(a.advance == 6 && a.width == 5 && a.height == 6)
        let mark = try #require(font.glyph(for: 0x301))
        #expect(mark.advance == 0 && mark.xOffset == -4)

        // Draw "A" and compare with the BDF rows.
        let fb = Framebuffer(width: 8, height: 8)
        fb.draw(a, of: font, x: 0, baselineY: 7)
        let rows = bdf.glyphs[1].rows
        for y in 0..<8 {
            for x in 0..<6 {
                // BDF row r sits at baseline - (yoff + height) + r = 7 - 7 + r
                #expect(fb.pixel(x: x, y: y) == rows[y][x], "(\(x),\(y))")
            }
        }
        // A zero-advance mark is placed from the pen after its base.
        let fb2 = Framebuffer(width: 16, height: 8)
        fb2.drawText("A\u{0301}", fonts: FontChain(font), x: 0, y: 0)
        #expect(fb2.pixel(x: 3, y: 0) && fb2.pixel(x: 2, y: 1))
    }

    @Test("subsets: ranges, comments, charsets enumerated with iconv")
    func subsets() throws {
        let s = try Subset.parse("U+0041-U+0043, U+0061  # letters\n0x4E00\n")
        #expect(s.contains(0x41) && s.contains(0x43) && !s.contains(0x44) && s.contains(0x61) && s.contains(0x4E00))
        #expect(s.count == 5)
        let bdf = try BDFParser.parse(fixture)
        let (bytes, report) = try FontCompiler.compile([bdf], options: .init(name: "Tiny", subset: s))
        #expect(report.glyphs == 2 && report.missing == 3)
        let font = try BitmapFont(bytes: bytes)
        #expect(font.contains(65) && font.contains(0x4E00) && !font.contains(32))
        #expect(throws: FontCompilerError.self) { try Subset.parse("KLINGON") }

        let gb = try Charsets.gb2312()
        #expect(gb.count == 7445)   // 682 symbols + 6,763 hanzi
        #expect(gb.contains(0x4E00) && gb.contains(0x554A) && !gb.contains(0x4E0F))   // 一, 啊 in; 丏 not
        let jis = try Charsets.jisx0208(rows: Array(16...47))
        #expect(jis.count == 2965)   // level-1 kanji
        #expect(jis.contains(0x4E9C))   // 亜, the first
        let kana = try Charsets.jisx0208(rows: [4])
        #expect(kana.contains(0x3042) && kana.count == 83)   // hiragana row
        let big5 = try Charsets.big5Level1()
        #expect(big5.contains(0x570B) && big5.count > 5401)   // 國
    }

    @Test("malformed BDF is reported with its line")
    func errors() {
        let bad = fixture.replacingOccurrences(of: "BBX 6 8 0 -1\nBITMAP\n00\n20", with: "BBX 6 9 0 -1\nBITMAP\n00\n20")
        #expect(throws: FontCompilerError.self) { try BDFParser.parse(bad) }
        do {
            _ = try BDFParser.parse(bad)
        } catch {
            #expect(error.message.contains("glyph A: 8 bitmap rows, BBX says 9"))
        }
        #expect(throws: FontCompilerError.self) { try BDFParser.parse("hello") }
        #expect(throws: FontCompilerError.self) { try BDFParser.parse(fixture.replacingOccurrences(of: "F8\n", with: "ZZ\n")) }
        #expect(throws: FontCompilerError.self) {
            try FontCompiler.compile([try BDFParser.parse(fixture)], options: .init(name: "x", subset: try Subset.parse("U+0100")))
        }
    }

    @Test("the runtime rejects damaged font files")
    func runtimeValidation() throws {
        let (bytes, _) = try FontCompiler.compile([try BDFParser.parse(fixture)], options: .init(name: "Tiny"))
        #expect(throws: FontError.self) { try BitmapFont(bytes: Array(bytes.dropLast())) }
        var magic = bytes; magic[0] = 0x58
        #expect(throws: FontError.self) { try BitmapFont(bytes: magic) }
        var order = bytes
        // Swap the first two code points: the table is no longer ascending.
        for k in 0..<4 { order.swapAt(64 + k, 68 + k) }
        #expect(throws: FontError.self) { try BitmapFont(bytes: order) }
        var overrun = bytes
        overrun[64 + 16 + 2] = 0xFF   // first record's bitmap offset high byte
        #expect(throws: FontError.self) { try BitmapFont(bytes: overrun) }
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let r = rest.range(of: target) {
            result += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return result + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        guard !target.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return i..<(index(i, offsetBy: target.count)) }
            i = index(after: i)
        }
        return nil
    }
}
