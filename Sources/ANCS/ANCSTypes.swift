// The ANCS vocabulary: identifiers, enumerations and flags from the
// Apple Notification Center Service specification (little-endian, UTF-8).
// Reserved values never make a parser fail: they are kept as `.unknown(n)`.
// (The GATT UUIDs are ATTCodec's: BluetoothUUID.ancsService and friends.)


/// EventID (Notification Source byte 0).
public enum EventID: Hashable, Sendable {
    case added, modified, removed
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .added
        case 1: self = .modified
        case 2: self = .removed
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .added: 0
        case .modified: 1
        case .removed: 2
        case .unknown(let n): n
        }
    }
}



/// CommandID (first byte of every Control Point command and Data Source response).
public enum CommandID: Hashable, Sendable {
    case getNotificationAttributes, getAppAttributes, performNotificationAction
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .getNotificationAttributes
        case 1: self = .getAppAttributes
        case 2: self = .performNotificationAction
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .getNotificationAttributes: 0
        case .getAppAttributes: 1
        case .performNotificationAction: 2
        case .unknown(let n): n
        }
    }
}

/// NotificationAttributeID.
public enum NotificationAttributeID: Hashable, Sendable {
    case appIdentifier, title, subtitle, message, messageSize, date
    case positiveActionLabel, negativeActionLabel
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .appIdentifier
        case 1: self = .title
        case 2: self = .subtitle
        case 3: self = .message
        case 4: self = .messageSize
        case 5: self = .date
        case 6: self = .positiveActionLabel
        case 7: self = .negativeActionLabel
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .appIdentifier: 0
        case .title: 1
        case .subtitle: 2
        case .message: 3
        case .messageSize: 4
        case .date: 5
        case .positiveActionLabel: 6
        case .negativeActionLabel: 7
        case .unknown(let n): n
        }
    }

    /// Title, Subtitle and Message are followed by a u16 max length in a
    /// Get Notification Attributes command.
    public var takesMaxLength: Bool {
        switch self {
        case .title, .subtitle, .message: true
        default: false
        }
    }

    /// MessageSize and the two action labels: real iPhones may leave them
    /// out of a response even when asked (PebbleOS treats them the same way).
    public var isOptional: Bool {
        switch self {
        case .messageSize, .positiveActionLabel, .negativeActionLabel: true
        default: false
        }
    }
}

/// AppAttributeID.
public enum AppAttributeID: Hashable, Sendable {
    case displayName
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        self = rawValue == 0 ? .displayName : .unknown(rawValue)
    }

    public var rawValue: UInt8 {
        switch self {
        case .displayName: 0
        case .unknown(let n): n
        }
    }
}


/// The ANCS-specific ATT error codes a Control Point write can fail with.
public enum ANCSErrorCode: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 0xA0: the commandID was not recognised by the NP.
    case unknownCommand = 0xA0
    /// 0xA1: the command was improperly formatted.
    case invalidCommand = 0xA1
    /// 0xA2: one of the parameters (for example the NotificationUID) does not
    /// refer to an existing object on the NP.
    case invalidParameter = 0xA2
    /// 0xA3: the action was not performed.
    case actionFailed = 0xA3

    public var description: String {
        switch self {
        case .unknownCommand: "unknown command (0xA0)"
        case .invalidCommand: "invalid command (0xA1)"
        case .invalidParameter: "invalid parameter (0xA2)"
        case .actionFailed: "action failed (0xA3)"
        }
    }
}
