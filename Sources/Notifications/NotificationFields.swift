/// The text a stored notification keeps as UTF-8 bytes.
public enum NotificationField: Int, CaseIterable, Sendable {
    case appIdentifier, title, subtitle, message, positiveActionLabel, negativeActionLabel

    /// Where this field's bit is in `NotificationFields`: the one mapping
    /// (it is ANCS's NotificationAttributeID, so the ANCS adapter reads its
    /// attribute IDs from here too). `rawValue` is the storage index.
    public var bitIndex: Int {
        switch self {
        case .appIdentifier: 0
        case .title: 1
        case .subtitle: 2
        case .message: 3
        case .positiveActionLabel: 6
        case .negativeActionLabel: 7
        }
    }

    /// The `NotificationFields` bit of this field.
    public var bit: NotificationFields { NotificationFields(rawValue: 1 << UInt16(bitIndex)) }

    /// The field whose bit is `index`; nil for the bits no text field has
    /// (MessageSize, Date, the app's display name).
    public init?(bitIndex index: Int) {
        var raw = 0
        while let field = Self(rawValue: raw) {
            if field.bitIndex == index {
                self = field
                return
            }
            raw += 1
        }
        return nil
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
