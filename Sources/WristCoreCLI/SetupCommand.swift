import BoardConfig
import CLinux
import CommandLineOptions
import HAL
import LinuxHAL
import TextFormat
import WatchFiles
import WristCore

/// `wristcore setup --board NAME|FILE`: chooses the board the service runs
/// with. Validates the board file with the same loader `run` uses, then
/// copies it (comments and all) to /etc/wristcore/board.json, the file
/// wristcore.service needs before it starts (ConditionPathExists=). A board
/// with a button variant (rpi-zero2w: four buttons, rpi-zero2w-2buttons: two)
/// is chosen by `--buttons N`, or by asking on a terminal.
struct SetupCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "setup",
        abstract: "Choose this watch's board: validate a board file and install it as /etc/wristcore/board.json.",
        discussion: """
            --board takes the name of a shipped board (rpi-zero2w, rpi5, orangepi-zero3... \
            see --list; the package installs them in /usr/share/wristcore/Boards) or the \
            path of your own board file (docs/boards.md; start from generic.json). The file \
            is checked field by field exactly as 'wristcore run' checks it; nothing is \
            written when it has a problem. The service (wristcore.service) does not start \
            until this file exists.

            A board that comes with and without its optional buttons (rpi-zero2w: positive, \
            negative, select and back; rpi-zero2w-2buttons: positive and negative only, \
            long and double presses doing the rest) asks which buttons are wired when run \
            on a terminal; --buttons N answers without asking (scripts: without a terminal \
            and without --buttons, the board named is installed).

            Examples:
              sudo wristcore setup --board rpi-zero2w
              sudo wristcore setup --board rpi-zero2w --buttons 2
              sudo wristcore setup --board ./my-board.json
              wristcore setup --list
            """,
        parameters: [
            .option("board", valueName: "name|file", help: "A shipped board's name, or a board file."),
            .option(
                "buttons", valueName: "n", value: .integer(in: 2...6),
                help: "How many buttons are wired: installs the board's variant with that many (rpi-zero2w: 4 or 2)."),
            .flag("list", help: "List the shipped boards and exit."),
            .option(
                "to", valueName: "file", default: ResourcePaths.configuredBoard,
                help: "Where to install the board file. Its directory must be writable by its owner only, root or you: a group- or world-writable one (/tmp too, sticky bit or not) is refused."),
        ] + GlobalOptions.parameters
    )

    var board: String?
    var buttons: Int?
    var list: Bool
    var to: String
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        board = arguments.value("board")
        buttons = arguments.integer("buttons")
        list = arguments.flag("list")
        to = arguments.required("to")
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        if list == (board != nil) { throw UsageError("give --board NAME|FILE (or --list to see the shipped boards)") }
        if list, buttons != nil { throw UsageError("--buttons goes with --board, not --list") }
    }

    func run() throws(WristCoreFailure) {
        if list {
            let boards = ResourcePaths.shippedBoards().filter { $0.name != BoardLoader.simulatedBoardName }
            if boards.isEmpty {
                throw WristCoreFailure(
                    "no shipped board files found (looked in: \(ResourcePaths.boardSearchPath().joined(separator: ", ")))")
            }
            let width = (boards.map { $0.name.count }.max() ?? 0) + 2
            for b in boards {
                let name = (try? BoardLoader.load(path: b.path))?.name ?? "(has problems: wristcore doctor --board \(b.path))"
                print(b.name + String(repeating: " ", count: max(1, width - b.name.count)) + name)
            }
            return
        }
        guard let board else { return }
        let source: String
        switch ResourcePaths.locateBoard(board) {
        case .simulator:
            throw WristCoreFailure(
                "the simulated board needs no setup: try it with 'wristcore run --board sim' or 'wristcore demo'",
                exitCode: WristCoreExit.usageOrConfiguration)
        case .notFound(let argument, _):
            throw ResourcePaths.boardMissing(argument).commandFailure
        case .file(let path):
            source = path
        }
        // The bytes validated are the bytes installed: read once, checked, written.
        let named: BoardVariants.Variant
        do throws(BoardError) {
            let checked = try ResourcePaths.loadCheckedBoard(argument: source)
            named = BoardVariants.Variant(path: source, board: checked.board, bytes: checked.bytes ?? [])
        } catch {
            throw error.commandFailure  // every problem, field by field: exit 2
        }
        let variants = BoardVariants.variants(of: named)
        var chosen = named
        var asked = false
        if let buttons {
            chosen = try BoardVariants.choose(buttons: buttons, among: variants)
        } else if variants.count > 1, let terminal = Terminal() {
            chosen = try ask(terminal, variants, default: named)
            asked = true
        }
        let (loaded, bytes, from) = (chosen.board, chosen.bytes, chosen.path)
        try checkTargetDirectory(of: to)
        if let current = try? FileBytes.readIfPresent(to, limit: BoardLoader.maxFileBytes), current == bytes {
            print("\(to) already holds \(loaded.name) (\(from))")
        } else {
            try install(bytes, at: to)
            print("\(to): \(loaded.name) (from \(from))")
        }
        // Not asked (no terminal): say that the other variant exists, and how to choose it.
        if buttons == nil, !asked, let other = variants.first(where: { $0.path != named.path }) {
            print("(\(loaded.buttons.count) buttons: \(BoardVariants.roles(loaded)); with \(other.buttonCount) wired use --buttons \(other.buttonCount), which installs \(PathText.lastComponent(other.path)))")
        }
        print("""

            Next:
              check the wiring:  sudo wristcore doctor --board \(to)
              start the watch:   sudo systemctl disable --now bluetooth.service   # the watch owns the controller
                                 sudo systemctl enable --now wristcore.service
              pair your iPhone:  journalctl -u wristcore -f   # shows the six-digit number to compare
            """)
    }

    /// Asks which buttons are wired, until the answer is one of the variants
    /// (or nothing: the board named); three wrong answers or the end of
    /// input install nothing (exit 2).
    func ask(_ terminal: Terminal, _ variants: [BoardVariants.Variant], default named: BoardVariants.Variant) throws(WristCoreFailure) -> BoardVariants.Variant {
        for _ in 0..<3 {
            terminal.write(BoardVariants.question(variants, default: named))
            guard let line = terminal.readLine() else { break }
            if let v = BoardVariants.answer(line, among: variants, default: named) { return v }
            terminal.write("Please answer \(variants.map { String($0.buttonCount) }.joined(separator: " or ")), or press Enter for \(named.buttonCount).\n")
        }
        throw WristCoreFailure(
            "no answer to which buttons are wired; nothing installed (give --buttons \(variants.map { String($0.buttonCount) }.joined(separator: "|")))",
            exitCode: WristCoreExit.usageOrConfiguration)
    }

    /// --to's rule, before anything is read or written there: its directory
    /// must be a configuration directory (`AtomicFile.DirectoryUse.configuration`:
    /// writable by its owner only, sticky bit or not, and that owner root or
    /// this user; docs/boards.md). A refused one is the command line's
    /// fault: exit 2. A missing one is fine (`install` creates it).
    func checkTargetDirectory(of path: String) throws(WristCoreFailure) {
        let directory = PathText.parent(path)
        guard let owner = AtomicFile.owner(of: directory),
            let problem = AtomicFile.problem(with: owner, directory: directory, euid: geteuid(), use: .configuration)
        else { return }
        throw WristCoreFailure("cannot install \(path): \(problem)", exitCode: WristCoreExit.usageOrConfiguration)
    }

    /// Installs the file with LinuxHAL's atomic writer: a temporary file
    /// created O_EXCL|O_NOFOLLOW beside it, fsynced, renamed into place, the
    /// directory fsynced (the service never sees half a board file), mode
    /// 0644, owned by the directory's owner. The writer checks the
    /// directory again, on the descriptor it writes through; it is created
    /// (0755) when missing.
    func install(_ bytes: [UInt8], at path: String) throws(WristCoreFailure) {
        let directory = PathText.parent(path)
        do throws(HALError) {
            if !FileSystem.exists(directory) { try FileSystem.createDirectories(directory, mode: 0o755) }
            try AtomicFile.write(path, bytes, mode: 0o644, use: .configuration)
        } catch {
            throw installFailure(path, error)
        }
    }

    /// "cannot install PATH: why", with a hint to use sudo when permission was denied.
    func installFailure(_ path: String, _ error: HALError) -> WristCoreFailure {
        let denied = error.errno == EACCES || error.errno == EPERM
        let hint = denied && geteuid() != 0 ? " (run it as root: sudo wristcore setup ...)" : ""
        return WristCoreFailure("cannot install \(path): \(error)\(hint)")
    }
}
