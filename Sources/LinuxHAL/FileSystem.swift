import CLinux
import HAL

/// What start-up code and tools ask of the file system when they look for
/// their data (fonts, board files, scenarios) or make a folder (the demo's
/// PNG frames): what a path names, what a directory holds, `mkdir -p`. It
/// would otherwise need Foundation's FileManager. Nothing here opens a file
/// for reading or writing (that is `FileBytes`). Blocking; never on the run
/// loop's hot path.
public enum FileSystem {
    public enum Kind: Equatable, Sendable { case regularFile, directory, other }

    /// What `path` is (symlinks followed), nil when there is nothing there.
    public static func kind(of path: String) -> Kind? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        switch s.st_mode & wc_s_ifmt() {
        case wc_s_ifreg(): return .regularFile
        case wc_s_ifdir(): return .directory
        default: return .other
        }
    }

    /// True when `path` names anything (a file, a directory, a device...).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// True when `path` is a regular file (symlinks followed).
    public static func isRegularFile(_ path: String) -> Bool { kind(of: path) == .regularFile }

    /// The names in a directory (without "." and ".."), unsorted; empty when
    /// it cannot be read.
    public static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
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
