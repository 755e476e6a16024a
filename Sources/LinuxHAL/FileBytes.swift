import CLinux
import HAL

/// Whole files as bytes, for start-up and command-line tools (fonts, captures,
/// screenshots). Blocking, so never on the run loop's hot path; the modules
/// above get bytes, not paths.
public enum FileBytes {
    /// The whole file.
    public static func read(_ path: String) throws(HALError) -> [UInt8] {
        guard let bytes = try readIfPresent(path) else {
            throw Errno.noEntry.halError("open \(path)")
        }
        return bytes
    }

    /// The whole file, or nil when there is no such file (ENOENT, or a
    /// path component that is not a directory). Throws when it exists but
    /// cannot be read (permissions, a directory, I/O).
    public static func readIfPresent(_ path: String) throws(HALError) -> [UInt8]? {
        guard let raw = try openIfPresent(path) else { return nil }
        defer { _ = CLinux.close(raw) }
        var status = stat()
        var bytes: [UInt8] = []
        if fstat(raw, &status) == 0, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { CLinux.read(raw, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes.append(contentsOf: chunk[0..<n])
            } else if n == 0 {
                return bytes
            } else if Errno.current != .interrupted {
                throw Errno.current.halError("read \(path)")
            }
        }
    }

    /// Creates or replaces `path` with `bytes` (mode 0644 before the umask).
    /// Not atomic: for tool output; the bond store uses `AtomicFile`.
    public static func write(_ bytes: [UInt8], to path: String) throws(HALError) {
        var raw: Int32
        repeat { raw = wc_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while raw < 0 && Errno.current == .interrupted
        if raw < 0 { throw Errno.current.halError("create \(path)") }
        defer { _ = CLinux.close(raw) }
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

    /// `open(path, O_RDONLY)` (retried on EINTR), or nil when there is no
    /// such file (ENOENT, or a path component that is not a directory).
    /// The caller closes the descriptor.
    static func openIfPresent(_ path: String) throws(HALError) -> Int32? {
        var raw: Int32
        repeat { raw = wc_open(path, O_RDONLY | O_CLOEXEC, 0) } while raw < 0 && Errno.current == .interrupted
        if raw < 0 {
            let e = Errno.current
            if e == .noEntry || e == Errno(ENOTDIR) { return nil }
            throw e.halError("open \(path)")
        }
        return raw
    }
}
