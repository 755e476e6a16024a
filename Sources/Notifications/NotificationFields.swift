/// The text a stored notification keeps as UTF-8 bytes.
public enum NotificationField: Int, CaseIterable, Sendable {
    case appIdentifier, title, subtitle, message, positiveActionLabel, negativeActionLabel

    /// The `NotificationFields` bit of this field.
    public var bit: NotificationFields {
        switch self {
        case .appIdentifier: .appIdentifier
        case .title: .title
        case .subtitle: .subtitle
        case .message: .message
        case .positiveActionLabel: .positiveActionLabel
        case .negativeActionLabel: .negativeActionLabel
        }
    }
}

/// Which parts of a notification are stored, cut, or an event is about.
/// (The bits follow ANCS's NotificationAttributeID values; `appDisplayName`
/// is the app's own name.)
public struct NotificationFields: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let appIdentifier = NotificationFields(rawValue: 1 << 0)
    public static let title = NotificationFields(rawValue: 1 << 1)
    public static let subtitle = NotificationFields(rawValue: 1 << 2)
    public static let message = NotificationFields(rawValue: 1 << 3)
    public static let messageSize = NotificationFields(rawValue: 1 << 4)
    public static let date = NotificationFields(rawValue: 1 << 5)
    public static let positiveActionLabel = NotificationFields(rawValue: 1 << 6)
    public static let negativeActionLabel = NotificationFields(rawValue: 1 << 7)
    public static let appDisplayName = NotificationFields(rawValue: 1 << 8)
}
