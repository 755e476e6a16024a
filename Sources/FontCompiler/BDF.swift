/// One glyph read from a BDF file.
public struct BDFGlyph: Equatable, Sendable {
    public var name: String
    public var codepoint: UInt32
    /// Horizontal advance (DWIDTH x).
    public var advance: Int
    /// BBX: bitmap size and the offset of its lower-left corner from the origin.
    public var width: Int
    public var height: Int
    public var xOffset: Int
    public var yOffset: Int
    /// Rows top to bottom; each row `width` pixels (true = ink).
    public var rows: [[Bool]]

    public init(name: String, codepoint: UInt32, advance: Int, width: Int, height: Int,
                xOffset: Int, yOffset: Int, rows: [[Bool]]) {
        self.name = name
        self.codepoint = codepoint
        self.advance = advance
        self.width = width
        self.height = height
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.rows = rows
    }

    /// The glyph cropped to its ink (an empty glyph becomes 0 x 0).
    public func croppedToInk() -> BDFGlyph {
        var top = height, bottom = -1, left = width, right = -1
        for (y, row) in rows.enumerated() {
            for (x, lit) in row.enumerated() where lit {
                top = min(top, y); bottom = max(bottom, y)
                left = min(left, x); right = max(right, x)
            }
        }
        var g = self
        if bottom < 0 {
            g.width = 0; g.height = 0; g.xOffset = 0; g.yOffset = 0; g.rows = []
            return g
        }
        g.rows = rows[top...bottom].map { Array($0[left...right]) }
        g.width = right - left + 1
        g.height = bottom - top + 1
        g.xOffset = xOffset + left
        // yOffset is the bottom row's offset above the baseline.
        g.yOffset = yOffset + (height - 1 - bottom)
        return g
    }
}

/// A parsed BDF font (Glyph Bitmap Distribution Format 2.1).
public struct BDFFont: Sendable {
    public var family: String
    public var pixelSize: Int
    public var ascent: Int
    public var descent: Int
    public var glyphs: [BDFGlyph]
}

public struct FontCompilerError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public enum BDFParser {
    /// Parses BDF text. Glyphs with ENCODING -1 (unencoded) are skipped.
    public static func parse(_ text: String, fileName: String = "<bdf>") throws(FontCompilerError) -> BDFFont {
        var family = ""
        var pixelSize = 0
        var ascent: Int?
        var descent: Int?
        var boundingBox: (w: Int, h: Int, x: Int, y: Int)?
        var glyphs: [BDFGlyph] = []
        var sawStart = false

        var name = ""
        var encoding: Int?
        var advance: Int?
        var bbx: (w: Int, h: Int, x: Int, y: Int)?
        var rows: [[Bool]] = []
        var inBitmap = false
        var inChar = false

        var lineNumber = 0
        func fail(_ message: String) -> FontCompilerError {
            FontCompilerError("\(fileName):\(lineNumber): \(message)")
        }
        func ints(_ fields: [Substring], _ count: Int) throws(FontCompilerError) -> [Int] {
            guard fields.count >= count + 1 else { throw fail("\(fields.first ?? "") needs \(count) numbers") }
            var out: [Int] = []
            for f in fields[1...count] {
                guard let v = Int(f) else { throw fail("'\(f)' is not a number") }
                out.append(v)
            }
            return out
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if inBitmap {
                if line == "ENDCHAR" {
                    inBitmap = false
                    inChar = false
                    guard let enc = encoding else { throw fail("glyph \(name) has no ENCODING") }
                    guard let box = bbx else { throw fail("glyph \(name) has no BBX") }
                    guard rows.count == box.h else { throw fail("glyph \(name): \(rows.count) bitmap rows, BBX says \(box.h)") }
                    if enc >= 0 && enc <= 0x10FFFF {
                        let adv = advance ?? boundingBox?.w ?? box.w
                        glyphs.append(BDFGlyph(name: name, codepoint: UInt32(enc), advance: adv, width: box.w, height: box.h,
                                               xOffset: box.x, yOffset: box.y, rows: rows))
                    }
                    continue
                }
                guard let box = bbx else { throw fail("BITMAP before BBX") }
                let hexDigits = line.trimmingPrefixSpaces()
                var row = [Bool](repeating: false, count: box.w)
                var bit = 0
                for ch in hexDigits.utf8 {
                    guard let nibble = hexValue(ch) else { throw fail("bad hex digit in bitmap row '\(hexDigits)'") }
                    for k in 0..<4 where bit + k < box.w {
                        row[bit + k] = (nibble >> (3 - k)) & 1 != 0
                    }
                    bit += 4
                }
                guard bit >= box.w else { throw fail("bitmap row '\(hexDigits)' is shorter than \(box.w) pixels") }
                rows.append(row)
                continue
            }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let keyword = fields.first else { continue }
            switch keyword {
            case "STARTFONT": sawStart = true
            case "FONTBOUNDINGBOX":
                let v = try ints(fields, 4)
                boundingBox = (v[0], v[1], v[2], v[3])
            case "PIXEL_SIZE": pixelSize = try ints(fields, 1)[0]
            case "FONT_ASCENT": ascent = try ints(fields, 1)[0]
            case "FONT_DESCENT": descent = try ints(fields, 1)[0]
            case "FAMILY_NAME":
                family = String(line.dropFirst("FAMILY_NAME".count)).trimmingCharacters(in: " \"")
            case "STARTCHAR":
                inChar = true
                name = fields.dropFirst().joined(separator: " ")
                encoding = nil; advance = nil; bbx = nil; rows = []
            case "ENCODING" where inChar:
                encoding = try ints(fields, 1)[0]
            case "DWIDTH" where inChar:
                advance = try ints(fields, 2)[0]
            case "BBX" where inChar:
                let v = try ints(fields, 4)
                guard v[0] >= 0, v[1] >= 0 else { throw fail("negative BBX size") }
                bbx = (v[0], v[1], v[2], v[3])
            case "BITMAP" where inChar:
                inBitmap = true
            default:
                break
            }
        }
        guard sawStart else { throw FontCompilerError("\(fileName): not a BDF file (no STARTFONT)") }
        guard !inChar else { throw FontCompilerError("\(fileName): ends inside glyph \(name)") }
        let box = boundingBox ?? (0, 0, 0, 0)
        let a = ascent ?? (box.h + box.y)
        let d = descent ?? -box.y
        return BDFFont(family: family, pixelSize: pixelSize > 0 ? pixelSize : a + d, ascent: a, descent: d, glyphs: glyphs)
    }

    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }
}

extension Substring {
    func trimmingPrefixSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
