import Haptics

/// The wearer's settings (`settings.json` in the state directory, next to
/// the bonds; docs/settings.md): vibration patterns of their own, per-app
/// rules, quiet hours and Do Not Disturb options. Apart from the board file,
/// which says how the hardware is wired. Absent, everything is `defaults`.
public struct UserSettings: Equatable, Sendable {
    /// The file's name inside the state directory.
    public static let fileName = "settings.json"
    /// The most the file may hold (docs/settings.md): 64 app rules with
    /// comments fit many times over.
    public static let maxFileBytes = 64 * 1024
    /// The most patterns of the wearer's own (apps: `AppRules.capacity`).
    public static let maxPatterns = 32
    /// Canned replies: at most 8, each at most 64 bytes (what one reply line carries).
    public static let maxReplies = 8
    public static let replyCapacity = 64
    public static let defaultReplies = ["OK", "On my way", "Can't talk now", "Call you later", "Thanks!"]

    /// The wearer's own patterns, by name.
    public var patterns: [VibrationPattern] = []
    /// Rules by AppIdentifier.
    public var apps = AppRules()
    /// Rules by what a notification says (app, title, subtitle, message);
    /// the first that matches decides, before the app's rule.
    public var filters = ContentFilters()
    /// Quiet hours on the watch's own time; they replace the board file's
    /// `motor.quietHours`.
    public var quietHours: QuietHoursOverride = .boardFile
    public var doNotDisturb = DoNotDisturbOptions()
    /// The canned replies offered where the phone can reply (Gadgetbridge).
    public var replies = UserSettings.defaultReplies
    /// What an alarm plays (`alarms.pattern`), what the timer's end plays
    /// (`alarms.timerPattern`), and how long a snooze lasts.
    public var alarmPattern = VibrationPattern.alarm
    public var timerPattern = VibrationPattern.timer
    public var snoozeMinutes = 9
    /// `alarms.snoozeMinutes` allows these.
    public static let snoozeMinutesRange = 1...30
    /// Where they came from ("defaults" without a file).
    public var source = "defaults"

    public init() {}

    public static let defaults = UserSettings()

    /// A user pattern or a built-in one named `name`.
    public func pattern(named name: String) -> VibrationPattern? {
        patterns.first { $0.name == name } ?? VibrationPattern.named(name)
    }
}

/// The settings file's `quietHours`: absent keeps the board file's, "off"
/// turns them off, "HH:MM-HH:MM" sets them.
public enum QuietHoursOverride: Equatable, Sendable {
    case boardFile
    case off
    case hours(QuietHours)

    /// The quiet hours in force given the board file's.
    public func resolved(board: QuietHours?) -> QuietHours? {
        switch self {
        case .boardFile: board
        case .off: nil
        case .hours(let q): q
        }
    }
}

/// The settings file's `doNotDisturb` object.
public struct DoNotDisturbOptions: Equatable, Sendable {
    /// What an incoming call does while Do Not Disturb is on.
    public enum Calls: String, CaseIterable, Sendable {
        /// Rings as always (the default: calls always ring unless muted explicitly).
        case ring
        /// Shows its screen without ringing.
        case silent
    }
    public var calls = Calls.ring

    public init() {}
}

extension UserSettings {
    /// What applies to a notification: the first filter that matches what
    /// it says, else its app's rule, else none. Allocation-free.
    public func rule(app: UnsafeRawBufferPointer, title: UnsafeRawBufferPointer, subtitle: UnsafeRawBufferPointer,
                     message: UnsafeRawBufferPointer) -> AppRule? {
        if !filters.isEmpty, let i = filters.index(app: app, title: title, subtitle: subtitle, message: message) {
            return filters.rules[i]
        }
        return apps.isEmpty ? nil : apps.rule(for: app)
    }

    /// Some rule (an app's or a filter) may change what an alert does.
    public var hasRules: Bool { !apps.isEmpty || !filters.isEmpty }
    /// Some rule alerts through Do Not Disturb and quiet hours.
    public var hasAlwaysAlert: Bool { apps.hasAlwaysAlert || filters.hasAlwaysAlert }
    /// Some rule mutes.
    public var hasMute: Bool { apps.hasMute || filters.hasMute }
    /// Some rule hides content.
    public var hasHideContent: Bool { apps.rules.contains { $0.hideContent } || filters.rules.contains { $0.hideContent } }
}
