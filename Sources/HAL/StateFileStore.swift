/// The files of the watch's state directory (the bond store) as the layers
/// above see them: whole small files, read at once and replaced atomically,
/// so a crash or power loss leaves either the old or the new complete file.
///
/// LinuxHAL's `AtomicFileStore` does it with an exclusively created
/// temporary file (never through a symlink), fsync, rename and an fsync of
/// the directory; files root writes keep the directory owner's ownership;
/// tests may keep the files in memory.
public protocol StateFileStore {
    /// The whole file, or nil when it does not exist.
    func read(_ path: String) throws(HALError) -> [UInt8]?
    /// Replaces `path` with `bytes` atomically and durably, with permission bits `mode`.
    func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32) throws(HALError)
    /// Renames `path` to `destination` (a damaged file kept aside for a
    /// human to look at). Never replaces an existing `destination`: that
    /// fails (EEXIST), as does a missing `path` (ENOENT).
    func moveAside(_ path: String, to destination: String) throws(HALError)
    /// Removes `path`; a missing file is fine.
    func remove(_ path: String) throws(HALError)
    /// Whether anything is at `path`.
    func exists(_ path: String) -> Bool
    /// Creates the directory `path` (and missing parents) with `mode` when it does not exist.
    func ensureDirectory(_ path: String, mode: UInt32) throws(HALError)
}

extension HALError {
    /// Linux errno values the state files' callers tell apart (HAL has no Glibc).
    public enum FileErrno {
        public static let permissionDenied: Int32 = 13  // EACCES
        public static let notPermitted: Int32 = 1  // EPERM
        public static let noSpace: Int32 = 28  // ENOSPC
        public static let readOnlyFileSystem: Int32 = 30  // EROFS
        public static let quotaExceeded: Int32 = 122  // EDQUOT
        public static let inputOutput: Int32 = 5  // EIO
    }

    /// The filesystem is full (ENOSPC) or the user's quota is (EDQUOT).
    public var isOutOfSpace: Bool { errno == FileErrno.noSpace || errno == FileErrno.quotaExceeded }
}
