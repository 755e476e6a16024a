import Graphics
import HAL
import LinuxHAL
import Testing

/// Fonts read in place from a read-only mapping (the daemon) are the fonts
/// copied from a read (tests, tools): same bytes, same glyphs, same pixels.
@Suite("Mapped fonts")
struct MappedFontTests {
    static var mapped: FontLoader {
        FontLoader(mappingFrom: [FontLoader.packageFontsDirectory], mapFile: { path throws(HALError) in
            try MappedFile.mapIfPresent(path).map { FontBytes(bytes: $0.bytes, owner: $0) }
        })
    }

    @Test("every shipped font maps to the bytes, metrics and glyph pixels of its copy", arguments: FontLoader.Shipped.allCases)
    func sameAsCopied(_ shipped: FontLoader.Shipped) throws {
        let copy = try ShippedFonts.loader.load(shipped)
        let font = try Self.mapped.load(shipped)
        #expect(Array(font.fileBytes) == Array(copy.fileBytes))
        #expect(font.name == copy.name && font.glyphCount == copy.glyphCount && font.pixelSize == copy.pixelSize)
        #expect(font.ascent == copy.ascent && font.descent == copy.descent && font.defaultAdvance == copy.defaultAdvance)
        // Each glyph drawn by both, compared pixel for pixel, in batches of 16.
        let a = Framebuffer(width: 256, height: 32), b = Framebuffer(width: 256, height: 32)
        for start in stride(from: 0, to: font.glyphCount, by: 16) {
            a.clear(); b.clear()
            for i in start..<min(start + 16, font.glyphCount) {
                #expect(font.codepoint(at: i) == copy.codepoint(at: i))
                #expect(font.glyph(at: i) == copy.glyph(at: i))
                a.draw(font.glyph(at: i), of: font, x: (i - start) * 16, baselineY: 20)
                b.draw(copy.glyph(at: i), of: copy, x: (i - start) * 16, baselineY: 20)
            }
            #expect(MonoImage(a) == MonoImage(b), "glyphs \(start)..<\(start + 16)")
        }
    }

    @Test("the mapping outlives the loader: a font keeps its file mapped")
    func fontKeepsItsMapping() throws {
        let font = try FontLoader(mappingFrom: [FontLoader.packageFontsDirectory], mapFile: { path throws(HALError) in
            try MappedFile.mapIfPresent(path).map { FontBytes(bytes: $0.bytes, owner: $0) }
        }).load(.small)
        #expect(font.glyph(for: 0x41) != nil)
        #expect(Array(font.fileBytes.prefix(4)) == BitmapFont.magic)
    }

    @Test("a missing or invalid mapped font is the same error as a read one")
    func errors() throws {
        #expect(throws: FontError.notFound(name: "nope.wcf", searched: [FontLoader.packageFontsDirectory])) {
            try Self.mapped.load("nope.wcf")
        }
        let bytes: [UInt8] = Array("WCF1".utf8) + [UInt8](repeating: 0, count: 70)
        let copy = FontBytes(copying: bytes)
        #expect(throws: FontError.self) { try FontLoader.parse(copy, path: "/x.wcf") }
    }
}
