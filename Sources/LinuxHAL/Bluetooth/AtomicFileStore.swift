import HAL

/// The state directory's files on disk, through `AtomicFile`: exclusive
/// temporary file (never through a symlink), fsync, rename, fsync of the
/// directory; the directory's owner keeps owning what root writes; a
/// group- or world-writable directory, or one of another user, is refused.
public struct AtomicFileStore: StateFileStore {
    public init() {}

    public func read(_ path: String) throws(HALError) -> [UInt8]? { try AtomicFile.read(path) }

    public func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32) throws(HALError) {
        try AtomicFile.write(path, bytes, mode: mode)
    }

    public func moveAside(_ path: String, to destination: String) throws(HALError) {
        try AtomicFile.move(path, to: destination)
    }

    public func remove(_ path: String) throws(HALError) {
        try AtomicFile.remove(path)
    }

    public func exists(_ path: String) -> Bool { AtomicFile.exists(path) }

    public func ensureDirectory(_ path: String, mode: UInt32) throws(HALError) {
        try AtomicFile.ensureDirectory(path, mode: mode)
    }
}
