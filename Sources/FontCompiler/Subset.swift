#if canImport(Glibc)
import Glibc
#endif

/// Which characters go into a compiled font.
///
/// A subset is a union of items, each one of:
/// - a code point or range: `U+2026`, `U+0020-U+007E`, `0400-04FF`;
/// - a legacy character set, enumerated through iconv so the list is exactly
///   the standard's: `GB2312`, `JISX0208` (all), `JISX0208-L1` (non-kanji rows
///   1-8 and level-1 kanji rows 16-47), `BIG5-L1` (Big5 frequently used
///   hanzi A440-C67E and symbols A140-A3BF);
/// - `all`: every glyph of the inputs.
public struct Subset: Sendable, Equatable {
    public private(set) var everything = false
    /// Sorted, merged, inclusive ranges.
    public private(set) var ranges: [ClosedRange<UInt32>] = []

    public init() {}

    public static var all: Subset { var s = Subset(); s.everything = true; return s }

    public func contains(_ c: UInt32) -> Bool {
        if everything { return true }
        var lo = 0, hi = ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if ranges[mid].contains(c) { return true }
            if c < ranges[mid].lowerBound { hi = mid - 1 } else { lo = mid + 1 }
        }
        return false
    }

    /// Number of code points (not counting `all`).
    public var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 } }

    public mutating func insert(_ r: ClosedRange<UInt32>) {
        ranges.append(r)
        normalize()
    }

    public mutating func insert(_ scalars: [UInt32]) {
        var runs: [ClosedRange<UInt32>] = []
        for c in Set(scalars).sorted() {
            if let last = runs.last, c == last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...c
            } else {
                runs.append(c...c)
            }
        }
        ranges += runs
        normalize()
    }

    private mutating func normalize() {
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for x in ranges {
            if let last = merged.last, x.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, x.upperBound)
            } else {
                merged.append(x)
            }
        }
        ranges = merged
    }

    /// Adds one item of the syntax described on the type.
    public mutating func add(_ item: String) throws(FontCompilerError) {
        let spec = item.trimmingCharacters(in: " ")
        switch spec.uppercased() {
        case "ALL": everything = true
        case "GB2312": insert(try Charsets.gb2312())
        case "JISX0208": insert(try Charsets.jisx0208(rows: Array(1...94)))
        case "JISX0208-L1": insert(try Charsets.jisx0208(rows: Array(1...8) + Array(16...47)))
        case "BIG5-L1": insert(try Charsets.big5Level1())
        default:
            let parts = spec.split(separator: "-", maxSplits: 1).map { String($0) }
            guard let a = Self.parseCodepoint(parts[0]) else { throw FontCompilerError("subset item '\(item)' is not a code point, range or known charset") }
            let b = parts.count == 2 ? Self.parseCodepoint(parts[1]) : a
            guard let b, a <= b, b <= 0x10FFFF else { throw FontCompilerError("subset range '\(item)' is invalid") }
            insert(a...b)
        }
    }

    /// Parses a subset file or argument: items separated by commas, spaces or
    /// newlines; `#` starts a comment.
    public static func parse(_ text: String) throws(FontCompilerError) -> Subset {
        var s = Subset()
        for line in text.split(separator: "\n") {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for item in content.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) where !item.isEmpty {
                try s.add(String(item))
            }
        }
        return s
    }

    static func parseCodepoint(_ s: String) -> UInt32? {
        var t = Substring(s.trimmingCharacters(in: " "))
        if t.hasPrefix("U+") || t.hasPrefix("u+") { t = t.dropFirst(2) } else if t.hasPrefix("0x") { t = t.dropFirst(2) }
        return UInt32(t, radix: 16)
    }
}

/// Legacy character sets enumerated through the C library's iconv.
public enum Charsets {
    /// Converts each 2-byte sequence with iconv; unmapped ones are skipped.
    static func enumerate(encoding: String, leads: ClosedRange<UInt8>, trails: [ClosedRange<UInt8>]) throws(FontCompilerError) -> [UInt32] {
        let cd = iconv_open("UTF-32LE", encoding)
        guard let cd, cd != iconv_t(bitPattern: -1) else {
            throw FontCompilerError("iconv does not know \(encoding) (glibc's gconv modules are needed)")
        }
        defer { iconv_close(cd) }
        var out: [UInt32] = []
        var input: [CChar] = [0, 0]
        var output = [UInt32](repeating: 0, count: 4)
        for lead in leads {
            for range in trails {
                for trail in range {
                    input[0] = CChar(bitPattern: lead)
                    input[1] = CChar(bitPattern: trail)
                    let converted: Int = input.withUnsafeMutableBufferPointer { inBuf in
                        output.withUnsafeMutableBytes { outBuf in
                            var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                            var inLeft = 2
                            var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress!.assumingMemoryBound(to: CChar.self)
                            var outLeft = outBuf.count
                            _ = iconv(cd, nil, nil, nil, nil)   // reset shift state
                            let r = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                            if r == -1 || inLeft != 0 { return 0 }
                            return (outBuf.count - outLeft) / 4
                        }
                    }
                    if converted == 1 {
                        let c = UInt32(littleEndian: output[0])
                        if c >= 0x80 && c != 0xFFFD { out.append(c) }
                    }
                }
            }
        }
        return out
    }

    /// GB/T 2312-1980: 682 symbols and 6,763 hanzi (EUC-CN rows 1-94).
    public static func gb2312() throws(FontCompilerError) -> [UInt32] {
        try enumerate(encoding: "EUC-CN", leads: 0xA1...0xF7, trails: [0xA1...0xFE])
    }

    /// JIS X 0208 rows (1-94) through EUC-JP.
    public static func jisx0208(rows: [Int]) throws(FontCompilerError) -> [UInt32] {
        var out: [UInt32] = []
        for row in rows {
            let lead = UInt8(0xA0 + row)
            out += try enumerate(encoding: "EUC-JP", leads: lead...lead, trails: [0xA1...0xFE])
        }
        return out
    }

    /// Big5 symbols (A140-A3BF) and level-1 hanzi (A440-C67E).
    public static func big5Level1() throws(FontCompilerError) -> [UInt32] {
        try enumerate(encoding: "BIG5", leads: 0xA1...0xC6, trails: [0x40...0x7E, 0xA1...0xFE])
    }
}
