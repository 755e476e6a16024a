import Graphics

/// The three font chains the screens use. Each Latin font is followed by
/// the CJK / emoji fallback, so any title renders.
public struct ScreenFonts: Sendable {
    /// Titles, messages, the caller's name (6x13 + Unifont).
    public var body: FontChain
    /// Status bar, app names, ages, button labels (6x10 + Unifont).
    public var small: FontChain
    /// The clock and the passkey (10x20; digits and ':' are what is drawn).
    public var large: FontChain

    public init(body: FontChain, small: FontChain, large: FontChain) {
        self.body = body
        self.small = small
        self.large = large
    }

    /// Loads the shipped fonts; Unifont (about 1 MB) is loaded once and shared.
    public static func standard(loader: FontLoader) throws(FontError) -> ScreenFonts {
        let cjk = try loader.load(.cjk)
        let body = try loader.load(.body)
        let small = try loader.load(.small)
        let large = try loader.load(.large)
        return ScreenFonts(body: FontChain([body, cjk]), small: FontChain([small, cjk]), large: FontChain([large, cjk]))
    }
}
