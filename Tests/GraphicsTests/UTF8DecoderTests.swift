import Graphics
import Testing

@Suite("UTF-8 decoding")
struct UTF8DecoderTests {
    func decodeAll(_ bytes: [UInt8]) -> [UInt32] {
        bytes.withUnsafeBytes { raw in
            var out: [UInt32] = []
            var i = 0
            while i < raw.count {
                let (s, n) = UTF8Decoder.decode(raw, at: i)
                #expect(n >= 1)
                out.append(s)
                i += n
            }
            return out
        }
    }

    @Test("valid text decodes to its scalars")
    func valid() {
        let text = "Aé你😀\u{0301}"
        #expect(decodeAll(Array(text.utf8)) == text.unicodeScalars.map(\.value))
    }

    @Test("invalid sequences become U+FFFD, maximal subpart at a time", arguments: [
        ([0xFF], [0xFFFD]),
        ([0x80, 0x41], [0xFFFD, 0x41]),
        ([0xC0, 0x80], [0xFFFD, 0xFFFD]),                   // overlong
        ([0xED, 0xA0, 0x80], [0xFFFD, 0xFFFD, 0xFFFD]),     // surrogate
        ([0xE2, 0x82], [0xFFFD]),                            // truncated at the end
        ([0xE2, 0x82, 0x41], [0xFFFD, 0x41]),
        ([0xF4, 0x90, 0x80, 0x80], [0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD]),   // > U+10FFFF
        ([0xF0, 0x9F, 0x98, 0x80], [0x1F600]),
    ] as [([UInt8], [UInt32])])
    func invalid(bytes: [UInt8], expected: [UInt32]) {
        #expect(decodeAll(bytes) == expected)
    }

    @Test("agrees with the standard library on random bytes")
    func agreesWithStandardLibrary() {
        var rng = SplitMix(seed: 0x5EED)
        for _ in 0..<2000 {
            let n = Int(rng.next() % 12)
            var bytes: [UInt8] = []
            for _ in 0..<n {
                // Bias towards the interesting lead and continuation bytes.
                let r = rng.next()
                bytes.append(r % 3 == 0 ? UInt8(0x80 + r % 0x40) : UInt8(truncatingIfNeeded: r >> 8))
            }
            let ours = decodeAll(bytes)
            let theirs = String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
            #expect(ours == theirs, "\(bytes.map { String($0, radix: 16) })")
        }
    }
}

/// A small deterministic generator for tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
