import Notifications
import Haptics

/// What vibrates: the board file's table from a notification to a motor
/// pattern (`motor.vibrate`). The decision that reads it is the watch
/// model's (Watch: VibrationPolicy+Decision.swift, WatchModel+Vibration).
///
/// Default mapping (the design card: the motor is for Important
/// notifications and calls; issue 19 item 9):
/// - Silent or PreExisting → nothing. This is the protocol's rule
///   (`NotificationInfo.shouldAlert`) and no configuration changes it: the
///   phone already alerted, or was asked not to. One exception, the call
///   still ringing when the phone connects: see `patternForCallInProgress`.
/// - IncomingCall → `.ring` (the daemon stops it when the call is answered,
///   declined or removed; `MotorController` stops it at its maximum duration).
/// - Important → `.double`.
/// - everything else → nothing. A board's `motor.vibrate` turns a short
///   pulse on for the rest (`"default": "short"`) or per category.
///
/// Per-category overrides win over the Important rule (an Important incoming
/// call still rings); a category can be overridden to nil to keep it still.
///
/// Only `NotificationEvent.added` vibrates: a modified notification (for
/// example a message count going up) or a removed one never does, so
/// `pattern(for: NotificationEvent)` answers nil for every other event.
public struct VibrationPolicy: Sendable, Equatable {
    /// The pattern for Important notifications without a category override.
    public var important: VibrationPattern?
    /// The pattern for everything else without a category override.
    public var defaultPattern: VibrationPattern?
    /// Category → pattern (nil: no vibration) overrides.
    public private(set) var categoryOverrides: [NotificationCategory: VibrationPattern?]

    public init(important: VibrationPattern? = .double, defaultPattern: VibrationPattern? = nil,
                categoryOverrides: [NotificationCategory: VibrationPattern?] = [.incomingCall: .ring]) {
        self.important = important
        self.defaultPattern = defaultPattern
        self.categoryOverrides = categoryOverrides
    }

    public static let standard = VibrationPolicy()

    /// Makes `category` vibrate with `pattern` (nil: not at all), whatever its flags.
    public mutating func setPattern(_ pattern: VibrationPattern?, for category: NotificationCategory) {
        categoryOverrides[category] = .some(pattern)
    }

    /// Back to the Important / default rule for `category`.
    public mutating func removeOverride(for category: NotificationCategory) {
        categoryOverrides[category] = nil
    }
}
