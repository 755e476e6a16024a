/// Compiles BDF glyphs into WristCore's binary font format (`.wcf`, read by
/// `Graphics.BitmapFont`; the layout is documented there and in docs/display.md).
public enum FontCompiler {
    public struct Options: Sendable {
        /// Family name stored in the header (32 bytes at most).
        public var name: String
        /// Characters to keep.
        public var subset: Subset
        /// Crop each glyph to its ink (smaller files; the metrics keep the position).
        public var crop: Bool

        public init(name: String, subset: Subset = .all, crop: Bool = true) {
            self.name = name
            self.subset = subset
            self.crop = crop
        }
    }

    public struct Report: Sendable, Equatable {
        public var glyphs: Int
        public var bytes: Int
        /// Subset code points that no input had.
        public var missing: Int
    }

    /// Merges the inputs (the first font that has a code point wins), keeps
    /// the subset, and writes the binary font. Metrics (ascent, descent, pixel
    /// size) come from the first input.
    public static func compile(_ fonts: [BDFFont], options: Options) throws(FontCompilerError) -> (bytes: [UInt8], report: Report) {
        guard let first = fonts.first else { throw FontCompilerError("no input fonts") }
        var chosen: [UInt32: BDFGlyph] = [:]
        for font in fonts {
            for g in font.glyphs where chosen[g.codepoint] == nil && options.subset.contains(g.codepoint) {
                chosen[g.codepoint] = options.crop ? g.croppedToInk() : g
            }
        }
        let codepoints = chosen.keys.sorted()
        guard !codepoints.isEmpty else { throw FontCompilerError("the subset selects no glyph of the inputs") }

        var bitmap: [UInt8] = []
        var records: [UInt8] = []
        var table: [UInt8] = []
        var acc: UInt8 = 0
        var nbits = 0
        for cp in codepoints {
            let g = chosen[cp]!
            guard g.advance >= 0 && g.advance <= 255, g.width <= 255, g.height <= 255,
                  (-128...127).contains(g.xOffset), (-128...127).contains(g.yOffset) else {
                throw FontCompilerError("glyph U+\(hex(cp)) has metrics outside the format's range")
            }
            let offset = bitmap.count
            guard offset < 1 << 24 else { throw FontCompilerError("bitmap area exceeds 16 MiB") }
            for row in g.rows {
                for lit in row {
                    acc = acc << 1 | (lit ? 1 : 0)
                    nbits += 1
                    if nbits == 8 { bitmap.append(acc); acc = 0; nbits = 0 }
                }
            }
            if nbits > 0 { bitmap.append(acc << UInt8(8 - nbits)); acc = 0; nbits = 0 }
            table += le32(cp)
            records += [UInt8(offset & 0xFF), UInt8((offset >> 8) & 0xFF), UInt8(offset >> 16),
                        UInt8(g.advance), UInt8(g.width), UInt8(g.height),
                        UInt8(bitPattern: Int8(g.xOffset)), UInt8(bitPattern: Int8(g.yOffset))]
        }
        let defaultAdvance = chosen[0x30]?.advance ?? mostCommonAdvance(chosen.values)
        var header = Array("WCF1".utf8)
        header += le16(1)
        header += le16(64)
        header += le32(UInt32(codepoints.count))
        header += le16(UInt16(clamping: first.pixelSize))
        header += le16(UInt16(bitPattern: Int16(clamping: first.ascent)))
        header += le16(UInt16(bitPattern: Int16(clamping: first.descent)))
        header += le16(UInt16(clamping: defaultAdvance))
        header += le32(UInt32(bitmap.count))
        header += [UInt8](repeating: 0, count: 8)
        var nameBytes = Array(options.name.utf8.prefix(32))
        // Do not cut a UTF-8 sequence in half.
        while let last = nameBytes.last, last & 0xC0 == 0x80 || (last >= 0xC0 && nameBytes.count == 32) { nameBytes.removeLast() }
        header += nameBytes + [UInt8](repeating: 0, count: 32 - nameBytes.count)
        precondition(header.count == 64)
        let bytes = header + table + records + bitmap
        let missing = options.subset.everything ? 0 : options.subset.count - codepoints.count
        return (bytes, Report(glyphs: codepoints.count, bytes: bytes.count, missing: missing))
    }

    static func mostCommonAdvance<C: Collection>(_ glyphs: C) -> Int where C.Element == BDFGlyph {
        var counts: [Int: Int] = [:]
        for g in glyphs { counts[g.advance, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 8
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
    }
    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
