import BoardConfig
import HAL
import LinuxHAL

/// Board files read from disk: BoardConfig only parses bytes, so the file
/// is read here with LinuxHAL (for the daemon, the CLI and the bench tools).
extension BoardLoader {
    /// Loads `--board` ARG: a path, or `sim` (Boards/sim.json when it exists
    /// next to the working directory, else the built-in simulated board).
    public static func load(argument: String) throws(BoardError) -> Board {
        try loadChecked(argument: argument).board
    }

    /// Loads and validates the board file at `path`.
    public static func load(path: String) throws(BoardError) -> Board {
        try load(path: path, readFile: readBoardFile)
    }

    /// `load(argument:)` with the bytes it validated (nil for the built-in
    /// simulated board): what `setup` installs and a restart hands over.
    public static func loadChecked(argument: String) throws(BoardError) -> (board: Board, bytes: [UInt8]?) {
        var read: [UInt8]?
        let board = try load(argument: argument) { path throws(HALError) in
            read = try readBoardFile(path)
            return read
        }
        return (board, read)
    }

    /// A board file: a regular file, read once, at most `maxFileBytes`.
    static func readBoardFile(_ path: String) throws(HALError) -> [UInt8]? {
        try FileBytes.readIfPresent(path, limit: maxFileBytes)
    }
}
