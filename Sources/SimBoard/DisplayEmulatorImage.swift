import Graphics

/// A 1-bit picture, row-major, one Bool per pixel: what the emulator shows,
/// what golden PBM files hold.
public struct MonoImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var pixels: [Bool]

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        pixels = [Bool](repeating: false, count: width * height)
    }

    public subscript(x: Int, y: Int) -> Bool {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Lit pixels.
    public var litCount: Int { pixels.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// The picture as the user sees it when the framebuffer uses `rotation`:
    /// the glass turned back by that rotation (90/270 swap width and height).
    /// With this, `image.viewed(as: fb.rotation)[x, y] == fb.pixel(x: x, y: y)`.
    public func viewed(as rotation: Rotation) -> MonoImage {
        switch rotation {
        case .r0:
            return self
        case .r180:
            var out = MonoImage(width: width, height: height)
            for y in 0..<height { for x in 0..<width { out[x, y] = self[width - 1 - x, height - 1 - y] } }
            return out
        case .r90:
            var out = MonoImage(width: height, height: width)
            for v in 0..<width { for u in 0..<height { out[u, v] = self[width - 1 - v, u] } }
            return out
        case .r270:
            var out = MonoImage(width: height, height: width)
            for v in 0..<width { for u in 0..<height { out[u, v] = self[v, height - 1 - u] } }
            return out
        }
    }

    /// The logical picture of a framebuffer (for comparisons).
    public init(_ fb: Framebuffer) {
        self.init(width: fb.width, height: fb.height)
        for y in 0..<fb.height { for x in 0..<fb.width where fb.pixel(x: x, y: y) { self[x, y] = true } }
    }

    /// Where two pictures differ, for test failure messages.
    public func differences(from other: MonoImage, limit: Int = 8) -> String {
        guard width == other.width && height == other.height else {
            return "size \(width)x\(height) vs \(other.width)x\(other.height)"
        }
        var count = 0
        var first: [String] = []
        for y in 0..<height {
            for x in 0..<width where self[x, y] != other[x, y] {
                count += 1
                if first.count < limit { first.append("(\(x),\(y))") }
            }
        }
        return count == 0 ? "identical" : "\(count) pixels differ, first at \(first.joined(separator: " "))"
    }

    // MARK: PBM

    /// Plain PBM (P1): human-readable and diffable, one text row per pixel
    /// row, "1" for a lit pixel. Golden files use this form.
    public func pbmPlain(comment: String? = nil) -> String {
        var s = "P1\n"
        if let comment { s += "# \(comment)\n" }
        s += "\(width) \(height)\n"
        s.reserveCapacity(s.utf8.count + (width + 1) * height)
        for y in 0..<height {
            for x in 0..<width { s += self[x, y] ? "1" : "0" }
            s += "\n"
        }
        return s
    }

    /// Raw PBM (P4): 1 bit per pixel, rows padded to bytes, MSB first, 1 = lit.
    public func pbmRaw() -> [UInt8] {
        var out = Array("P4\n\(width) \(height)\n".utf8)
        let rowBytes = (width + 7) / 8
        for y in 0..<height {
            var row = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<width where self[x, y] { row[x >> 3] |= 0x80 >> UInt8(x & 7) }
            out += row
        }
        return out
    }

    /// Parses P1 or P4 PBM.
    public init(pbm bytes: [UInt8]) throws(PBMError) {
        var i = 0
        func skipSpaceAndComments() {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count && bytes[i] != 0x0A { i += 1 }
                } else if bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                    i += 1
                } else {
                    return
                }
            }
        }
        func number() throws(PBMError) -> Int {
            skipSpaceAndComments()
            var v = 0, digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                v = v * 10 + Int(bytes[i] - 0x30); i += 1; digits += 1
            }
            if digits == 0 || v <= 0 || v > 4096 { throw PBMError(reason: "bad size field at byte \(i)") }
            return v
        }
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "1") || bytes[1] == UInt8(ascii: "4") else {
            throw PBMError(reason: "not a PBM file (magic must be P1 or P4)")
        }
        let plain = bytes[1] == UInt8(ascii: "1")
        i = 2
        let w = try number()
        let h = try number()
        self.init(width: w, height: h)
        if plain {
            for k in 0..<(w * h) {
                skipSpaceAndComments()
                guard i < bytes.count else { throw PBMError(reason: "plain PBM ends after \(k) of \(w * h) pixels") }
                switch bytes[i] {
                case UInt8(ascii: "0"): break
                case UInt8(ascii: "1"): pixels[k] = true
                default: throw PBMError(reason: "unexpected byte 0x\(String(bytes[i], radix: 16)) in plain PBM raster")
                }
                i += 1
            }
        } else {
            i += 1   // the single whitespace after the height
            let rowBytes = (w + 7) / 8
            guard bytes.count - i >= rowBytes * h else { throw PBMError(reason: "raw PBM raster is short") }
            for y in 0..<h {
                for x in 0..<w where bytes[i + y * rowBytes + x >> 3] & (0x80 >> UInt8(x & 7)) != 0 {
                    self[x, y] = true
                }
            }
        }
    }

    // MARK: PNG

    /// A PNG, each pixel drawn as a `scale` x `scale` square. The default
    /// colours look like a white OLED. Written as a 1-bit palette image (two
    /// colours), so it stays small without compression (stored deflate blocks).
    public func png(scale: Int = 4, lit: (UInt8, UInt8, UInt8) = (0xF0, 0xF4, 0xFF),
                    dark: (UInt8, UInt8, UInt8) = (0x10, 0x10, 0x14)) -> [UInt8] {
        precondition(scale >= 1 && scale <= 32)
        let w = width * scale, h = height * scale
        let rowBytes = (w + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * h)
        for y in 0..<h {
            raw.append(0)   // filter: none
            var byte: UInt8 = 0
            for x in 0..<w {
                if self[x / scale, y / scale] { byte |= 0x80 >> UInt8(x & 7) }
                if x & 7 == 7 || x == w - 1 {
                    raw.append(byte)
                    byte = 0
                }
            }
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr += PNG.be32(UInt32(w)); ihdr += PNG.be32(UInt32(h))
        ihdr += [1, 3, 0, 0, 0]   // 1-bit, palette, deflate, filter 0, no interlace
        PNG.chunk("IHDR", ihdr, into: &out)
        PNG.chunk("PLTE", [dark.0, dark.1, dark.2, lit.0, lit.1, lit.2], into: &out)   // index 0 dark, 1 lit
        PNG.chunk("IDAT", PNG.zlibStored(raw), into: &out)
        PNG.chunk("IEND", [], into: &out)
        return out
    }

    // MARK: terminal

    /// The picture with Unicode half blocks: each character cell shows two
    /// pixel rows (▀ ▄ █ or space), framed by a border.
    public func terminalString(border: Bool = true) -> String {
        var s = ""
        if border { s += "┌" + String(repeating: "─", count: width) + "┐\n" }
        var y = 0
        while y < height {
            if border { s += "│" }
            for x in 0..<width {
                let top = self[x, y]
                let bottom = y + 1 < height ? self[x, y + 1] : false
                switch (top, bottom) {
                case (false, false): s += " "
                case (true, false): s += "▀"
                case (false, true): s += "▄"
                case (true, true): s += "█"
                }
            }
            if border { s += "│" }
            s += "\n"
            y += 2
        }
        if border { s += "└" + String(repeating: "─", count: width) + "┘\n" }
        return s
    }
}

public struct PBMError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "PBM: \(reason)" }
}

/// The few pieces of PNG and zlib a writer needs: chunks with CRC-32 and a
/// zlib stream of stored (uncompressed) deflate blocks with Adler-32.
enum PNG {
    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32<S: Sequence>(_ bytes: S, start: UInt32 = 0xFFFF_FFFF) -> UInt32 where S.Element == UInt8 {
        var c = start
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += be32(UInt32(data.count))
        out += typeBytes
        out += data
        let crc = crc32(data, start: crc32(typeBytes)) ^ 0xFFFF_FFFF
        out += be32(crc)
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes {
            a = (a + UInt32(x)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out.append(final)
            out.append(UInt8(n & 0xFF)); out.append(UInt8(n >> 8))
            out.append(UInt8(~n & 0xFF)); out.append(UInt8((~n >> 8) & 0xFF))
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        out += be32(adler32(data))
        return out
    }
}
