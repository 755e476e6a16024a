import Graphics
import HAL
import LinuxHAL
import Testing

/// The shipped fonts, loaded once for all layout tests.
enum ShippedFonts {
    static var loader: FontLoader { FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent) }
    static let body: BitmapFont = try! loader.load(.body)
    static let small: BitmapFont = try! loader.load(.small)
    static let cjk: BitmapFont = try! loader.load(.cjk)
    static let chain = FontChain(body, cjk)
}

/// Lays `text` out and returns each line's text.
func wrap(_ text: String, width: Int = 128, maxLines: Int = .max, fonts: FontChain = ShippedFonts.chain,
          layout: TextLayout = TextLayout(capacity: 256)) -> [String] {
    layout.layout(text, fonts: fonts, width: width, maxLines: maxLines)
    let bytes = Array(text.utf8)
    return (0..<layout.lineCount).map { i in
        let l = layout.line(i)
        return String(decoding: bytes[l.start..<l.end], as: UTF8.self) + (l.ellipsis ? "…" : "")
    }
}

/// Scalars of `text` that no font in the chain has.
func missing(_ text: String, _ fonts: FontChain = ShippedFonts.chain) -> [String] {
    text.unicodeScalars.filter { s in
        !CharacterClass.isIgnorableExtender(s.value) && !CharacterClass.isInvisible(s.value) && s.value != 0x20 && s.value != 0x0A
            && fonts.lookup(s.value) == nil
    }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
}

@Suite("Fonts and text layout")
struct TextLayoutTests {
    @Test("the shipped fonts load from the package's Fonts/ and look glyphs up")
    func shippedFonts() throws {
        #expect(ShippedFonts.body.name == "Fixed 6x13")
        #expect(ShippedFonts.body.ascent == 11 && ShippedFonts.body.descent == 2)
        let a = try #require(ShippedFonts.body.glyph(for: 0x41))
        #expect(a.advance == 6)
        #expect(ShippedFonts.cjk.lineHeight == 16)
        for c: UInt32 in [0x4F60, 0x3042, 0x4E9C, 0xD55C, 0x1EBF, 0x1F600, 0x1F44D, 0x05D0, 0x0627, 0xFFFD] {
            #expect(ShippedFonts.chain.lookup(c) != nil, "U+\(String(c, radix: 16))")
        }
        #expect(ShippedFonts.chain.lookup(0x10FFFD) == nil)
        #expect(ShippedFonts.cjk.glyph(for: 0x4F60)?.advance == 16)
    }

    @Test("the search path honours an explicit directory and WRISTCORE_FONTS first")
    func searchPath() throws {
        let path = FontLoader.searchPath(explicit: "/opt/fonts", fontsVariable: "/a:/b",
                                         executablePath: "/usr/local/bin/wristcore", currentDirectory: "/home/pi/w")
        #expect(Array(path.prefix(5)) == ["/opt/fonts", "/a", "/b", "/usr/local/share/wristcore/fonts", "/home/pi/w/Fonts"])
        #expect(path.last! == FontLoader.packageFontsDirectory)
        #expect(FontLoader.searchPath(fontsVariable: nil, executablePath: nil, currentDirectory: nil).first == "./Fonts")
        let loader = FontLoader(searchPath: ["/nonexistent"], readFile: FileBytes.readIfPresent)
        #expect(throws: FontError.notFound(name: "nope.wcf", searched: ["/nonexistent"])) { try loader.load("nope.wcf") }
        do {
            _ = try loader.load("nope.wcf")
        } catch {
            #expect(error.description.contains("WRISTCORE_FONTS"))
        }
    }

