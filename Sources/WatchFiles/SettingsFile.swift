import BoardConfig
import WearerSettings
import HAL
import Haptics
import LinuxHAL

/// The wearer's files in the state directory (next to the bonds): the
/// settings file, read through LinuxHAL as the board file is, and the Do
/// Not Disturb state, kept through the state-file store the bonds use (a
/// temporary file created exclusively, never through a symlink, renamed
/// over the old one; the directory owner's ownership kept).
public enum SettingsFile {
    /// A user pattern's on-time must fit in the motor's cap.
    public static let motorCap = HapticsConfiguration.defaults.maxOnTimePerMinute

    public static func settingsPath(stateDirectory: String) -> String {
        stateDirectory + "/" + UserSettings.fileName
    }

    /// The settings file's bytes, nil when there is none: read once,
    /// bounded (`UserSettings.maxFileBytes`), a regular file only, with the
    /// state directory's owner and mode rule. Throws when it exists but
    /// cannot be used that way.
    public static func read(stateDirectory: String) throws(HALError) -> [UInt8]? {
        try FileBytes.readGuardedIfPresent(settingsPath(stateDirectory: stateDirectory), limit: UserSettings.maxFileBytes)
    }

    /// The settings in `bytes` (nil: no file, the defaults).
    public static func parse(_ bytes: [UInt8]?, stateDirectory: String) throws(BoardError) -> UserSettings {
        guard let bytes else { return .defaults }
        return try UserSettingsLoader.parse(bytes, file: settingsPath(stateDirectory: stateDirectory), motorCap: motorCap)
    }

    // MARK: - Do Not Disturb across restarts

    public static let doNotDisturbFileName = "do-not-disturb.json"

    public static func doNotDisturbPath(stateDirectory: String) -> String {
        stateDirectory + "/" + doNotDisturbFileName
    }

    /// What the file keeps: on until turned off, or until a wall-clock time
    /// (a monotonic deadline means nothing after a restart).
    public enum Kept: Equatable {
        case untilTurnedOff
        case until(WallClockInstant)
    }

    /// `{"doNotDisturb": "untilTurnedOff"}` or
    /// `{"doNotDisturb": "until", "untilUnixSeconds": N}`.
    public static func encode(_ kept: Kept) -> [UInt8] {
        switch kept {
        case .untilTurnedOff:
            Array("{\"doNotDisturb\": \"untilTurnedOff\"}\n".utf8)
        case .until(let end):
            Array("{\"doNotDisturb\": \"until\", \"untilUnixSeconds\": \(end.nanosecondsSinceEpoch / 1_000_000_000)}\n".utf8)
        }
    }

    /// The latest `untilUnixSeconds` read (2100-01-01).
    public static let latestDeadline: Int64 = 4_102_444_800

    /// The kept state, or nil when the bytes are not one (a damaged file: off).
    public static func decode(_ bytes: [UInt8]) -> Kept? {
        guard let text = String(validating: bytes, as: UTF8.self),
            case .object(let members, _) = try? ConfigJSONParser.parse(text)
        else { return nil }
        var mode: String?
        var seconds: Int64?
        for m in members {
            switch (m.key, m.value) {
            case ("doNotDisturb", .string(let s, _)): mode = s
            // 1970 to 2100: nothing outside can be a deadline, and no product wraps.
            case ("untilUnixSeconds", .number(let x, _, _)) where x.rounded() == x && x >= 0 && x <= Double(latestDeadline): seconds = Int64(x)
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

/// The board and settings files as a SIGHUP checked them, handed to the
/// restarted image (nil: no such file).
public struct CheckedFiles {
    public var board: [UInt8]?
    public var settings: [UInt8]?
    public init() {}
}
