import BoardConfig
import Graphics
import HAL
import LinuxHAL
import Screens
import TextFormat

/// Where `wristcore` finds its data — the fonts and the shipped board files —
/// whether it runs from the Debian package, from another install prefix, or
/// from a source checkout:
///
/// | what | installed (package) | other prefix | source checkout |
/// | --- | --- | --- | --- |
/// | fonts | `/usr/share/wristcore/Fonts` | `<exe>/../share/wristcore/Fonts` | `./Fonts`, the package's `Fonts/` |
/// | boards | `/usr/share/wristcore/Boards` | `<exe>/../share/wristcore/Boards` | `./Boards`, the package's `Boards/` |
///
/// `$WRISTCORE_FONTS` and `$WRISTCORE_BOARDS` (colon-separated directories)
/// come first. The directory next to the executable comes before the working
/// directory, so an installed binary uses its own data wherever it is run
/// from; `/usr/share/wristcore` comes last, so a binary built in a checkout
/// prefers the checkout's files. Only start-up code calls this.
public enum ResourcePaths {
    /// The package's data directory.
    public static let installedDataDirectory = "/usr/share/wristcore"
    /// The package's configuration directory.
    public static let configurationDirectory = "/etc/wristcore"
    /// The board the service runs with (`wristcore setup` writes it).
    public static let configuredBoard = "/etc/wristcore/board.json"

    /// This file's path when compiled: the checkout's `Fonts/` and `Boards/` are found from it.
    static let packageSourceFile: String = #filePath

    // MARK: fonts

    /// The directories searched for the `.wcf` fonts, in order.
    public static func fontSearchPath(environment: [String: String]? = nil, executablePath: String? = nil) -> [String] {
        let fontsVariable = environment.map { $0[FontLoader.environmentVariable] } ?? CurrentProcess.environment(FontLoader.environmentVariable)
        let exe = executablePath ?? CurrentProcess.executablePath
        var dirs = colonList(fontsVariable)
        if let prefix = exe.map(installPrefix) { dirs.append(prefix + "/share/wristcore/Fonts") }
        // The Graphics module's own list: <exe>/../share/wristcore/fonts, ./Fonts, the package's Fonts/.
        dirs += FontLoader.searchPath(fontsVariable: nil, executablePath: exe, currentDirectory: CurrentProcess.currentDirectory)
        dirs.append(installedDataDirectory + "/Fonts")
        return unique(dirs)
    }

    /// Loads the screens' fonts from `fontSearchPath()`, mapped read-only:
    /// only the pages of the glyphs drawn stay resident (Unifont is 1 MB).
    public static func screenFonts() throws(WristCoreFailure) -> ScreenFonts {
        let path = fontSearchPath()
        var mapped: [MappedFile] = []
        let loader = FontLoader(mappingFrom: path, mapFile: { file throws(HALError) in
            guard let mapping = try MappedFile.mapIfPresent(file) else { return nil }
            mapped.append(mapping)
            return FontBytes(bytes: mapping.bytes, owner: mapping)
        })
        let fonts: ScreenFonts
        do { fonts = try ScreenFonts.standard(loader: loader) } catch { throw fontsMissing(error, searched: path) }
        // Validation read every table page; from now on only the lookups' and glyphs' pages come back.
        for mapping in mapped { mapping.releaseResidentPages() }
        return fonts
    }

    /// The failure for fonts that cannot be loaded, with where they were looked for and how to fix it.
    public static func fontsMissing(_ error: FontError, searched: [String]? = nil) -> WristCoreFailure {
        let path = searched ?? fontSearchPath()
        switch error {
        case .notFound(let name, _):
            return WristCoreFailure(
                "fonts: \(name) not found; looked in: \(path.joined(separator: ", ")). "
                    + "An installed wristcore reads its fonts from \(installedDataDirectory)/Fonts "
                    + "(restore them with: sudo apt-get install --reinstall wristcore); "
                    + "in a source checkout they are in Fonts/; or set WRISTCORE_FONTS to a directory holding the .wcf files.")
        default:
            return WristCoreFailure("fonts: \(error)")
        }
    }

    // MARK: boards

    /// The directories searched for shipped board files, in order.
    public static func boardSearchPath(environment: [String: String]? = nil, executablePath: String? = nil,
                                       currentDirectory: String? = nil) -> [String] {
        let env = environment ?? ["WRISTCORE_BOARDS": CurrentProcess.environment("WRISTCORE_BOARDS")].compactMapValues { $0 }
        var dirs = colonList(env["WRISTCORE_BOARDS"])
        if let prefix = (executablePath ?? CurrentProcess.executablePath).map(installPrefix) {
            dirs.append(prefix + "/share/wristcore/Boards")
        }
        dirs.append((currentDirectory ?? CurrentProcess.currentDirectory ?? ".") + "/Boards")
        // Sources/WristCore/ResourcePaths.swift -> <package>/Boards
        dirs.append(PathText.parent(packageSourceFile, levels: 3) + "/Boards")
        dirs.append(installedDataDirectory + "/Boards")
        return unique(dirs)
    }