    @Test("fonts come as bytes: the first directory holding the file wins; bad bytes and unreadable files name the path")
    func loadingFromBytes() throws {
        let body = try FileBytes.read(FontLoader.packageFontsDirectory + "/" + FontLoader.Shipped.body.rawValue)
        var asked: [String] = []
        let files: [String: [UInt8]] = ["/b/fixed-6x13.wcf": body, "/c/fixed-6x13.wcf": [0x00], "/b/bad.wcf": Array("WCF0".utf8)]
        let loader = FontLoader(searchPath: ["/a", "/b/", "/c"]) { path throws(HALError) in
            asked.append(path)
            return files[path]
        }
        #expect(try loader.load(.body).name == "Fixed 6x13")
        #expect(asked == ["/a/fixed-6x13.wcf", "/b/fixed-6x13.wcf"])
        do {
            _ = try loader.load("bad.wcf")
            Issue.record("bad bytes loaded")
        } catch {
            guard case .invalid(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.hasPrefix("/b/bad.wcf: "))
        }
        let locked = FontLoader(searchPath: ["/locked"]) { path throws(HALError) in
            throw HALError(operation: "open \(path)", errno: 13, reason: "Permission denied")
        }
        #expect(throws: FontError.unreadable(path: "/locked/x.wcf", reason: "Permission denied")) { try locked.load("x.wcf") }
        #expect(throws: FontError.unreadable(path: "/nowhere.wcf", reason: "no such file")) {
            try FontLoader(searchPath: [], readFile: FileBytes.readIfPresent).load(path: "/nowhere.wcf")
        }
    }

    @Test("English wraps at spaces")
    func english() {
        let lines = wrap("The quick brown fox jumps over the lazy dog")
        #expect(lines == ["The quick brown fox", "jumps over the lazy", "dog"])
        // A word longer than the line is cut.
        #expect(wrap("Supercalifragilisticexpialidocious!") == ["Supercalifragilistice", "xpialidocious!"])
        #expect(wrap("a\nb\n\nc") == ["a", "b", "", "c"])
        #expect(wrap("well-known hyphenation-example here", width: 72) == ["well-known", "hyphenation-", "example here"])
    }

    @Test("Chinese wraps per character and never starts a line with closing punctuation")
    func chinese() {
        let layout = TextLayout()
        let text = "你好世界这是一个测试。明天见！"
        let lines = wrap(text, layout: layout)
        // 16 px per hanzi: 8 fit, but "。" may not start line 2, so "试" moves down with it.
        #expect(lines == ["你好世界这是一个", "测试。明天见！"] || lines.first!.count <= 8)
        #expect(lines == ["你好世界这是一", "个测试。明天见！"] || lines == ["你好世界这是一个", "测试。明天见！"])
        let forced = wrap("一二三四五六七八。九")
        #expect(forced == ["一二三四五六七", "八。九"])
        for line in forced { #expect(!line.hasPrefix("。")) }
        #expect(missing(text).isEmpty)
        for i in 0..<layout.lineCount { #expect(layout.line(i).width <= 128) }
    }

    @Test("Japanese: kana and kanji, small kana and prolonged sound mark stay off line starts")
    func japanese() {
        let text = "こんにちは、世界。今日はとても良い天気ですね。コーヒーを飲みましょう！"
        #expect(missing(text).isEmpty)
        let lines = wrap(text)
        #expect(lines.count >= 4)
        for line in lines.dropFirst() {
            let first = line.unicodeScalars.first!.value
            #expect(!CharacterClass.isClosing(first), "line starts with \(line.prefix(1))")
        }
        #expect(lines.joined() == text)
    }

    @Test("Korean: Hangul syllables are all present and wrap")
    func korean() {
        let text = "안녕하세요 반갑습니다 오늘 회의는 세 시에 시작합니다"
        #expect(missing(text).isEmpty)
        let lines = wrap(text)
        // 16 px syllables, 6 px spaces: per-character wrap.
        #expect(lines == ["안녕하세요 반갑", "습니다 오늘 회의", "는 세 시에 시작", "합니다"])
        for l in lines { #expect(TextLayout.measure(l, fonts: ShippedFonts.chain) <= 128) }
    }

    @Test("Vietnamese: precomposed and combining forms, marks stay with their base")
    func vietnamese() {
        let text = "Tiếng Việt có dấu: Đường phố Hà Nội"
        #expect(missing(text).isEmpty)
        #expect(wrap(text) == ["Tiếng Việt có dấu:", "Đường phố Hà Nội"])
        let decomposed = "Vie\u{0323}\u{0302}t"
        let chain = ShippedFonts.chain
        #expect(TextLayout.measure(decomposed, fonts: chain) == TextLayout.measure("Viet", fonts: chain))
        // A line break never separates a base from its marks.
        let long = String(repeating: "e\u{0301}", count: 30)
        let layout = TextLayout()
        layout.layout(long, fonts: chain, width: 60)
        let bytes = Array(long.utf8)
        for i in 0..<layout.lineCount {
            let l = layout.line(i)
            #expect(bytes[l.start] == UInt8(ascii: "e"))
            #expect(l.end == bytes.count || bytes[l.end] == UInt8(ascii: "e"))
        }
        // Marks draw over the base: the decomposed word lights pixels above the x-height.
        let fb = Framebuffer(width: 64, height: 16)
        fb.drawText("e\u{0301}", fonts: chain, x: 0, y: 0)
        let plain = Framebuffer(width: 64, height: 16)
        plain.drawText("e", fonts: chain, x: 0, y: 0)
        #expect(MonoPicture(fb) != MonoPicture(plain))
        #expect(MonoPicture(fb).maxX < 6)
    }

    @Test("emoji come from the fallback; modifiers and ZWJ sequences stay together")
    func emoji() {
        let chain = ShippedFonts.chain
        #expect(missing("😀👍🎉🚀").isEmpty)
        #expect(TextLayout.measure("👍🏽", fonts: chain) == TextLayout.measure("👍", fonts: chain))
        #expect(TextLayout.measure("❤️", fonts: chain) == TextLayout.measure("❤", fonts: chain))
        let family = "👨‍👩‍👧"
        let lines = wrap("ab " + family + family, width: 60)
        for l in lines { #expect(!l.hasPrefix("\u{200D}")) }
        #expect(lines.joined().unicodeScalars.count == ("ab" + family + family).unicodeScalars.count)
    }

    @Test("invalid UTF-8 draws U+FFFD and never crashes")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x48, 0xFF, 0x49, 0xE2, 0x82, 0x20, 0xED, 0xA0, 0x80, 0x4F, 0x4B, 0xF0]
        let layout = TextLayout()
        let fb = Framebuffer(width: 128, height: 64)
        bytes.withUnsafeBytes { raw in
            layout.layout(raw, fonts: ShippedFonts.chain, width: 128)
            layout.draw(raw, fonts: ShippedFonts.chain, into: fb, x: 0, y: 0)
            // H FFFD I FFFD space FFFD FFFD FFFD O K FFFD: 10 glyphs of 6 px + a space
            #expect(TextLayout.measure(raw, fonts: ShippedFonts.chain) == 11 * 6)
        }
        #expect(layout.lineCount == 1)
        #expect(fb.storage.contains { $0 != 0 })
    }

    @Test("a 2,000-character message is cut with an ellipsis, or laid out in full")
    func longMessage() {
        var text = ""
        let words = ["notification", "from", "the", "phone", "über", "Straße", "你好", "世界", "😀", "ok."]
        var i = 0
        while text.unicodeScalars.count < 2000 { text += words[i % words.count] + " "; i += 1 }
        let layout = TextLayout(capacity: 512)
        layout.layout(text, fonts: ShippedFonts.chain, width: 128, maxLines: 4)
        #expect(layout.lineCount == 4)
        #expect(layout.truncated)
        #expect(layout.line(3).ellipsis)
        // 16-px Unifont lines plus 1 px of leading (the text has hanzi).
        #expect(layout.lineHeight == 17 && layout.leading == 1)
        let fb = Framebuffer(width: 128, height: 64)
        layout.draw(text, fonts: ShippedFonts.chain, into: fb, x: 0, y: 0)
        #expect(layout.widestLine <= 128)

        layout.layout(text, fonts: ShippedFonts.chain, width: 128)
        #expect(!layout.truncated)
        #expect(layout.lineCount > 80 && layout.lineCount < 512)
        // Every non-space byte belongs to exactly one line, in order.
        let bytes = Array(text.utf8)
        var covered = [Bool](repeating: false, count: bytes.count)
        var previousEnd = 0
        for k in 0..<layout.lineCount {
            let l = layout.line(k)
            #expect(l.start >= previousEnd)
            #expect(l.width <= 128)
            for j in l.start..<l.end { covered[j] = true }
            previousEnd = l.end
        }
        for j in bytes.indices where bytes[j] != 0x20 { #expect(covered[j], "byte \(j) lost") }
    }

    @Test("an empty message gives no lines and draws nothing")
    func empty() {
        let layout = TextLayout()
        layout.layout("", fonts: ShippedFonts.chain, width: 128)
        #expect(layout.lineCount == 0 && !layout.truncated)
        let fb = Framebuffer(width: 128, height: 64)
        fb.clearDirty()
        #expect(layout.draw("", fonts: ShippedFonts.chain, into: fb, x: 0, y: 0) == 0)
        #expect(!fb.isDirty)
        #expect(TextLayout.measure("", fonts: ShippedFonts.chain) == 0)
        #expect(wrap("   ") == [""])
    }

    @Test("right-to-left text lays out and draws without crashing")
    func rightToLeft() {
        let text = "שלום עולם مرحبا بالعالم"
        #expect(missing(text).isEmpty)
        let lines = wrap(text, width: 64)
        #expect(lines.count >= 2)
        let fb = Framebuffer(width: 128, height: 64)
        let layout = TextLayout()
        layout.layout(text, fonts: ShippedFonts.chain, width: 128)
        layout.draw(text, fonts: ShippedFonts.chain, into: fb, x: 0, y: 0, alignment: .trailing)
        #expect(fb.storage.contains { $0 != 0 })
    }

    @Test("right-to-left lines are drawn right to left, numbers and Latin keep their order")
    func rightToLeftOrder() {
        let chain = ShippedFonts.chain
        let alef = "\u{05D0}", bet = "\u{05D1}"
        func picture(_ text: String) -> (MonoPicture, Int) {
            let fb = Framebuffer(width: 128, height: 16)
            let layout = TextLayout()
            layout.layout(text, fonts: chain, width: 128)
            layout.draw(text, fonts: chain, into: fb, x: 0, y: 0)
            return (MonoPicture(fb), layout.ascent)
        }
        let w = TextLayout.measure(alef, fonts: chain)
        let sp = TextLayout.measure(" ", fonts: chain), d = TextLayout.measure("1", fonts: chain)
        // "אב" (alef then bet, logically): bet on the left, alef on the right, right-aligned.
        let (hebrew, a1) = picture(alef + bet)
        let manual = Framebuffer(width: 128, height: 16)
        manual.drawText(bet, fonts: chain, x: 128 - 2 * w, baselineY: a1)
        manual.drawText(alef, fonts: chain, x: 128 - w, baselineY: a1)
        #expect(hebrew == MonoPicture(manual))
        // A number inside Hebrew keeps its digit order: "א 12 ב" shows "ב 12 א".
        let (mixed, a2) = picture(alef + " 12 " + bet)
        let manual2 = Framebuffer(width: 128, height: 16)
        var pen = 128 - (2 * w + 2 * sp + 2 * d)
        manual2.drawText(bet, fonts: chain, x: pen, baselineY: a2); pen += w + sp
        manual2.drawText("12", fonts: chain, x: pen, baselineY: a2); pen += 2 * d + sp
        manual2.drawText(alef, fonts: chain, x: pen, baselineY: a2)
        #expect(mixed == MonoPicture(manual2))
        // Left-to-right text with a Hebrew word: only the word is reversed.
        let (latin, a3) = picture("A " + alef + bet)
        let manual3 = Framebuffer(width: 128, height: 16)
        manual3.drawText("A ", fonts: chain, x: 0, baselineY: a3)
        manual3.drawText(bet, fonts: chain, x: d + sp, baselineY: a3)
        manual3.drawText(alef, fonts: chain, x: d + sp + w, baselineY: a3)
        #expect(latin == MonoPicture(manual3))
    }

    @Test("measured width centres text")
    func centring() {
        let chain = ShippedFonts.chain
        #expect(TextLayout.measure("Hi", fonts: chain) == 12)
        let layout = TextLayout()
        layout.layout("Hi", fonts: chain, width: 128)
        let fb = Framebuffer(width: 128, height: 16)
        layout.draw("Hi", fonts: chain, into: fb, x: 0, y: 0, alignment: .center)
        let pic = MonoPicture(fb)
        // The pen starts at (128 - 12) / 2 = 58; "H" has ink from its first column.
        #expect(pic.minX >= 58 && pic.maxX < 70)
        #expect(abs((pic.minX + pic.maxX) - 127) <= 3)
    }

    @Test("a character no font has draws a visible box")
    func missingGlyphBox() {
        let fb = Framebuffer(width: 32, height: 16)
        let w = fb.drawText("\u{E000}", fonts: ShippedFonts.chain, x: 0, y: 0)
        #expect(w == ShippedFonts.body.defaultAdvance)
        let pic = MonoPicture(fb)
        #expect(pic.count >= 10)
        #expect(pic.maxX - pic.minX >= 3)
        // A box: its top and bottom rows are lines, its middle is hollow.
        #expect(fb.pixel(x: pic.minX + 2, y: pic.minY) && !fb.pixel(x: pic.minX + 2, y: pic.minY + 2))
    }

    @Test("ellipsis is added on overflow and fits the width")
    func ellipsis() {
        let lines = wrap("one two three four five six seven eight nine ten eleven twelve", width: 60, maxLines: 2)
        #expect(lines.count == 2)
        #expect(lines[1].hasSuffix("…"))
        let layout = TextLayout()
        layout.layout("one two three four five six seven eight nine ten eleven twelve", fonts: ShippedFonts.chain, width: 60, maxLines: 2)
        #expect(layout.widestLine <= 60)
        // Exactly filling the lines leaves no ellipsis.
        #expect(wrap("one two", width: 60, maxLines: 1) == ["one two"])
    }
}

/// Lit-pixel statistics of a framebuffer (test helper).
struct MonoPicture: Equatable, CustomStringConvertible {
    var description: String { "\(count) lit pixels in x \(minX)...\(maxX)" }
    var bits: [Bool]
    var width: Int
    init(_ fb: Framebuffer) {
        width = fb.width
        bits = []
        for y in 0..<fb.height { for x in 0..<fb.width { bits.append(fb.pixel(x: x, y: y)) } }
    }
    var count: Int { bits.filter { $0 }.count }
    var xs: [Int] { bits.indices.filter { bits[$0] }.map { $0 % width } }
    var ys: [Int] { bits.indices.filter { bits[$0] }.map { $0 / width } }
    var minX: Int { xs.min() ?? -1 }
    var maxX: Int { xs.max() ?? -1 }
    var minY: Int { ys.min() ?? -1 }
}
