// The ANCS vocabulary: identifiers, enumerations and flags from the
// Apple Notification Center Service specification (little-endian, UTF-8).
// Reserved values never make a parser fail: they are kept as `.unknown(n)`.
// (The GATT UUIDs are ATTCodec's: BluetoothUUID.ancsService and friends.)

/// A notification's UID, valid only inside the session that announced it.
public struct NotificationUID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// The UID the liveness probe asks about: no phone hands it out, so a
    /// healthy phone answers the probe with 0xA2 (invalid parameter).
    public static let probe = NotificationUID(0xFFFF_FFFF)

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

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

/// EventFlags (Notification Source byte 1). Reserved bits are preserved.
public struct EventFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let silent = EventFlags(rawValue: 1 << 0)
    public static let important = EventFlags(rawValue: 1 << 1)
    public static let preExisting = EventFlags(rawValue: 1 << 2)
    public static let positiveAction = EventFlags(rawValue: 1 << 3)
    public static let negativeAction = EventFlags(rawValue: 1 << 4)
}

/// CategoryID (Notification Source byte 2).
public enum CategoryID: Hashable, Sendable, CustomStringConvertible {
    case other, incomingCall, missedCall, voicemail, social, schedule, email, news
    case healthAndFitness, businessAndFinance, location, entertainment
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .other
        case 1: self = .incomingCall
        case 2: self = .missedCall
        case 3: self = .voicemail
        case 4: self = .social
        case 5: self = .schedule
        case 6: self = .email
        case 7: self = .news
        case 8: self = .healthAndFitness
        case 9: self = .businessAndFinance
        case 10: self = .location
        case 11: self = .entertainment
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .other: 0
        case .incomingCall: 1
        case .missedCall: 2
        case .voicemail: 3
        case .social: 4
        case .schedule: 5
        case .email: 6
        case .news: 7
        case .healthAndFitness: 8
        case .businessAndFinance: 9
        case .location: 10
        case .entertainment: 11
        case .unknown(let n): n
        }
    }

    /// The twelve categories of the specification, in CategoryID order.
    public static let defined: [CategoryID] = (0...11).map { CategoryID(rawValue: UInt8($0)) }

    /// The case name (`incomingCall`, `unknown(12)`), as the harness JSON, the
    /// logs and the board file's `motor.vibrate` keys show it.
    public var description: String {
        switch self {
        case .other: "other"
        case .incomingCall: "incomingCall"
        case .missedCall: "missedCall"
        case .voicemail: "voicemail"
        case .social: "social"
        case .schedule: "schedule"
        case .email: "email"
        case .news: "news"
        case .healthAndFitness: "healthAndFitness"
        case .businessAndFinance: "businessAndFinance"
        case .location: "location"
        case .entertainment: "entertainment"
        case .unknown(let n): "unknown(\(n))"
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

/// ActionID for Perform Notification Action.
public enum ActionID: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case positive = 0
    case negative = 1

    /// The case name, as the logs show it.
    public var description: String { self == .positive ? "positive" : "negative" }

    /// The EventFlags bit that says this action exists.
    public var requiredFlag: EventFlags {
        self == .positive ? .positiveAction : .negativeAction
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
