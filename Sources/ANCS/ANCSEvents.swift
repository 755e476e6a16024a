import HAL
import Notifications
import TextFormat




/// Why a session ended.
public enum SessionEndReason: Hashable, Sendable, CustomStringConvertible {
    case disconnected
    case unsubscribed
    /// ANCS was unpublished (Service Changed) or its handles changed.
    case serviceChanged
    /// The app re-subscribes (for example after `resubscribeRecommended`).
    case resubscribing

    /// The case name, as the logs show it.
    public var description: String {
        switch self {
        case .disconnected: "disconnected"
        case .unsubscribed: "unsubscribed"
        case .serviceChanged: "serviceChanged"
        case .resubscribing: "resubscribing"
        }
    }
}


/// Why a Control Point request did not produce its result.
public enum ANCSRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The phone answered the write with an ANCS error (0xA0–0xA3).
    case phone(ANCSErrorCode)
    /// The write failed with another ATT error (e.g. 0x05 Insufficient
    /// Authentication, 0x03 Write Not Permitted).
    case att(UInt8)
    /// No (complete) answer within the request timeout.
    case timedOut
    /// The Data Source response was malformed.
    case malformedResponse(DataSourceError)
    /// Withdrawn before it was sent: its notification went away.
    case cancelled

    public init(attErrorCode code: UInt8) {
        if let ancs = ANCSErrorCode(rawValue: code) { self = .phone(ancs) } else { self = .att(code) }
    }

    public var description: String {
        switch self {
        case .phone(let c): "phone answered " + c.description
        case .att(let c): NumberText.format("ATT error 0x%x", Int64(c))
        case .timedOut: "timed out"
        case .malformedResponse(let e): "malformed response: " + e.description
        case .cancelled: "cancelled"
        }
    }
}

/// Problems with what the phone sent, reported for logs and the decode tool.
public enum ANCSProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformedNotificationSource(NotificationSourceError)
    /// Stray Data Source bytes (wrong echo, nothing pending).
    case dataSource(DataSourceError)
    /// A Control Point write response arrived with no write outstanding.
    case unexpectedWriteResponse
    /// The phone sent a Title / Subtitle / Message (`attributeID` 1–3)
    /// longer than the max length in our command. The value was kept, cut at
    /// `maxLength` bytes on a UTF-8 boundary, with the rest of the response;
    /// reported once per session (`ANCSStatistics.overlongAttributes`
    /// counts every occurrence).
    case attributeExceedsMaxLength(NotificationUID, attributeID: UInt8, length: Int, maxLength: Int)

    /// As Swift's reflection printed it (the logs show it).
    public var description: String {
        switch self {
        case .malformedNotificationSource(let e): "malformedNotificationSource(\(e))"
        case .dataSource(let e): "dataSource(\(e))"
        case .unexpectedWriteResponse: "unexpectedWriteResponse"
        case .attributeExceedsMaxLength(let uid, let id, let length, let maxLength):
            "attributeExceedsMaxLength(\(uid), attributeID: \(id), length: \(length), maxLength: \(maxLength))"
        }
    }
}

/// The result of a liveness probe (Get Notification Attributes for UID
/// 0xFFFFFFFF).
public enum LivenessResult: Hashable, Sendable, CustomStringConvertible {
    /// The phone answered (0xA2, as expected).
    case alive
    /// The phone refused the write with another error: ANCS is there but
    /// will not serve this watch (for example notification sharing is off).
    case rejected(ANCSRequestError)
    /// No answer within the request timeout.
    case noAnswer

    /// As Swift's reflection printed it (the logs show it).
    public var description: String {
        switch self {
        case .alive: "alive"
        case .rejected(let e): "rejected(\(e))"
        case .noAnswer: "noAnswer"
        }
    }
}

/// Why the consumer suggests re-subscribing to the Notification Source.
public enum ResubscribeReason: Hashable, Sendable {
    case probeUnanswered
    case notificationSourceSilent
    /// A Control Point write's outcome never came (the watchdog cleared it).
    case controlPointStuck
}