    /// Where a `--board` argument points: `sim`, a file, or a shipped board's
    /// name (`rpi-zero2w` or `rpi-zero2w.json`) looked up on `boardSearchPath`.
    public enum BoardLocation: Equatable, Sendable {
        case simulator
        case file(String)
        case notFound(argument: String, searched: [String])
    }

    public static func locateBoard(_ argument: String, searchPath: [String]? = nil) -> BoardLocation {
        if argument == BoardLoader.simulatedBoardName { return .simulator }
        if argument.contains("/") || FileSystem.exists(argument) {
            return FileSystem.exists(argument) ? .file(argument) : .notFound(argument: argument, searched: [])
        }
        let dirs = searchPath ?? boardSearchPath()
        let fileName = argument.hasSuffix(".json") ? argument : argument + ".json"
        for dir in dirs where FileSystem.isRegularFile(dir + "/" + fileName) { return .file(dir + "/" + fileName) }
        return .notFound(argument: argument, searched: dirs)
    }

    /// Loads `--board NAME|FILE|sim`: like `BoardLoader.load(argument:)`, and
    /// also finds shipped boards by name; a missing board names the shipped
    /// ones and where they are.
    public static func loadBoard(argument: String) throws(BoardError) -> Board {
        switch locateBoard(argument) {
        case .simulator: return try BoardLoader.load(argument: argument)
        case .file(let path): return try BoardLoader.load(path: path)
        case .notFound(let argument, _): throw boardMissing(argument)
        }
    }

    /// `loadBoard(argument:)` with the bytes it validated (nil for the
    /// built-in simulated board): what a SIGHUP checks and hands over.
    public static func loadCheckedBoard(argument: String) throws(BoardError) -> (board: Board, bytes: [UInt8]?) {
        switch locateBoard(argument) {
        case .simulator: return try BoardLoader.loadChecked(argument: argument)
        case .file(let path): return try BoardLoader.loadChecked(argument: path)
        case .notFound(let argument, _): throw boardMissing(argument)
        }
    }

    /// `loadBoard(argument:)` in the image a SIGHUP started: the bytes the
    /// previous image checked (`RestartHandoff`), so a board file changed
    /// or broken in between waits for the next SIGHUP; the file itself on
    /// a first start.
    public static func loadBoardAfterRestart(argument: String) throws(BoardError) -> Board {
        switch RestartHandoff.take(RestartHandoff.boardVariable, limit: BoardLoader.maxFileBytes) {
        case .bytes(let bytes):
            let file: String
            switch locateBoard(argument) {
            case .simulator: file = BoardLoader.simulatedBoardFile
            case .file(let path): file = path
            case .notFound: file = argument
            }
            return try BoardLoader.parse(bytes, file: file)
        case .absent where argument == BoardLoader.simulatedBoardName:
            return BoardLoader.builtInSimulated
        case .absent, .nothing:
            return try loadBoard(argument: argument)
        }
    }

    /// The shipped boards: (name without .json, path), the first directory holding a name wins.
    public static func shippedBoards(searchPath: [String]? = nil) -> [(name: String, path: String)] {
        var found: [(name: String, path: String)] = []
        var seen = Set<String>()
        for dir in searchPath ?? boardSearchPath() {
            for file in FileSystem.directoryEntries(dir).sorted() where file.hasSuffix(".json") {
                let name = String(file.dropLast(5))
                if seen.insert(name).inserted { found.append((name, dir + "/" + file)) }
            }
        }
        return StableOrder.indices(found.count) { found[$0].name < found[$1].name }.map { found[$0] }
    }

