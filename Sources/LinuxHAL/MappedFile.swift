import CLinux
import HAL

/// A whole file mapped read-only into memory (`mmap`, `MAP_PRIVATE`), unmapped
/// when the last reference goes. For large read-mostly data loaded at start-up
/// (the fonts): only the pages actually read are resident, and they are clean
/// page-cache pages the kernel can drop and read again, where a heap copy
/// would be private memory for the process's whole life.
///
/// The file must not be truncated or rewritten in place while mapped (reading
/// a page past its new end raises SIGBUS); replacing it by rename, as package
/// managers do, is safe: the mapping keeps the old file.
public final class MappedFile: @unchecked Sendable {
    // Immutable after init; the mapping is read-only, so sharing between threads is safe.
    private let base: UnsafeMutableRawPointer?
    /// The file's length in bytes.
    public let count: Int

    /// The file's bytes, valid while this object lives.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Maps `path`, or returns nil when there is no such file (ENOENT, or a
    /// path component that is not a directory). Throws when it exists but
    /// cannot be opened or mapped (permissions, a directory, I/O).
    public static func mapIfPresent(_ path: String) throws(HALError) -> MappedFile? {
        guard let raw = try FileBytes.openIfPresent(path) else { return nil }
        // The mapping keeps the file; the descriptor is not needed after mmap.
        defer { _ = CLinux.close(raw) }
        var status = stat()
        guard fstat(raw, &status) == 0 else { throw Errno.current.halError("stat \(path)") }
        guard status.st_mode & wc_s_ifmt() == wc_s_ifreg() else {
            throw HALError(operation: "map \(path)", errno: EISDIR, reason: "not a regular file")
        }
        let count = Int(status.st_size)
        // An empty file cannot be mapped; it is zero bytes, which callers reject as they would a read.
        if count == 0 { return MappedFile(base: nil, count: 0) }
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, raw, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw Errno.current.halError("mmap \(path)")
        }
        return MappedFile(base: base, count: count)
    }

    private init(base: UnsafeMutableRawPointer?, count: Int) {
        self.base = base
        self.count = count
    }

    /// Lets go of the pages read so far (`MADV_DONTNEED`): after a start-up
    /// pass over the whole file (validation), only the pages read afterwards
    /// become resident again. The contents are unchanged: the pages come back
    /// from the page cache (or the file) when read.
    public func releaseResidentPages() {
        guard let base else { return }
        _ = madvise(base, count, MADV_DONTNEED)
    }

    deinit {
        if let base { _ = munmap(base, count) }
    }
}
