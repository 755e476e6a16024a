/// What kind of notification it is. The twelve kinds (and their raw values)
/// are ANCS's CategoryID, which other sources map onto; a value nobody
/// defined is kept as `.unknown(n)`.
public enum NotificationCategory: Hashable, Sendable, CustomStringConvertible {
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

    /// The twelve defined categories, in raw-value order.
    public static let defined: [NotificationCategory] = (0...11).map { NotificationCategory(rawValue: UInt8($0)) }

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

extension NotificationCategory {
    /// IncomingCall and MissedCall: kept longest in a full store and fetched
    /// with their message.
    public var isCall: Bool { self == .incomingCall || self == .missedCall }
}
