import BoardConfig
import CommandLineOptions
import CLinux
import HAL
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
        let loaded: Board
        do throws(BoardError) { loaded = try BoardLoader.load(path: source) } catch {
            throw error.commandFailure  // every problem, field by field: exit 2
        }
        let bytes = try readFile(source)
        if let current = try? readFile(to), current == bytes {
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

    /// The whole file, or a failure naming it.
    func readFile(_ path: String) throws(WristCoreFailure) -> [UInt8] {
        let fd = wc_open(path, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw WristCoreFailure("cannot read \(path): \(String(cString: strerror(wc_errno())))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && wc_errno() == EINTR { continue }
            guard n >= 0 else { throw WristCoreFailure("cannot read \(path): \(String(cString: strerror(wc_errno())))") }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// Writes the file next to its destination, mode 0644, flushes it, then
    /// renames it into place: the service never sees half a board file.
    func install(_ bytes: [UInt8], at path: String) throws(WristCoreFailure) {
        func failure(_ what: String) -> WristCoreFailure {
            let reason = String(cString: strerror(wc_errno()))
            let hint = wc_errno() == EACCES || wc_errno() == EPERM || wc_errno() == EROFS ? " (run it as root: sudo wristcore setup ...)" : ""
            return WristCoreFailure("cannot \(what): \(reason)\(hint)")
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if access(directory, F_OK) != 0 && mkdir(directory, 0o755) != 0 { throw failure("create \(directory)") }
        var template = Array((path + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("write in \(directory)") }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = fchmod(fd, 0o644) == 0
        var offset = 0
        while ok && offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && wc_errno() == EINTR { continue }
            if n <= 0 { ok = false } else { offset += n }
        }
        if ok { ok = fsync(fd) == 0 }
        let writeError: WristCoreFailure? = ok ? nil : failure("write \(temporary)")
        close(fd)
        if let writeError {
            unlink(temporary)
            throw writeError
        }
        if rename(temporary, path) != 0 {
            let renameError = failure("replace \(path)")
            unlink(temporary)
            throw renameError
        }
    }
}
