/// The two actions a wearer can take on a notification from the buttons.
/// (The raw values are ANCS's ActionID.)
public enum NotificationAction: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case positive = 0
    case negative = 1

    /// The case name, as the logs show it.
    public var description: String { self == .positive ? "positive" : "negative" }

    /// The flag that says this action exists.
    public var requiredFlag: NotificationFlags {
        self == .positive ? .positiveAction : .negativeAction
    }
}
