/// Why a stored notification went away.
public enum RemovalReason: Hashable, Sendable {
    /// The phone removed it (EventID Removed).
    case removedByPhone
    /// The store was full; see docs/ancs.md for the eviction order.
    case evicted
    /// A notification kept from the previous session was announced again by
    /// the new one (same app, title and date) under this UID: it is that one now.
    case reannounced(NotificationID)
    /// A notification kept from the previous session was not announced again
    /// by the new one (dropped when reconciliation ended).
    case notReannounced
}

/// Why an action the phone was sent did not happen.
public enum ActionFailure: Hashable, Sendable {
    /// The phone answered that it did not perform it.
    case refused
    /// It never reached the phone, or no answer came.
    case notDelivered
    /// Withdrawn before it was sent: its notification went away.
    case cancelled
}

/// What a notification source tells the watch, after its store changed.
public enum NotificationEvent: Hashable, Sendable {
    /// The source's session with the phone started (its store may hold what
    /// an earlier session left, to be reconciled).
    case sessionStarted
    /// The session ended; its IDs are void (kept entries were renumbered).
    case sessionEnded
    /// A new notification (live or pre-existing: see `info.shouldAlert`).
    case added(NotificationInfo)
    case modified(NotificationInfo)
    case removed(NotificationID, RemovalReason)
    /// These parts were stored (read them through `notification(_:)`).
    case contentArrived(NotificationID, NotificationFields)
    /// Fetching its content failed (the source may try again later).
    case fetchFailed(NotificationID)
    /// The phone accepted an action.
    case actionSent(NotificationID, NotificationAction)
    case actionFailed(NotificationID, NotificationAction, ActionFailure)
    /// The source's health changed (the status bar's mark).
    case healthChanged
}

/// Why a source refused to send an action (`NotificationSource.perform`).
public enum NotificationActionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No session with the phone (nothing can be sent).
    case noSession
    case unknownNotification(NotificationID)
    /// The notification's flags do not offer this action.
    case actionNotAvailable(NotificationID, NotificationAction)
    /// The source's queue is full of other actions.
    case queueFull

    /// As Swift's reflection printed it (the logs show it; the ActionID in
    /// the payload with its type's name, as reflection debug-printed it).
    public var description: String {
        switch self {
        case .noSession: "noSession"
        case .unknownNotification(let uid): "unknownNotification(\(uid))"
        case .actionNotAvailable(let uid, let action): "actionNotAvailable(\(uid), ANCS.ActionID.\(action))"
        case .queueFull: "queueFull"
        }
    }
}
