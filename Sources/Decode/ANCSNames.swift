import ANCS

/// Readable and JSON names of the ANCS vocabulary.
enum ANCSNames {
    static func event(_ e: EventID) -> (text: String, json: String) {
        switch e {
        case .added: ("added", "added")
        case .modified: ("modified", "modified")
        case .removed: ("removed", "removed")
        case .unknown(let n): ("reserved event \(n)", "reserved")
        }
    }

    static let flagNames: [(EventFlags, String, String)] = [
        (.silent, "Silent", "silent"), (.important, "Important", "important"),
        (.preExisting, "PreExisting", "pre_existing"), (.positiveAction, "PositiveAction", "positive_action"),
        (.negativeAction, "NegativeAction", "negative_action"),
    ]

    static func flags(_ f: EventFlags) -> (text: String, json: [String]) {
        var text: [String] = []
        var json: [String] = []
        for (flag, t, j) in flagNames where f.contains(flag) {
            text.append(t)
            json.append(j)
        }
        let reserved = f.rawValue & 0xE0
        if reserved != 0 {
            text.append("reserved bits \(HexFormat.byteValue(reserved))")
            json.append("reserved")
        }
        return (text.isEmpty ? "none" : text.joined(separator: "|"), json)
    }

    static func category(_ c: CategoryID) -> (text: String, json: String) {
        switch c {
        case .other: ("Other", "other")
        case .incomingCall: ("IncomingCall", "incoming_call")
        case .missedCall: ("MissedCall", "missed_call")
        case .voicemail: ("Voicemail", "voicemail")
        case .social: ("Social", "social")
        case .schedule: ("Schedule", "schedule")
        case .email: ("Email", "email")
        case .news: ("News", "news")
        case .healthAndFitness: ("HealthAndFitness", "health_and_fitness")
        case .businessAndFinance: ("BusinessAndFinance", "business_and_finance")
        case .location: ("Location", "location")
        case .entertainment: ("Entertainment", "entertainment")
        case .unknown(let n): ("reserved category \(n)", "reserved")
        }
    }

    static func command(_ raw: UInt8) -> (text: String, json: String) {
        switch CommandID(rawValue: raw) {
        case .getNotificationAttributes: ("Get Notification Attributes", "get_notification_attributes")
        case .getAppAttributes: ("Get App Attributes", "get_app_attributes")
        case .performNotificationAction: ("Perform Notification Action", "perform_notification_action")
        case .unknown(let n): ("reserved command \(n)", "reserved")
        }
    }

    /// Attribute names depend on the command: app attributes have their own IDs.
    static func attribute(_ id: UInt8, app: Bool) -> (text: String, json: String) {
        if app {
            return id == 0 ? ("DisplayName", "display_name") : ("AppAttribute\(id)", "reserved")
        }
        switch NotificationAttributeID(rawValue: id) {
        case .appIdentifier: return ("AppIdentifier", "app_identifier")
        case .title: return ("Title", "title")
        case .subtitle: return ("Subtitle", "subtitle")
        case .message: return ("Message", "message")
        case .messageSize: return ("MessageSize", "message_size")
        case .date: return ("Date", "date")
        case .positiveActionLabel: return ("PositiveActionLabel", "positive_action_label")
        case .negativeActionLabel: return ("NegativeActionLabel", "negative_action_label")
        case .unknown(let n): return ("Attribute\(n)", "reserved")
        }
    }

    static func action(_ raw: UInt8) -> (text: String, json: String) {
        switch raw {
        case 0: ("positive", "positive")
        case 1: ("negative", "negative")
        default: ("reserved action \(raw)", "reserved")
        }
    }
}
