import ATTCodec
import TextFormat


/// One notification on the simulated iPhone.
public struct SimulatedNotification: Equatable, Sendable {
    /// ANCS category IDs (the provider side keeps its own numbers, so it checks the consumer's codecs).
    public enum Category: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case other = 0, incomingCall, missedCall, voicemail, social, schedule, email, news
        case healthAndFitness, businessAndFinance, location, entertainment

        /// The case name (scenario files and the phone's record use it).
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
            }
        }

        public init?(name: String) {
            let n = String(name.asciiLowercased().filter { $0 != "-" && $0 != "_" })
            guard let c = Category.allCases.first(where: { "\($0)".asciiLowercased() == n }) else { return nil }
            self = c
        }
    }

    /// ANCS event flags.
    public struct Flags: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let silent = Flags(rawValue: 1 << 0)
        public static let important = Flags(rawValue: 1 << 1)
        public static let preExisting = Flags(rawValue: 1 << 2)
        public static let positiveAction = Flags(rawValue: 1 << 3)
        public static let negativeAction = Flags(rawValue: 1 << 4)
    }

    public var uid: UInt32
    public var category: Category
    public var flags: Flags
    public var appIdentifier: String
    public var title: String
    public var subtitle: String
    public var message: String
    /// `yyyyMMdd'T'HHmmSS`.
    public var date: String
    public var positiveActionLabel: String
    public var negativeActionLabel: String

    public init(
        uid: UInt32, category: Category = .other, flags: Flags = [], appIdentifier: String = "com.apple.MobileSMS",
        title: String = "", subtitle: String = "", message: String = "", date: String = "20240501T120000",
        positiveActionLabel: String? = nil, negativeActionLabel: String? = nil
    ) {
        self.uid = uid
        self.category = category
        var f = flags
        // iOS offers Clear (negative) on everything, and Answer / Decline on calls.
        if category == .incomingCall { f.insert([.positiveAction, .negativeAction]) } else { f.insert(.negativeAction) }
        self.flags = f
        self.appIdentifier = appIdentifier
        self.title = title
        self.subtitle = subtitle
        self.message = message
        self.date = date
        self.positiveActionLabel =
            positiveActionLabel ?? (f.contains(.positiveAction) ? (category == .incomingCall ? "Answer" : "Open") : "")
        self.negativeActionLabel =
            negativeActionLabel ?? (f.contains(.negativeAction) ? (category == .incomingCall ? "Decline" : "Clear") : "")
    }
}

/// The Notification Provider side of ANCS: the notification store, the Control
/// Point command parser and the Data Source encoder, written from Apple's
/// specification independently of the `ANCS` module (the consumer), so the
/// two check each other in end-to-end tests.
public struct ANCSProvider {
    public enum ErrorCode: UInt8, Sendable {
        case unknownCommand = 0xA0, invalidCommand = 0xA1, invalidParameter = 0xA2, actionFailed = 0xA3
    }

    /// What a Control Point write asks for.
    public enum CommandResult: Equatable {
        /// Send this Data Source response (to be fragmented).
        case response([UInt8])
        /// An action was performed: these notifications changed (removed UIDs).
        case action(uid: UInt32, positive: Bool)
        /// Answer the write with this ATT error.
        case error(ErrorCode)
    }

    /// Notifications in the order they were added.
    public private(set) var notifications: [SimulatedNotification] = []
    /// App display names by app identifier.
    public var appNames: [String: String] = [
        "com.apple.MobileSMS": "Messages", "com.apple.mobilephone": "Phone", "com.apple.mobilemail": "Mail",
        "com.apple.mobilecal": "Calendar",
    ]

    public init() {}

    public func notification(_ uid: UInt32) -> SimulatedNotification? { notifications.first { $0.uid == uid } }

    public mutating func add(_ n: SimulatedNotification) {
        notifications.removeAll { $0.uid == n.uid }
        notifications.append(n)
    }

    public mutating func update(_ n: SimulatedNotification) {
        guard let i = notifications.firstIndex(where: { $0.uid == n.uid }) else { return }
        notifications[i] = n
    }

    @discardableResult
    public mutating func remove(_ uid: UInt32) -> SimulatedNotification? {
        guard let i = notifications.firstIndex(where: { $0.uid == uid }) else { return nil }
        return notifications.remove(at: i)
    }

