extension MonoImage {
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
