/// The files of the watch's state directory (the bond store) as the layers
/// above see them: whole small files, read at once and replaced atomically,
/// so a crash or power loss leaves either the old or the new complete file.
///
/// LinuxHAL's `AtomicFileStore` does it with a temporary file, fsync, rename
/// and an fsync of the directory; tests may keep the files in memory.
public protocol StateFileStore {
    /// The whole file, or nil when it does not exist.
    func read(_ path: String) throws(HALError) -> [UInt8]?
    /// Replaces `path` with `bytes` atomically and durably, with permission bits `mode`.
    func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32) throws(HALError)
    /// Renames `path` to `destination` (a damaged file kept aside for a human to look at).
    func moveAside(_ path: String, to destination: String) throws(HALError)
    /// Creates the directory `path` (and missing parents) with `mode` when it does not exist.
    func ensureDirectory(_ path: String, mode: UInt32) throws(HALError)
}
