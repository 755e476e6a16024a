import BoardConfig
import HAL
import LinuxHAL

/// Board files read from disk: BoardConfig only parses bytes, so the
/// composition root (and the CLI through it) reads the file with LinuxHAL.
extension BoardLoader {
    /// Loads `--board` ARG: a path, or `sim` (Boards/sim.json when it exists
    /// next to the working directory, else the built-in simulated board).
    public static func load(argument: String) throws(BoardError) -> Board {
        try load(argument: argument, readFile: FileBytes.readIfPresent)
    }

    /// Loads and validates the board file at `path`.
    public static func load(path: String) throws(BoardError) -> Board {
        try load(path: path, readFile: FileBytes.readIfPresent)
    }
}
