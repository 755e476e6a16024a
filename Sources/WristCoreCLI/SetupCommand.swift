import BoardConfig
import CommandLineOptions
import CLinux
import HAL
import LinuxHAL
import WristCore

/// `wristcore setup --board NAME|FILE`: chooses the board the service runs
/// with. Validates the board file with the same loader `run` uses, then
/// copies it (comments and all) to /etc/wristcore/board.json, the file
/// wristcore.service needs before it starts (ConditionPathExists=).
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

            Examples:
              sudo wristcore setup --board rpi-zero2w
              sudo wristcore setup --board ./my-board.json
              wristcore setup --list
            """,
        parameters: [
            .option("board", valueName: "name|file", help: "A shipped board's name, or a board file."),
            .flag("list", help: "List the shipped boards and exit."),
            .option("to", valueName: "file", default: ResourcePaths.configuredBoard, help: "Where to install the board file."),
        ] + GlobalOptions.parameters
    )

    var board: String?
    var list: Bool
    var to: String
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        board = arguments.value("board")
        list = arguments.flag("list")
        to = arguments.required("to")
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        if list == (board != nil) { throw UsageError("give --board NAME|FILE (or --list to see the shipped boards)") }
    }

    func run() throws(WristCoreFailure) {
        if list {
            let boards = ResourcePaths.shippedBoards().filter { $0.name != BoardLoader.simulatedBoardName }
            if boards.isEmpty {
                throw WristCoreFailure(
                    "no shipped board files found (looked in: \(ResourcePaths.boardSearchPath().joined(separator: ", ")))")
            }
            for b in boards {
                let name = (try? BoardLoader.load(path: b.path))?.name ?? "(has problems: wristcore doctor --board \(b.path))"
                print(b.name + String(repeating: " ", count: max(1, 17 - b.name.count)) + name)
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
        let loaded: Board
        let bytes: [UInt8]
        do throws(BoardError) {
            let checked = try ResourcePaths.loadCheckedBoard(argument: source)
            loaded = checked.board
            bytes = checked.bytes ?? []
        } catch {
            throw error.commandFailure  // every problem, field by field: exit 2
        }
        if let current = try? FileBytes.readIfPresent(to, limit: BoardLoader.maxFileBytes), current == bytes {
            print("\(to) already holds \(loaded.name) (\(source))")
        } else {
            try install(bytes, at: to)
            print("\(to): \(loaded.name) (from \(source))")
        }
        print("""

            Next:
              check the wiring:  sudo wristcore doctor --board \(to)
              start the watch:   sudo systemctl disable --now bluetooth.service   # the watch owns the controller
                                 sudo systemctl enable --now wristcore.service
              pair your iPhone:  journalctl -u wristcore -f   # shows the six-digit number to compare
            """)
    }

    /// Installs the file with LinuxHAL's atomic writer: a temporary file
    /// created O_EXCL|O_NOFOLLOW beside it, fsynced, renamed into place, the
    /// directory fsynced (the service never sees half a board file), mode
    /// 0644. The directory must be safe to write into, as the state
    /// directory must: not group- or world-writable, owned by this user or
    /// root (docs/boards.md); it is created (0755) when missing.
    func install(_ bytes: [UInt8], at path: String) throws(WristCoreFailure) {
        let directory = PathText.parent(path)
        do throws(HALError) {
            if !FileSystem.exists(directory) { try FileSystem.createDirectories(directory, mode: 0o755) }
            try AtomicFile.write(path, bytes, mode: 0o644)
        } catch {
            let denied = error.errno == EACCES || error.errno == EPERM
            let hint = denied && geteuid() != 0 ? " (run it as root: sudo wristcore setup ...)" : ""
            throw WristCoreFailure("cannot install \(path): \(error)\(hint)")
        }
    }
}
