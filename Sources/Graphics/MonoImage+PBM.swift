/// Portable bitmap (PBM) files: the golden images and the harness snapshots.
extension MonoImage {
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
                case UInt8(ascii: "1"): self[k % w, k / w] = true
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
}

public struct PBMError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "PBM: \(reason)" }
}
