/// What a source says about a notification besides its text. The bits are
/// ANCS's EventFlags (its adapter copies them as they come); another source
/// sets the ones it knows. Unknown bits are preserved.
public struct NotificationFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Listed, never alerted (for example a Focus is on).
    public static let silent = NotificationFlags(rawValue: 1 << 0)
    public static let important = NotificationFlags(rawValue: 1 << 1)
    /// Already on the phone when the watch connected: listed, not alerted.
    public static let preExisting = NotificationFlags(rawValue: 1 << 2)
    /// The positive / negative action exists.
    public static let positiveAction = NotificationFlags(rawValue: 1 << 3)
    public static let negativeAction = NotificationFlags(rawValue: 1 << 4)
}
