import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Finds and loads the compiled fonts (`*.wcf`) shipped in the repository's `Fonts/`.
///
/// Search order (first directory holding the file wins):
/// 1. the explicit directory given by the caller (a board file or `--fonts`);
/// 2. every directory in `$WRISTCORE_FONTS` (colon-separated);
/// 3. `<directory of the executable>/../share/wristcore/fonts` (an installed daemon);
/// 4. `./Fonts` (running from a checkout);
/// 5. the package's own `Fonts/`, found from this source file's path (tests, `swift run`).
///
/// Load fonts once at start-up and keep them; nothing here runs per frame.
public enum FontLoader {
    /// The shipped font files.
    public enum Shipped: String, CaseIterable, Sendable {
        /// X11 misc-fixed 6x10: Latin, Greek, Cyrillic; 21 columns on 128 px.
        case small = "fixed-6x10.wcf"
        /// X11 misc-fixed 6x13: wider coverage (Latin Extended, Vietnamese, symbols).
        case body = "fixed-6x13.wcf"
        /// X11 misc-fixed 10x20: titles and the clock.
        case large = "fixed-10x20.wcf"
        /// GNU Unifont 16 px subset: CJK, kana, Hangul, Vietnamese, emoji.
        case cjk = "unifont-16.wcf"
    }

    /// This file's path when it was compiled: the package's own Fonts/ is
    /// found from it (tests, `swift run`, benchmarks).
    static let packageSourceFile: String = #filePath

    /// The directories searched, in order, for this call.
    public static func searchPath(explicit: String? = nil,
                                  environment: [String: String]? = nil,
                                  executablePath: String? = nil,
                                  currentDirectory: String? = nil,
                                  sourceFile: String? = nil) -> [String] {
        var dirs: [String] = []
        if let explicit, !explicit.isEmpty { dirs.append(explicit) }
        let env = environment ?? ProcessInfo.processInfo.environment
        if let list = env["WRISTCORE_FONTS"] {
            dirs += list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        if let exe = executablePath ?? Self.executablePath() {
            dirs.append(parent(parent(exe)) + "/share/wristcore/fonts")
        }
        let cwd = currentDirectory ?? FileManager.default.currentDirectoryPath
        dirs.append(cwd + "/Fonts")
        // Sources/Graphics/FontLoader.swift -> <package>/Fonts
        dirs.append(parent(parent(parent(sourceFile ?? packageSourceFile))) + "/Fonts")
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }

    /// Finds a font file on the search path.
    public static func locate(_ fileName: String, searchPath: [String]) throws(FontError) -> String {
        for dir in searchPath {
            let path = dir.hasSuffix("/") ? dir + fileName : dir + "/" + fileName
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        throw .notFound(name: fileName, searched: searchPath)
    }

    /// Loads a font file by path.
    public static func load(path: String) throws(FontError) -> BitmapFont {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        let bytes = [UInt8](data)
        do {
            return try BitmapFont(bytes: bytes)
        } catch {
            if case .invalid(let reason) = error { throw .invalid(reason: "\(path): \(reason)") }
            throw error
        }
    }

    /// Loads a font by file name from the search path.
    public static func load(_ fileName: String, searchPath: [String] = FontLoader.searchPath()) throws(FontError) -> BitmapFont {
        try load(path: locate(fileName, searchPath: searchPath))
    }

    /// Loads a shipped font.
    public static func load(_ font: Shipped, searchPath: [String] = FontLoader.searchPath()) throws(FontError) -> BitmapFont {
        try load(font.rawValue, searchPath: searchPath)
    }

    static func parent(_ path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        if slash == p.startIndex { return "/" }
        return String(p[..<slash])
    }

    /// The running executable's path (/proc/self/exe on Linux).
    static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return CommandLine.arguments.first
        #endif
    }
}

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
    public static func standard(primary: FontLoader.Shipped = .body,
                                searchPath: [String] = FontLoader.searchPath()) throws(FontError) -> FontChain {
        let main = try FontLoader.load(primary, searchPath: searchPath)
        let cjk = try FontLoader.load(.cjk, searchPath: searchPath)
        return FontChain([main, cjk])
    }
}
