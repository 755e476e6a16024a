/// One glyph's placement, as stored in a WristCore font (`.wcf`).
///
/// Metrics follow BDF: the bitmap is `width` x `height` pixels, its lower-left
/// corner `xOffset` right of the pen and `yOffset` above the baseline; the pen
/// then moves `advance` pixels right.
public struct Glyph: Equatable, Sendable {
    /// Byte offset of the packed bitmap inside the font's bitmap area.
    public var bitmapOffset: Int
    public var advance: Int
    public var width: Int
    public var height: Int
    public var xOffset: Int
    public var yOffset: Int
}

/// Why a font could not be loaded.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No file with this name in any directory of the search path.
    case notFound(name: String, searched: [String])
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The bytes are not a valid WristCore font.
    case invalid(reason: String)

    public var description: String {
        switch self {
        case .notFound(let name, let searched):
            return "font \(name) not found; looked in: \(searched.joined(separator: ", ")). "
                + "Set WRISTCORE_FONTS to the directory holding the .wcf files (they are in the repository's Fonts/)."
        case .unreadable(let path, let reason):
            return "cannot read font \(path): \(reason)"
        case .invalid(let reason):
            return "invalid font: \(reason)"
        }
    }
}

/// A bitmap font in WristCore's compiled format, read in place from its file's
/// bytes (`FontBytes`: a read-only mapping in the daemon, a copy otherwise).
///
/// File layout (all integers little-endian), written by `wristcore-fonts`:
///
///     0   4  magic "WCF1"
///     4   2  format version (1)
///     6   2  header size (64)
///     8   4  glyph count N
///     12  2  pixel size (BDF PIXEL_SIZE)
///     14  2  ascent  (signed, pixels above the baseline)
///     16  2  descent (signed, pixels below the baseline)
///     18  2  default advance (the advance of a missing-glyph box)
///     20  4  bitmap area size in bytes
///     24  8  reserved (zero)
///     32 32  family name, UTF-8, NUL padded
///     64     N x u32 code points, strictly ascending        (binary-searched)
///     +4N    N x 8-byte records: bitmap offset (u24), advance (u8), width (u8),
///            height (u8), x offset (i8), y offset (i8)
///     +12N   bitmap area: each glyph's rows bit-packed, MSB first, no row padding
///
/// Lookup is a binary search over the code point table: O(log n), no allocation.
public final class BitmapFont: @unchecked Sendable {
    // Immutable after init: safe to share between threads.
    private let base: UnsafeRawPointer
    /// Keeps `base` valid (the mapping or the copy).
    private let storage: FontBytes
    /// Number of glyphs.
    public let glyphCount: Int
    public let pixelSize: Int
    public let ascent: Int
    public let descent: Int
    /// Width of the box drawn for a missing glyph.
    public let defaultAdvance: Int
    public let name: String
    private let codepointsOffset = 64
    private let recordsOffset: Int
    private let bitmapsOffset: Int
    private let bitmapAreaSize: Int

    public static let magic: [UInt8] = Array("WCF1".utf8)
    public static let headerSize = 64

    private struct Header {
        var glyphCount, pixelSize, ascent, descent, defaultAdvance, bitmapAreaSize: Int
        var name: String
    }

