import Graphics
import Testing

@Suite("Text layout properties")
struct LayoutPropertyTests {
    static let pieces: [String] = [
        "hello", " ", "  ", "world", "\n", "-", "你", "好", "。", "「", "」", "こ", "ー", "っ", "한", "글",
        "e\u{0301}", "👍🏽", "👨‍👩‍👧", "\u{05D0}", "\u{0627}", "…", "\t", "Ω", "Ж", "ế", "e\u{0302}\u{0303}", "a\u{0323}\u{0306}", "\u{0301}", "\u{FEFF}", "\u{200B}", "1234567890",
    ]

    @Test("random text: lines are ordered, fit (unless one cluster is wider), and drawing never crashes")
    func randomText() {
        var rng = SplitMix(seed: 0xD15B1A7)
        let chain = ShippedFonts.chain
        let layout = TextLayout(capacity: 64)
        let fb = Framebuffer(width: 128, height: 64)
        for round in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 40) {
                if rng.next() % 8 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: rng.next()))   // raw, often invalid
                } else {
                    bytes += Array(Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))].utf8)
                }
            }
            let width = 1 + Int(rng.next() % 128)
            let maxLines = 1 + Int(rng.next() % 10)
            bytes.withUnsafeBytes { raw in
                layout.layout(raw, fonts: chain, width: width, maxLines: maxLines)
                #expect(layout.lineCount <= maxLines)
                var previousEnd = 0
                for k in 0..<layout.lineCount {
                    let l = layout.line(k)
                    #expect(l.start >= previousEnd && l.end >= l.start && l.end <= raw.count, "round \(round)")
                    previousEnd = l.end
                    if l.width > width {
                        // Only a single character wider than the line may overflow it.
                        let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw[l.start..<l.end]), as: UTF8.self)
                        #expect(text.count == 1, "round \(round): line \(k) '\(text)' is \(l.width) px for \(width)")
                    }
                    #expect(TextLayout.measure(UnsafeRawBufferPointer(rebasing: raw[l.start..<l.end]), fonts: chain) == l.width)
                }
                fb.clear()
                layout.draw(raw, fonts: chain, into: fb, x: 0, y: 0, alignment: [.leading, .center, .trailing][round % 3])
            }
        }
    }

    @Test("a line narrower than any character still makes progress, one cluster per line")
    func tinyWidth() {
        let layout = TextLayout(capacity: 64)
        layout.layout("abc 你好 👍🏽", fonts: ShippedFonts.chain, width: 1)
        #expect(layout.lineCount == 6)
        #expect(!layout.truncated)
    }
}
