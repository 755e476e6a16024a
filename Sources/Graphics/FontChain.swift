/// An ordered list of fonts: each character is drawn with the first font that
/// has it (for example body text, then Unifont for CJK and emoji).
public struct FontChain: Sendable {
    public let fonts: [BitmapFont]

    public init(_ fonts: [BitmapFont]) {
        precondition(!fonts.isEmpty, "FontChain needs at least one font")
        self.fonts = fonts
    }

    public init(_ first: BitmapFont, _ rest: BitmapFont...) {
        self.init([first] + rest)
    }

    /// The primary font (metrics for missing-glyph boxes come from it).
    @inlinable public var primary: BitmapFont { fonts[0] }

    /// The first font with a glyph for `scalar`, as (font index, glyph).
    @inline(__always)
    public func lookup(_ scalar: UInt32) -> (font: Int, glyph: Glyph)? {
        for i in fonts.indices {
            if let g = fonts[i].glyph(for: scalar) { return (i, g) }
        }
        return nil
    }

    /// The largest ascent and descent of the fonts in `mask` (bit i = font i).
    func metrics(usedFonts mask: UInt32) -> (ascent: Int, descent: Int) {
        var a = 0, d = 0
        for i in fonts.indices where mask & (1 << UInt32(i)) != 0 {
            a = max(a, fonts[i].ascent)
            d = max(d, fonts[i].descent)
        }
        if a == 0 && d == 0 { return (primary.ascent, primary.descent) }
        return (a, d)
    }

    /// Loads the shipped fonts: `body` (or another Latin font) then the CJK fallback.
    public static func standard(primary: FontLoader.Shipped = .body, loader: FontLoader) throws(FontError) -> FontChain {
        let main = try loader.load(primary)
        let cjk = try loader.load(.cjk)
        return FontChain([main, cjk])
    }
}