/// What the consumer tells the layers above.
public enum ANCSEvent: Hashable, Sendable {
    case sessionStarted
    case sessionEnded(SessionEndReason)
    /// A new notification (live or pre-existing: see `info.shouldAlert`).
    case notificationAdded(NotificationInfo)
    case notificationModified(NotificationInfo)
    case notificationRemoved(NotificationUID, RemovalReason)
    /// These attributes were stored (read them through `notification(_:)`).
    case attributesReady(NotificationUID, NotificationFields)
    case fetchFailed(NotificationUID, ANCSRequestError)
    /// The phone accepted a Perform Notification Action command.
    case actionSent(NotificationUID, ActionID)
    case actionFailed(NotificationUID, ActionID, ANCSRequestError)
    case livenessProbe(LivenessResult)
    /// The app should write the subscriptions again: `resubscribeStarted`,
    /// rewrite the Data Source and Notification Source CCCDs, then
    /// `sessionStarted` (or `resubscribeFailed`). PhoneSession does this.
    case resubscribeRecommended(ResubscribeReason)
    case protocolError(ANCSProtocolError)
}

/// What became of a Control Point write at once.
public enum ControlPointWrite: Sendable, Equatable {
    /// Handed to the link: report its ATT outcome later with
    /// `controlPointWriteSucceeded(now:)` / `controlPointWriteFailed(...)`.
    case sent
    /// Not sent (no Control Point, the link's queue full, too long, the
    /// link closed): the consumer handles it as a write failed with this
    /// ATT error code, in its own loop (no call back into it).
    case notSent(attErrorCode: UInt8)
}

/// Where the consumer sends its output. Set once; calls never allocate.
public protocol ANCSConsumerSink: AnyObject {
    /// Write these bytes to the Control Point (ATT Write Request). The bytes
    /// are valid only during the call. A write that cannot go out says so
    /// in its result; one that went out reports its ATT outcome with
    /// `controlPointWriteSucceeded(now:)` / `controlPointWriteFailed(...)`.
    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite
    /// An event for the layers above.
    func ancsEvent(_ event: ANCSEvent)
}


/// Counters for diagnostics and tests.
public struct ANCSStatistics: Hashable, Sendable {
    public var notificationSourceEvents = 0
    public var malformedNotificationSource = 0
    public var unknownEventIDs = 0
    public var requestsSent = 0
    public var responsesCompleted = 0
    public var timeouts = 0
    public var queueOverflows = 0
    public var evictions = 0
    public var droppedPreExisting = 0
    public var strayDataSourceEpisodes = 0
    public var malformedResponses = 0
    public var probesSent = 0
    /// Title / Subtitle / Message values longer than the max length we sent
    /// (kept truncated; see `ANCSProtocolError.attributeExceedsMaxLength`).
    public var overlongAttributes = 0
    /// Responses that ended without some optional attribute (MessageSize,
    /// an action label): by the next response's header or by the quiet period.
    public var responsesWithoutOptionalAttributes = 0
    /// Notifications kept when their session ended, re-announced by the next
    /// one (reconciled), and dropped (not re-announced, or pushed out).
    public var previousSessionKept = 0
    public var previousSessionReannounced = 0
    public var previousSessionDropped = 0
    /// `notificationShown` / `performAction` calls made while one of the
    /// consumer's own events was being delivered (0 with the watch, which
    /// applies them after the event).
    public var reentrantRequests = 0

    public init() {}
}

/// Liveness checks (on by default: `NotificationConsumer.Configuration.liveness`).
public struct LivenessPolicy: Sendable, Hashable {
    /// After this long without any ANCS traffic, probe with UID 0xFFFFFFFF.
    public var probeAfterQuiet: Duration
    /// After this long without a Notification Source event, recommend
    /// re-subscribing (nil: never).
    public var resubscribeAfterSilence: Duration?

    public init(probeAfterQuiet: Duration = .seconds(15 * 60), resubscribeAfterSilence: Duration? = .seconds(6 * 3600)) {
        self.probeAfterQuiet = probeAfterQuiet
        self.resubscribeAfterSilence = resubscribeAfterSilence
    }
}

