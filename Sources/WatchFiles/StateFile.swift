import HAL
import LinuxHAL
import Log

/// One file the daemon keeps in its state directory (the alarms, the apps
/// muted from the wrist, the notification list): read once at start through
/// the guarded reader (a regular file, at most `limit` bytes: the bytes
/// validated are the bytes used), replaced whole through the state-file
/// store the bonds use (a temporary file created `O_EXCL|O_NOFOLLOW`, mode
/// 0600, renamed over it; the directory made 0700 if missing).
public struct StateFile {
    public let path: String
    let directory: String
    let files = AtomicFileStore()

    public init(stateDirectory: String, name: String) {
        directory = stateDirectory
        path = stateDirectory + "/" + name
    }

    /// The file's bytes; nil when there is none, or when it cannot be read
    /// (logged with `otherwise`, what the watch does instead).
    func read(limit: Int, logger: Logger, otherwise: String) -> [UInt8]? {
        do throws(HALError) {
            return try FileBytes.readGuardedIfPresent(path, limit: limit)
        } catch {
            logger.warning("\(path): \(error); \(otherwise)")
            return nil
        }
    }

    /// Replaces the file with `bytes`, owner-only; no bytes remove it.
    public func replace(with bytes: [UInt8]) throws(HALError) {
        if bytes.isEmpty { return try files.remove(path) }
        try files.ensureDirectory(directory, mode: 0o700)
        try files.writeAtomically(path, bytes, mode: 0o600)
    }

    /// Deletes the file (missing is fine).
    public func remove() throws(HALError) { try files.remove(path) }
}
