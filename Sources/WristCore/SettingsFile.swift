import BoardConfig
import HAL
import Haptics
import LinuxHAL
import Loop
import Watch

/// The wearer's files in the state directory (next to the bonds): the
/// settings file, read through LinuxHAL as the board file is, and the Do
/// Not Disturb state, kept through the state-file store the bonds use (a
/// temporary file created exclusively, never through a symlink, renamed
/// over the old one; the directory owner's ownership kept).
enum SettingsFile {
    /// A user pattern's on-time must fit in the motor's cap.
    static let motorCap = HapticsConfiguration.defaults.maxOnTimePerMinute

    static func settingsPath(stateDirectory: String) -> String {
        stateDirectory + "/" + UserSettings.fileName
    }

    /// The settings file in `stateDirectory`, `defaults` without one.
    /// A file that exists but cannot be read (permissions) is reported
    /// through `unreadable` and counts as absent; a file with problems throws.
    static func load(stateDirectory: String, unreadable: (String, HALError) -> Void) throws(BoardError) -> UserSettings {
        let path = settingsPath(stateDirectory: stateDirectory)
        let bytes: [UInt8]?
        do { bytes = try FileBytes.readIfPresent(path) } catch {
            unreadable(path, error)
            return .defaults
        }
        guard let bytes else { return .defaults }
        return try UserSettingsLoader.parse(bytes, file: path, motorCap: motorCap)
    }

    // MARK: - Do Not Disturb across restarts

    static let doNotDisturbFileName = "do-not-disturb.json"

    static func doNotDisturbPath(stateDirectory: String) -> String {
        stateDirectory + "/" + doNotDisturbFileName
    }

    /// What the file keeps: on until turned off, or until a wall-clock time
    /// (a monotonic deadline means nothing after a restart).
    enum Kept: Equatable {
        case untilTurnedOff
        case until(WallClockInstant)
    }

    /// `{"doNotDisturb": "untilTurnedOff"}` or
    /// `{"doNotDisturb": "until", "untilUnixSeconds": N}`.
    static func encode(_ kept: Kept) -> [UInt8] {
        switch kept {
        case .untilTurnedOff:
            Array("{\"doNotDisturb\": \"untilTurnedOff\"}\n".utf8)
        case .until(let end):
            Array("{\"doNotDisturb\": \"until\", \"untilUnixSeconds\": \(end.nanosecondsSinceEpoch / 1_000_000_000)}\n".utf8)
        }
    }

    /// The kept state, or nil when the bytes are not one (a damaged file: off).
    static func decode(_ bytes: [UInt8]) -> Kept? {
        guard let text = String(validating: bytes, as: UTF8.self),
            case .object(let members, _) = try? ConfigJSONParser.parse(text)
        else { return nil }
        var mode: String?
        var seconds: Int64?
        for m in members {
            switch (m.key, m.value) {
            case ("doNotDisturb", .string(let s, _)): mode = s
            case ("untilUnixSeconds", .number(let x, _, _)) where x.rounded() == x && abs(x) < 1e15: seconds = Int64(x)
            default: return nil
            }
        }
        switch (mode, seconds) {
        case ("untilTurnedOff", nil): return .untilTurnedOff
        case ("until", let s?): return .until(WallClockInstant(secondsSinceEpoch: s))
        default: return nil
        }
    }
}

extension WatchDaemon {
    /// The settings file at start-up: problems stop the daemon, listed like
    /// a board file's (a SIGHUP checks the file first, so a running watch
    /// never stops over one).
    func loadUserSettings() throws(WristCoreFailure) -> UserSettings {
        do throws(BoardError) {
            let settings = try SettingsFile.load(stateDirectory: stateDirectory) { [logger] path, error in
                logger.warning("cannot read \(path): \(error.reason); running with the default settings")
            }
            if settings.source != UserSettings.defaults.source {
                logger.info("settings from \(settings.source): \(settings.apps.count) app rule(s), \(settings.patterns.count) pattern(s)")
            }
            return settings
        } catch {
            throw WristCoreFailure(error.description, exitCode: WristCoreExit.usageOrConfiguration)
        }
    }

    /// Takes up the Do Not Disturb state kept before a restart, and keeps
    /// every change the wearer makes from now on.
    func keepDoNotDisturb(_ model: WatchModel, loop: any EventLoop) {
        let files = AtomicFileStore()
        let directory = stateDirectory
        let path = SettingsFile.doNotDisturbPath(stateDirectory: directory)
        do throws(HALError) {
            if let bytes = try files.read(path) {
                switch SettingsFile.decode(bytes) {
                case .untilTurnedOff?:
                    model.restoreDoNotDisturb(remaining: nil, now: loop.now)
                case .until(let end)?:
                    model.restoreDoNotDisturb(remaining: end.duration(since: loop.wallClockNow), now: loop.now)
                case nil:
                    logger.warning("\(path): not a Do Not Disturb state; Do Not Disturb is off")
                }
                if model.isDoNotDisturbOn { logger.info("Do Not Disturb is on (kept from before the restart)") }
            }
        } catch {
            logger.warning("cannot read \(path): \(error); Do Not Disturb is off")
        }
        let logger = self.logger
        model.doNotDisturbChanged = { [unowned(unsafe) loop] state in
            do throws(HALError) {
                switch state {
                case .off:
                    try files.remove(path)
                case .untilTurnedOff:
                    try files.ensureDirectory(directory, mode: 0o700)
                    try files.writeAtomically(path, SettingsFile.encode(.untilTurnedOff), mode: 0o600)
                case .until(let end):
                    let wallEnd = loop.wallClockNow.advanced(by: end - loop.now)
                    try files.ensureDirectory(directory, mode: 0o700)
                    try files.writeAtomically(path, SettingsFile.encode(.until(wallEnd)), mode: 0o600)
                }
                logger.info("Do Not Disturb \(state == .off ? "off" : "on")")
            } catch {
                logger.warning("cannot keep the Do Not Disturb state in \(path): \(error) (it is lost on a restart)")
            }
        }
    }

    /// SIGHUP restarts in place and reads the settings file again: a broken
    /// one is reported line by line and the daemon keeps running with the
    /// settings it has. True when the restart may go ahead.
    func settingsAllowRestart() -> Bool {
        let path = SettingsFile.settingsPath(stateDirectory: stateDirectory)
        do {
            _ = try SettingsFile.load(stateDirectory: stateDirectory) { _, _ in }
            return true
        } catch {
            for p in error.problems { logger.error("\(p)") }
            logger.error("SIGHUP: \(path) has \(error.problems.count) problem(s): not restarting, keeping the current settings")
            return false
        }
    }
}
