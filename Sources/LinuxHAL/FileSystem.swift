import Glibc
import HAL

/// What a path names, and directories made on demand, for start-up code and
/// tools (scenario search, the demo's PNG folder) that would otherwise need
/// Foundation's FileManager. Blocking; never on the run loop's hot path.
public enum FileSystem {
    public enum Kind: Equatable, Sendable { case regularFile, directory, other }

    /// What `path` is (symlinks followed), nil when there is nothing there.
    public static func kind(of path: String) -> Kind? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        switch s.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Creates `path` and its missing parents (`mkdir -p`) with `mode`
    /// before the umask. Fine when it already is a directory; throws when
    /// something else is in the way or a mkdir fails.
    public static func createDirectories(_ path: String, mode: mode_t = 0o755) throws(HALError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, mode) != 0 {
                let e = Errno.current
                if e.rawValue != EEXIST { throw e.halError("create directory \(partial)") }
                if kind(of: partial) != .directory {
                    throw HALError(operation: "create directory \(partial)", errno: ENOTDIR, reason: "a file is in the way")
                }
            }
        }
    }
}
