import HAL
import LinuxHAL
import Log
import Notifications

/// The notification list's file in the state directory
/// (`NotificationHistory`, docs/settings.md "Notification history"): read
/// once at start through the guarded reader (a regular file, bounded by
/// `NotificationHistory.maximumFileBytes`, the state directory's owner and
/// mode rule; the bytes validated are the bytes used), replaced through the
/// state-file store the bonds and Do Not Disturb use (a temporary file
/// created `O_EXCL|O_NOFOLLOW`, mode 0600, renamed over it; the directory
/// owner's ownership kept when root writes).
public struct HistoryFile {
    public let path: String
    let directory: String
    let files = AtomicFileStore()

    public init(stateDirectory: String) {
        directory = stateDirectory
        path = stateDirectory + "/" + NotificationHistory.fileName
    }

    /// Where a file that cannot be used is set aside (one kept: the newest).
    public var setAsidePath: String { path + ".damaged" }

    /// The kept list, oldest first; empty when there is none. A file that
    /// cannot be used (damaged, too large, another version, not a regular
    /// file, unsafe owner or mode) is set aside and logged once: the watch
    /// starts with an empty list.
    public func load(logger: Logger) -> [NotificationHistory.Entry] {
        let reason: String
        do throws(HALError) {
            guard let bytes = try FileBytes.readGuardedIfPresent(path, limit: NotificationHistory.maximumFileBytes) else { return [] }
            do throws(NotificationHistory.DecodeError) {
                return try NotificationHistory.decode(bytes)
            } catch {
                reason = error.description
            }
        } catch {
            guard files.exists(path) else { return [] }
            reason = error.reason
        }
        do throws(HALError) {
            try? files.remove(setAsidePath)
            try files.moveAside(path, to: setAsidePath)
            logger.warning("\(path): \(reason); set aside as \(setAsidePath), the list starts empty")
        } catch {
            logger.warning("\(path): \(reason), and it cannot be set aside (\(error)); the list starts empty")
        }
        return []
    }

    /// Replaces the file with `bytes` atomically, owner-only (0600).
    public func write(_ bytes: [UInt8]) throws(HALError) {
        try files.ensureDirectory(directory, mode: 0o700)
        try files.writeAtomically(path, bytes, mode: 0o600)
    }

    /// Deletes the file (missing is fine): `wristcore forget`, `history clear`.
    public func remove() throws(HALError) {
        try files.remove(path)
    }
}
