import Notifications

// ANCS speaks in the protocol-neutral notification vocabulary
// (Notifications): its wire values are the neutral types' raw values, so
// the specification's names are aliases, not copies.

/// The NotificationUID of the specification.
public typealias NotificationUID = NotificationID
/// EventFlags (Notification Source byte 1).
public typealias EventFlags = NotificationFlags
/// CategoryID (Notification Source byte 2).
public typealias CategoryID = NotificationCategory
/// ActionID of Perform Notification Action.
public typealias ActionID = NotificationAction
/// The text attributes a stored notification keeps.
public typealias NotificationTextField = NotificationField
/// Why `performAction` refused.
public typealias ANCSActionError = NotificationActionError
/// The consumer's liveness findings.
public typealias ANCSHealth = NotificationSourceHealth

extension NotificationID {
    /// The UID the liveness probe asks about: no phone hands it out, so a
    /// healthy phone answers the probe with 0xA2 (invalid parameter).
    public static let probe = NotificationID(0xFFFF_FFFF)
}

extension NotificationFields {
    /// The field for a notification attribute ID (empty for reserved IDs).
    public init(attribute id: UInt8) {
        self.init(rawValue: id < 8 ? UInt16(1) << UInt16(id) : 0)
    }
}

extension NotificationField {
    /// The field's attribute: its bit index is the attribute ID
    /// (`NotificationField.bitIndex`, the one mapping).
    var attributeID: NotificationAttributeID { NotificationAttributeID(rawValue: UInt8(bitIndex)) }

    init?(attribute id: UInt8) { self.init(bitIndex: Int(id)) }
}

extension ANCSRequestError {
    /// The neutral reason an action failed.
    public var actionFailure: ActionFailure {
        switch self {
        case .phone: .refused
        case .cancelled: .cancelled
        case .att, .timedOut, .malformedResponse: .notDelivered
        }
    }
}

extension ANCSEvent {
    /// What the watch above hears of this event (nil: ANCS's own business,
    /// for its logs and health).
    public var notificationEvent: NotificationEvent? {
        switch self {
        case .sessionStarted: .sessionStarted
        case .sessionEnded: .sessionEnded
        case .notificationAdded(let info): .added(info)
        case .notificationModified(let info): .modified(info)
        case .notificationRemoved(let uid, let reason): .removed(uid, reason)
        case .attributesReady(let uid, let fields): .contentArrived(uid, fields)
        case .actionSent(let uid, let action): .actionSent(uid, action)
        case .actionFailed(let uid, let action, let error): .actionFailed(uid, action, error.actionFailure)
        case .fetchFailed(let uid, _): .fetchFailed(uid)
        case .livenessProbe, .resubscribeRecommended: .healthChanged
        case .protocolError: nil
        }
    }
}