    /// The error for a board argument that names no file and no shipped board.
    public static func boardMissing(_ argument: String) -> BoardError {
        let boards = shippedBoards()
        let names = boards.map { $0.name }.filter { $0 != BoardLoader.simulatedBoardName }
        let dirs = Set(boards.map { PathText.parent($0.path) }).sorted()
        let hint: String
        if names.isEmpty {
            hint = "no shipped board files were found (looked in: \(boardSearchPath().joined(separator: ", "))); "
                + "install the package (they go to \(installedDataDirectory)/Boards), run from a source checkout (Boards/), "
                + "or set WRISTCORE_BOARDS; --board sim needs none"
        } else {
            hint = "shipped boards: \(names.joined(separator: ", ")) (in \(dirs.joined(separator: ", "))); "
                + "give a name or a file, for example --board \(names.contains("rpi-zero2w") ? "rpi-zero2w" : names[0]), or --board sim"
        }
        let why = argument.contains("/") || argument.hasSuffix(".json") ? "no such file" : "no such board"
        let near = boardSuggestion(argument, shipped: names + [BoardLoader.simulatedBoardName]).map { " (\($0))" } ?? ""
        return boardError(file: argument, field: "board", message: "\(why)\(near); \(hint)")
    }

    /// "did you mean 'rpi-zero2w'?" for a misspelt board: a name (`rpi-zer2w`,
    /// `rpi-zero2.json`) against the shipped boards' names, a path
    /// (`Boards/rpi-zero2.json`) against the board files in its directory.
    /// nil when nothing is close.
    public static func boardSuggestion(_ argument: String, shipped: [String]) -> String? {
        func stem(_ name: String) -> String { name.hasSuffix(".json") ? String(name.dropLast(5)) : name }
        guard argument.contains("/") else { return Spelling.didYouMean(stem(argument), among: shipped) }
        let directory = PathText.parent(argument)
        let typed = PathText.lastComponent(argument)
        guard !typed.isEmpty else { return nil }
        let files = FileSystem.directoryEntries(directory).filter { $0.hasSuffix(".json") }.sorted().prefix(256).map(stem)
        // `Boards/rpi5` (no .json) is `Boards/rpi5.json`.
        let near = files.contains(stem(typed)) ? [stem(typed)] : Spelling.suggestions(for: stem(typed), among: Array(files))
        let prefix = String(argument[..<argument.index(argument.endIndex, offsetBy: -typed.count)])
        return near.isEmpty ? nil : Spelling.didYouMean(near.map { prefix + $0 + ".json" })
    }

    /// A one-problem BoardError (its initializers are internal to BoardConfig:
    /// take the loader's own error for an empty text and reword it).
    static func boardError(file: String, field: String, message: String) -> BoardError {
        do {
            _ = try BoardLoader.parse("", file: file)
            fatalError("an empty board file parsed")
        } catch {
            var error = error
            guard var problem = error.problems.first else { return error }
            problem.line = 0
            problem.field = field
            problem.message = message
            error.problems = [problem]
            return error
        }
    }

    // MARK: demo scenarios

    /// The `demo --scenario` argument with a name (or the default) resolved
    /// in `<exe>/../share/wristcore/Scenarios` or `/usr/share/wristcore/Scenarios`
    /// when the working directory has no `Scenarios/` holding it; otherwise
    /// unchanged (DemoScenario.load then searches as it always did).
    public static func scenarioArgument(_ argument: String?, executablePath: String? = nil) -> String? {
        let name = argument ?? "default"
        if name.contains("/") { return argument }
        let file = name.hasSuffix(".scenario") ? name : name + ".scenario"
        if CurrentProcess.environment("WRISTCORE_SCENARIOS") != nil || FileSystem.isRegularFile(name) || FileSystem.isRegularFile("Scenarios/" + file) { return argument }
        let exe = executablePath ?? CurrentProcess.executablePath
        if let prefix = exe.map(installPrefix), FileSystem.isRegularFile(prefix + "/share/wristcore/Scenarios/" + file) {
            return prefix + "/share/wristcore/Scenarios/" + file
        }
        // Built in a checkout (.build/<triple>/release/wristcore): DemoScenario finds ../../../Scenarios itself.
        if let exe, FileSystem.isRegularFile(PathText.parent(exe, levels: 4) + "/Scenarios/" + file) { return argument }
        // make build STATIC=1 (.build/static/<triple>/release/wristcore): one directory deeper.
        if let exe, case let path = PathText.parent(exe, levels: 5) + "/Scenarios/" + file, FileSystem.isRegularFile(path) {
            return path
        }
        if FileSystem.isRegularFile(installedDataDirectory + "/Scenarios/" + file) { return installedDataDirectory + "/Scenarios/" + file }
        return argument
    }

    // MARK: helpers (no Foundation in start-up code; the file system through LinuxHAL)

    /// `/usr/bin/wristcore` -> `/usr`; `.build/release/wristcore` -> `.build`.
    static func installPrefix(_ executable: String) -> String { PathText.parent(executable, levels: 2) }

    static func colonList(_ value: String?) -> [String] {
        (value ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    static func unique(_ dirs: [String]) -> [String] {
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }
}