    /// Checks the header, the table order and every glyph's bitmap bounds, so
    /// that lookups and drawing need no checks later.
    private static func parse(_ bytes: UnsafeRawBufferPointer) throws(FontError) -> Header {
        guard bytes.count >= headerSize else { throw .invalid(reason: "\(bytes.count) bytes is shorter than the 64-byte header") }
        guard Array(bytes[0..<4]) == magic else { throw .invalid(reason: "not a WristCore font (magic is not WCF1)") }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func i16(_ o: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(o)))) }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        guard u16(4) == 1 else { throw .invalid(reason: "format version \(u16(4)), this build reads version 1") }
        guard u16(6) == headerSize else { throw .invalid(reason: "header size \(u16(6))") }
        let n = u32(8)
        let area = u32(20)
        let expected = headerSize + 12 * n + area
        guard bytes.count == expected else {
            throw .invalid(reason: "size \(bytes.count) bytes, header says \(expected) (\(n) glyphs, \(area) bitmap bytes)")
        }
        var previous = -1
        for i in 0..<n {
            let cp = u32(headerSize + 4 * i)
            guard cp > previous, cp <= 0x10FFFF else { throw .invalid(reason: "code point table not strictly ascending at index \(i)") }
            previous = cp
            let r = headerSize + 4 * n + 8 * i
            let offset = Int(bytes[r]) | Int(bytes[r + 1]) << 8 | Int(bytes[r + 2]) << 16
            let bitsCount = Int(bytes[r + 4]) * Int(bytes[r + 5])
            guard offset + (bitsCount + 7) / 8 <= area else {
                throw .invalid(reason: "glyph U+\(String(cp, radix: 16, uppercase: true)) bitmap runs past the bitmap area")
            }
        }
        let nameBytes = bytes[32..<64].prefix { $0 != 0 }
        return Header(
            glyphCount: n, pixelSize: u16(12), ascent: i16(14), descent: i16(16),
            defaultAdvance: max(1, u16(18)), bitmapAreaSize: area,
            name: String(decoding: nameBytes, as: UTF8.self))
    }

    /// Parses and validates a compiled font, then reads it in place: no copy.
    public init(storage: FontBytes) throws(FontError) {
        let h = try Self.parse(storage.bytes)
        glyphCount = h.glyphCount
        pixelSize = h.pixelSize
        ascent = h.ascent
        descent = h.descent
        defaultAdvance = h.defaultAdvance
        bitmapAreaSize = h.bitmapAreaSize
        name = h.name
        recordsOffset = Self.headerSize + 4 * h.glyphCount
        bitmapsOffset = Self.headerSize + 12 * h.glyphCount
        self.storage = storage
        base = storage.bytes.baseAddress!  // parse checked there are at least 64 bytes
    }

    /// Parses and validates a compiled font; copies the bytes once.
    public convenience init(bytes: UnsafeRawBufferPointer) throws(FontError) {
        try self.init(storage: FontBytes(copying: bytes))
    }

    /// Parses a compiled font from an array; copies the bytes once.
    public convenience init(bytes: [UInt8]) throws(FontError) {
        try self.init(storage: FontBytes(copying: bytes))
    }

    /// Ascent + descent: the distance between baselines.
    @inlinable public var lineHeight: Int { ascent + descent }

    /// The code point stored at table index `i`.
    @inline(__always)
    public func codepoint(at i: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: codepointsOffset + 4 * i, as: UInt32.self))
    }

    /// The table index of a code point, by binary search.
    @inline(__always)
    public func index(of scalar: UInt32) -> Int? {
        var lo = 0, hi = glyphCount - 1
        while lo <= hi {
            let mid = (lo + hi) >> 1
            let cp = codepoint(at: mid)
            if cp == scalar { return mid }
            if cp < scalar { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }

    /// The glyph at table index `i`.
    @inline(__always)
    public func glyph(at i: Int) -> Glyph {
        let r = UnsafeRawPointer(base + recordsOffset + 8 * i).assumingMemoryBound(to: UInt8.self)
        return Glyph(
            bitmapOffset: Int(r[0]) | Int(r[1]) << 8 | Int(r[2]) << 16,
            advance: Int(r[3]),
            width: Int(r[4]),
            height: Int(r[5]),
            xOffset: Int(Int8(bitPattern: r[6])),
            yOffset: Int(Int8(bitPattern: r[7])))
    }

    /// The glyph for a Unicode scalar, or nil when the font lacks it.
    @inline(__always)
    public func glyph(for scalar: UInt32) -> Glyph? {
        guard let i = index(of: scalar) else { return nil }
        return glyph(at: i)
    }

    /// True when the font has a glyph for the scalar.
    public func contains(_ scalar: UInt32) -> Bool { index(of: scalar) != nil }

    /// The packed bitmap area (pass with `glyph.bitmapOffset` to `Framebuffer.drawBits`).
    public var bitmapArea: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + bitmapsOffset, count: bitmapAreaSize)
    }

    /// The raw file bytes.
    public var fileBytes: UnsafeRawBufferPointer { storage.bytes }
}

extension Framebuffer {
    /// Draws one glyph with its pen at `x` and its baseline at `baselineY`.
    public func draw(_ glyph: Glyph, of font: BitmapFont, x: Int, baselineY: Int, ink: Ink = .on) {
        if glyph.width == 0 || glyph.height == 0 { return }
        let top = baselineY - glyph.yOffset - glyph.height
        let area = font.bitmapArea
        let bytes = UnsafeRawBufferPointer(rebasing: area[glyph.bitmapOffset...])
        drawBits(bytes, width: glyph.width, height: glyph.height, x: x + glyph.xOffset, y: top, ink: ink)
    }

    /// Draws the box that stands for a missing glyph: an outlined rectangle
    /// `advance` wide spanning the font's ascent, 1 px clear on each side.
    public func drawMissingGlyphBox(x: Int, baselineY: Int, advance: Int, ascent: Int, ink: Ink = .on) {
        let w = max(3, advance - 2)
        let h = max(3, ascent - 1)
        strokeRect(Rect(x: x + 1, y: baselineY - h, width: w, height: h), ink)
    }
}
