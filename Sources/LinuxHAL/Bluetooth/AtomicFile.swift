import Glibc
import HAL

/// Small files that must never be seen half-written (the bond store): each
/// write goes to `<path>.tmp`, is fsynced, renamed over `<path>`, and the
/// directory is fsynced, so after a crash or power loss the file is either
/// the old or the new complete version. A torn `.tmp` left behind is simply
/// overwritten by the next write.
public enum AtomicFile {
    /// The whole file, or nil when it does not exist.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(HALError) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let e = Errno.current
            if e == .noEntry { return nil }
            throw e.halError("open \(path)")
        }
        defer { _ = Glibc.close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let e = Errno.current
                if e == .interrupted { continue }
                throw e.halError("read \(path)")
            }
            if n == 0 { return out }
            out += chunk[0..<n]
            if out.count > limit { throw HALError(operation: "read \(path)", errno: EFBIG, reason: "larger than \(limit) bytes") }
        }
    }

    /// Replaces `path` with `bytes` atomically and durably, with `mode` (default 0600).
    public static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws(HALError) {
        let temporary = path + ".tmp"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        if fd < 0 { throw Errno.current.halError("create \(temporary)") }
        var ok = false
        defer { if !ok { _ = Glibc.close(fd); _ = unlink(temporary) } }
        // The umask may have cleared bits; an existing file keeps its old mode otherwise.
        if fchmod(fd, mode) != 0 { throw Errno.current.halError("chmod \(temporary)") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                let e = Errno.current
                if e == .interrupted { continue }
                throw e.halError("write \(temporary)")
            }
            written += n
        }
        if fsync(fd) != 0 { throw Errno.current.halError("fsync \(temporary)") }
        ok = true
        if Glibc.close(fd) != 0 { throw Errno.current.halError("close \(temporary)") }
        if rename(temporary, path) != 0 { throw Errno.current.halError("rename \(temporary) to \(path)") }
        try syncDirectory(of: path)
    }

    /// Removes `path` (missing is fine) durably.
    public static func remove(_ path: String) throws(HALError) {
        if unlink(path) != 0 {
            let e = Errno.current
            if e == .noEntry { return }
            throw e.halError("remove \(path)")
        }
        try syncDirectory(of: path)
    }

    /// Renames a file (for keeping a corrupt file aside).
    public static func move(_ from: String, to: String) throws(HALError) {
        if rename(from, to) != 0 { throw Errno.current.halError("rename \(from) to \(to)") }
        try syncDirectory(of: to)
    }

    /// Creates `path` (and missing parents) with `mode` when it does not exist.
    public static func ensureDirectory(_ path: String, mode: mode_t = 0o700) throws(HALError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, mode) != 0 {
                let e = Errno.current
                if e.rawValue != EEXIST { throw e.halError("create directory \(partial)") }
            }
        }
    }

    /// Whether this process may create files in `path` (an existing directory).
    public static func isWritableDirectory(_ path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR && access(path, W_OK | X_OK) == 0
    }

    /// The permission bits of `path`, or nil when it does not exist.
    public static func mode(of path: String) -> mode_t? {
        var s = stat()
        return stat(path, &s) == 0 ? s.st_mode & 0o7777 : nil
    }

    static func syncDirectory(of path: String) throws(HALError) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw Errno.current.halError("open directory \(directory)") }
        defer { _ = Glibc.close(fd) }
        if fsync(fd) != 0 { throw Errno.current.halError("fsync directory \(directory)") }
    }
}
