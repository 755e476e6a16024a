import HAL
import TextFormat

/// Finds the compiled fonts (`*.wcf`) shipped in the repository's `Fonts/`
/// and parses them. It reads no files itself: `mapFile` hands it a file's
/// bytes in place (the daemon: LinuxHAL's `MappedFile`, so only the glyph
/// pages drawn are resident), or `readFile` a copy of them (LinuxHAL's
/// `FileBytes.readIfPresent`: tests, tools), so Graphics only ever sees bytes.
///
/// Search order (first directory holding the file wins), as `searchPath`
/// builds it from what the caller read from the process:
/// 1. the explicit directory given by the caller (a board file or `--fonts`);
/// 2. every directory in `$WRISTCORE_FONTS` (colon-separated);
/// 3. `<directory of the executable>/../share/wristcore/fonts` (an installed daemon);
/// 4. `./Fonts` (running from a checkout);
/// 5. the package's own `Fonts/`, found from this source file's path (tests, `swift run`).
///
/// Load fonts once at start-up and keep them; nothing here runs per frame.
public struct FontLoader {
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

    /// Reads a whole file: its bytes, nil when there is no such file; throws
    /// when it exists but cannot be read.
    public typealias ReadFile = (_ path: String) throws(HALError) -> [UInt8]?

    /// A whole file's bytes held in place (a read-only mapping), nil when
    /// there is no such file; throws when it exists but cannot be read.
    public typealias MapFile = (_ path: String) throws(HALError) -> FontBytes?

    /// The directories searched, in order.
    public let searchPath: [String]
    private let mapFile: MapFile

    /// Fonts copied from the bytes `readFile` returns.
    public init(searchPath: [String], readFile: @escaping ReadFile) {
        self.searchPath = searchPath
        self.mapFile = { path throws(HALError) in try readFile(path).map { FontBytes(copying: $0) } }
    }

    /// Fonts read in place from the bytes `mapFile` holds (no copy). (Its
    /// own first label, so `FontLoader(searchPath:) { ... }` stays `readFile`.)
    public init(mappingFrom searchPath: [String], mapFile: @escaping MapFile) {
        self.searchPath = searchPath
        self.mapFile = mapFile
    }

    /// The environment variable listing extra font directories (colon-separated).
    public static let environmentVariable = "WRISTCORE_FONTS"

    /// This file's path when it was compiled: the package's own Fonts/ is
    /// found from it (tests, `swift run`, benchmarks).
    static let packageSourceFile: String = #filePath

    /// The package's own `Fonts/` (Sources/Graphics/FontLoader.swift -> <package>/Fonts).
    public static var packageFontsDirectory: String { PathText.parent(packageSourceFile, levels: 3) + "/Fonts" }

    /// The directories to search, in order, from what the caller read from
    /// the process: `fontsVariable` is `$WRISTCORE_FONTS`.
    public static func searchPath(explicit: String? = nil,
                                  fontsVariable: String?,
                                  executablePath: String?,
                                  currentDirectory: String?,
                                  sourceFile: String? = nil) -> [String] {
        var dirs: [String] = []
        if let explicit, !explicit.isEmpty { dirs.append(explicit) }
        if let list = fontsVariable {
            dirs += list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        if let exe = executablePath {
            dirs.append(PathText.parent(exe, levels: 2) + "/share/wristcore/fonts")
        }
        dirs.append((currentDirectory ?? ".") + "/Fonts")
        dirs.append(PathText.parent(sourceFile ?? packageSourceFile, levels: 3) + "/Fonts")
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }

    /// Loads a font by file name from the search path.
    public func load(_ fileName: String) throws(FontError) -> BitmapFont {
        for dir in searchPath {
            let path = dir.hasSuffix("/") ? dir + fileName : dir + "/" + fileName
            if let bytes = try read(path) { return try Self.parse(bytes, path: path) }
        }
        throw .notFound(name: fileName, searched: searchPath)
    }

    /// Loads a shipped font.
    public func load(_ font: Shipped) throws(FontError) -> BitmapFont {
        try load(font.rawValue)
    }

    /// Loads a font file by path.
    public func load(path: String) throws(FontError) -> BitmapFont {
        guard let bytes = try read(path) else { throw .unreadable(path: path, reason: "no such file") }
        return try Self.parse(bytes, path: path)
    }

    /// Parses a font file's bytes; `path` names it in the error.
    public static func parse(_ bytes: [UInt8], path: String) throws(FontError) -> BitmapFont {
        try parse(FontBytes(copying: bytes), path: path)
    }

    /// Parses a font file's bytes in place; `path` names it in the error.
    public static func parse(_ bytes: FontBytes, path: String) throws(FontError) -> BitmapFont {
        do {
            return try BitmapFont(storage: bytes)
        } catch {
            if case .invalid(let reason) = error { throw .invalid(reason: "\(path): \(reason)") }
            throw error
        }
    }

    private func read(_ path: String) throws(FontError) -> FontBytes? {
        do { return try mapFile(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    }
}