    public func categoryCount(_ c: SimulatedNotification.Category) -> UInt8 {
        UInt8(clamping: notifications.filter { $0.category == c }.count)
    }

    /// The 8-byte Notification Source value for an event (0 added, 1 modified, 2 removed).
    public func notificationSource(event: UInt8, _ n: SimulatedNotification, extraFlags: SimulatedNotification.Flags = []) -> [UInt8] {
        let f = n.flags.union(extraFlags)
        return [
            event, f.rawValue, n.category.rawValue, categoryCount(n.category),
            UInt8(n.uid & 0xFF), UInt8((n.uid >> 8) & 0xFF), UInt8((n.uid >> 16) & 0xFF), UInt8(n.uid >> 24),
        ]
    }

    /// Parses and answers one Control Point command.
    public func handle(command bytes: [UInt8]) -> CommandResult {
        guard let command = bytes.first else { return .error(.invalidCommand) }
        switch command {
        case 0: return getNotificationAttributes(bytes)
        case 1: return getAppAttributes(bytes)
        case 2:
            guard bytes.count == 6 else { return .error(.invalidCommand) }
            let uid = Self.u32(bytes, 1)
            guard let n = notification(uid) else { return .error(.invalidParameter) }
            switch bytes[5] {
            case 0:
                guard n.flags.contains(.positiveAction) else { return .error(.actionFailed) }
                return .action(uid: uid, positive: true)
            case 1:
                guard n.flags.contains(.negativeAction) else { return .error(.actionFailed) }
                return .action(uid: uid, positive: false)
            default:
                return .error(.invalidParameter)
            }
        default:
            return .error(.unknownCommand)
        }
    }

    private static func u32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
    }

    private static func appendAttribute(_ out: inout [UInt8], _ id: UInt8, _ value: String, max: Int?) {
        var bytes = Array(value.utf8)
        if let max, bytes.count > max {
            // Truncate on a UTF-8 boundary, as iOS does.
            var n = max
            while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }
            bytes = Array(bytes[..<n])
        }
        out.append(id)
        out.append(UInt8(bytes.count & 0xFF))
        out.append(UInt8(bytes.count >> 8))
        out += bytes
    }

    private func getNotificationAttributes(_ b: [UInt8]) -> CommandResult {
        guard b.count >= 6 else { return .error(.invalidCommand) }
        let uid = Self.u32(b, 1)
        var requests: [(UInt8, Int?)] = []
        var i = 5
        while i < b.count {
            let id = b[i]
            i += 1
            switch id {
            case 1, 2, 3:
                guard i + 2 <= b.count else { return .error(.invalidCommand) }
                requests.append((id, Int(b[i]) | Int(b[i + 1]) << 8))
                i += 2
            case 0, 4, 5, 6, 7:
                requests.append((id, nil))
            default:
                return .error(.invalidParameter)
            }
        }
        guard let n = notification(uid) else { return .error(.invalidParameter) }
        var out: [UInt8] = [0] + b[1..<5]
        for (id, max) in requests {
            let value: String
            switch id {
            case 0: value = n.appIdentifier
            case 1: value = n.title
            case 2: value = n.subtitle
            case 3: value = n.message
            case 4: value = String(n.message.utf8.count)
            case 5: value = n.date
            case 6: value = n.positiveActionLabel
            default: value = n.negativeActionLabel
            }
            Self.appendAttribute(&out, id, value, max: max)
        }
        return .response(out)
    }

    private func getAppAttributes(_ b: [UInt8]) -> CommandResult {
        guard let nul = b[1...].firstIndex(of: 0) else { return .error(.invalidCommand) }
        let appID = String(decoding: b[1..<nul], as: UTF8.self)
        var ids: [UInt8] = []
        for id in b[(nul + 1)...] {
            guard id == 0 else { return .error(.invalidParameter) }
            ids.append(id)
        }
        guard !ids.isEmpty else { return .error(.invalidCommand) }
        let knownApp = appNames[appID] != nil || notifications.contains { $0.appIdentifier == appID }
        guard knownApp else { return .error(.invalidParameter) }
        var out: [UInt8] = [1] + b[1...nul]
        for id in ids { Self.appendAttribute(&out, id, appNames[appID] ?? appID, max: nil) }
        return .response(out)
    }
}
