import CLinux
import HAL

/// Whole files as bytes: the one way the watch reads a file it did not
/// write (board files, the settings file, scenarios, fonts, captures).
/// Opened without blocking (a FIFO at the path cannot hang the caller),
/// refused in one line unless it is a regular file (a FIFO, a device such as
/// /dev/zero, a directory), and never read past `limit` bytes (an endless or
/// huge file cannot grow the process). Blocking reads of a regular file, so
/// never on the run loop's hot path; the modules above get bytes, not paths.
public enum FileBytes {
    /// The bound when a caller names none: larger than any font or capture
    /// the tools read; board and settings files pass far smaller ones.
    public static let defaultLimit = 16 << 20

    /// The whole file.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(HALError) -> [UInt8] {
        guard let bytes = try readIfPresent(path, limit: limit) else {
            throw Errno.noEntry.halError("open \(path)")
        }
        return bytes
    }

    /// The whole file, at most `defaultLimit` bytes (see `readIfPresent(_:limit:)`).
    public static func readIfPresent(_ path: String) throws(HALError) -> [UInt8]? {
        try readIfPresent(path, limit: defaultLimit)
    }

    /// The whole file, or nil when there is no such file (ENOENT, or a
    /// path component that is not a directory). Throws when it exists but
    /// cannot be read (permissions, I/O), is not a regular file, or holds
    /// more than `limit` bytes.
    public static func readIfPresent(_ path: String, limit: Int) throws(HALError) -> [UInt8]? {
        guard let raw = try openIfPresent(path) else { return nil }
        defer { _ = CLinux.close(raw) }
        return try readAll(raw, regularFileStatus(raw, path), path: path, limit: limit)
    }

    /// The `fstat` of an open file, refused unless it is a regular file.
    static func regularFileStatus(_ raw: Int32, _ path: String) throws(HALError) -> stat {
        var status = stat()
        if fstat(raw, &status) != 0 { throw Errno.current.halError("stat \(path)") }
        if let problem = notRegular(status.st_mode, path) { throw problem }
        return status
    }

    /// What is left of an open regular file (`status`: its `regularFileStatus`),
    /// at most `limit` bytes; `path` names it in errors.
    static func readAll(_ raw: Int32, _ status: stat, path: String, limit: Int) throws(HALError) -> [UInt8] {
        if status.st_size > limit { throw tooLarge(path, limit) }
        // Sized from fstat (a /proc file says 0 and is read in chunks), never past limit + 1.
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                if count > limit { throw tooLarge(path, limit) }
                bytes += [UInt8](repeating: 0, count: min(max(4096, count), limit + 1 - count))
            }
            let n = bytes.withUnsafeMutableBytes { CLinux.read(raw, $0.baseAddress! + count, $0.count - count) }
            if n > 0 {
                count += n
            } else if n == 0 {
                if count > limit { throw tooLarge(path, limit) }
                bytes.removeLast(bytes.count - count)
                return bytes
            } else if Errno.current != .interrupted {
                throw Errno.current.halError("read \(path)")
            }
        }
    }

    /// `readIfPresent`, for a file that decides what the watch does (the
    /// wearer's settings) and so gets the state directory's rule, the one
    /// the bond store applies: refused when its group or others may write
    /// it, when it belongs to someone other than this user or root, or when
    /// its directory breaks the same rule (`AtomicFile.checkDirectory`).
    public static func readGuardedIfPresent(_ path: String, limit: Int) throws(HALError) -> [UInt8]? {
        guard let raw = try openIfPresent(path) else {
            // Nothing to open, but a symlink at the path is a file the wearer meant.
            var link = stat()
            if lstat(path, &link) == 0 {
                throw HALError(operation: "read \(path)", errno: ENOENT, reason: "a symlink to a file that does not exist")
            }
            return nil
        }
        defer { _ = CLinux.close(raw) }
        let status = try regularFileStatus(raw, path)
        if status.st_mode & 0o022 != 0 {
            throw HALError(
                operation: "read \(path)", errno: EPERM,
                reason: "others may write it (mode \(AtomicFile.octal(status.st_mode & 0o7777))); allowed: writable by its owner only (chmod go-w \(path))")
        }
        let euid = geteuid()
        if status.st_uid != euid && status.st_uid != 0 {
            throw HALError(
                operation: "read \(path)", errno: EPERM,
                reason: "owned by \(AtomicFile.userName(status.st_uid)); allowed: owned by \(AtomicFile.userName(euid)) (this user) or root")
        }
        try AtomicFile.checkDirectory(AtomicFile.split(path).directory)
        return try readAll(raw, status, path: path, limit: limit)
    }

    /// A one-line reason when `mode` is not a regular file's, naming what it is.
    static func notRegular(_ mode: mode_t, _ path: String) -> HALError? {
        if (mode & wc_s_ifmt()) == wc_s_ifreg() { return nil }
        return HALError(operation: "read \(path)", errno: EINVAL, reason: "not a regular file (\(AtomicFile.kind(of: mode)))")
    }

    static func tooLarge(_ path: String, _ limit: Int) -> HALError {
        HALError(operation: "read \(path)", errno: EFBIG, reason: "larger than \(limit) bytes, the most this kind of file may hold")
    }

    /// Creates or replaces `path` with `bytes` (mode 0644 before the umask).
    /// Not atomic: for tool output; the bond store uses `AtomicFile`.
    public static func write(_ bytes: [UInt8], to path: String) throws(HALError) {
        var raw: Int32
        repeat { raw = wc_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while raw < 0 && Errno.current == .interrupted
        if raw < 0 { throw Errno.current.halError("create \(path)") }
        defer { _ = CLinux.close(raw) }
        try writeAll(raw, bytes, path: path)
    }

    /// Creates `path` with `bytes`, owner-only (0600), never through a
    /// symbolic link and never over an existing file (`O_EXCL|O_NOFOLLOW`):
    /// a request another program acts on (the power-off request). False
    /// when the file already exists (the request is already there).
    @discardableResult
    public static func createExclusive(_ bytes: [UInt8], at path: String) throws(HALError) -> Bool {
        var raw: Int32
        repeat {
            raw = wc_open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        } while raw < 0 && Errno.current == .interrupted
        if raw < 0 {
            if Errno.current == Errno(EEXIST) { return false }
            throw Errno.current.halError("create \(path)")
        }
        defer { _ = CLinux.close(raw) }
        try writeAll(raw, bytes, path: path)
        return true
    }

    /// Writes all of `bytes` to an open descriptor (retried on EINTR; a
    /// write that makes no progress is an error, not a spin); `path` names
    /// it in errors.
    static func writeAll(_ raw: Int32, _ bytes: [UInt8], path: String) throws(HALError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { CLinux.write(raw, $0.baseAddress! + written, $0.count - written) }
            if n > 0 {
                written += n
            } else if n == 0 {
                throw HALError(operation: "write \(path)", errno: EIO, reason: "no progress")
            } else if Errno.current != .interrupted {
                throw Errno.current.halError("write \(path)")
            }
        }
    }

    /// `open(path, O_RDONLY | O_NONBLOCK)` (retried on EINTR), or nil when
    /// there is no such file (ENOENT, or a path component that is not a
    /// directory). Non-blocking, so a FIFO opens at once (and is then refused
    /// by its mode) instead of waiting for a writer; a regular file reads as
    /// usual. The caller closes the descriptor.
    static func openIfPresent(_ path: String) throws(HALError) -> Int32? {
        var raw: Int32
        repeat { raw = wc_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0) } while raw < 0 && Errno.current == .interrupted
        if raw < 0 {
            let e = Errno.current
            if e == .noEntry || e == Errno(ENOTDIR) { return nil }
            throw e.halError("open \(path)")
        }
        return raw
    }
}
