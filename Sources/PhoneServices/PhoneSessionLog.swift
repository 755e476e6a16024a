import ANCS
import Log
import Notifications
import PhoneFeeds

// What a phone session's events mean to the watch above it: the neutral
// notification event (for the model), and the ANCS details for the log
// (so the watch's modules never read ANCS types).

extension PhoneSession.Event {
    /// The notification event inside, for the watch's model (nil: none).
    public var notificationEvent: NotificationEvent? {
        switch self {
        case .ancs(let e): e.notificationEvent
        case .notification(let e): e
        case .ancsResubscribing, .ancsResubscribed: .healthChanged
        default: nil
        }
    }

    /// Logs what the wearer's log should say about this event (ANCS's
    /// subscription, health and protocol findings). Lines below the
    /// logger's level are not built.
    public func log(to logger: Logger) {
        switch self {
        case .ancs(let e):
            Self.log(e, to: logger)
        case .ancsSubscribed:
            logger.info("ANCS subscribed: notifications will arrive")
        case .ancsSubscriptionFailed(let e):
            logger.warning("cannot subscribe to ANCS: \(e)")
        case .ancsUnavailable:
            // The session's end (if one ran) already emptied the store and the screens.
            logger.notice("the phone offers no ANCS (on an iPhone: allow 'Share System Notifications' for this watch in Settings > Bluetooth)")
        case .ancsCommandNotSent(let reason):
            // The session reports each reason once per ANCS session.
            logger.warning("cannot send an ANCS command: \(reason)")
        case .ancsResubscribing(let reason):
            logger.notice("ANCS health: \(Self.resubscribeReason(reason)): rewriting the subscriptions")
        case .ancsResubscribed:
            logger.notice("ANCS health: subscriptions rewritten")
        case .ancsResubscribeFailed(let e):
            logger.warning("ANCS health: rewriting the subscriptions failed (\(e)): dropping the link so the phone reconnects")
        case .gadgetbridgeStarted:
            logger.info("Gadgetbridge on the UART: an Android phone; notifications will arrive")
        case .gadgetbridgeLineDropped(let problem):
            logger.warning("dropped a line from Gadgetbridge: \(problem) (further ones are counted, not logged)")
        case .gadgetbridgeReplyDropped:
            logger.warning("cannot write to Gadgetbridge (not subscribed, or the link is full): a reply was dropped")
        case .gadgetbridgeUnsupported(let type):
            logger.debug("Gadgetbridge sent '\(String(decoding: type, as: UTF8.self))': not acted on")
        case .findWatch(let on):
            logger.info(on ? "the phone asks to find the watch" : "the phone stopped looking for the watch")
        case .buzz(let count):
            logger.debug("the phone asks for \(count) buzz(es)")
        case .weather(let w):
            logger.info("weather from the phone: \(w.temperature) °C, \(w.summary.string)")
        case .calendarEvent(let e):
            logger.debug("calendar event \(e.id) from the phone: \(e.title.string)")
        case .alarms(let a):
            logger.info("the phone set \(a.count) alarm(s), \(a.enabledCount) on")
        case .calendarEventRemoved(let id):
            logger.debug("calendar event \(id) deleted on the phone")
        case .phoneBattery(let level):
            if let level { logger.debug("the phone's battery: \(level)%") }
        case .phoneTime, .discoveryFailed, .closed, .media, .notification, .calendarSyncRequested:
            break
        }
    }

    private static func log(_ event: ANCSEvent, to logger: Logger) {
        switch event {
        case .notificationAdded(let info):
            logger.debug("notification \(info.uid) added: \(info.category)")
        case .actionSent(let uid, let action):
            // Debug, not info: at the daemon's default level an info message is
            // built (7 mallocs) on every button press (Benchmarks/WatchBenchmarks).
            logger.debug("phone accepted the \(action) action on notification \(uid)")
        case .actionFailed(let uid, let action, let error):
            logger.warning("the phone refused the \(action) action on notification \(uid): \(error)")
        case .fetchFailed(let uid, let error):
            logger.debug("fetching notification \(uid) failed: \(error)")
        case .sessionStarted:
            logger.info("ANCS session started")
        case .sessionEnded(let reason):
            logger.info("ANCS session ended: \(reason)")
        case .protocolError(.attributeExceedsMaxLength(_, let attribute, _, let maxLength)):
            // Reported once per session; the value was kept, cut.
            logger.warning(
                "the phone sent \(attributeName(attribute)) longer than the requested \(maxLength) bytes: kept the first \(maxLength)")
        case .protocolError(let e):
            logger.warning("dropped malformed ANCS data: \(e)")
        case .livenessProbe(.alive):
            logger.debug("ANCS health: the phone answered a probe")
        case .livenessProbe(let result):
            logger.warning("ANCS health: probe \(result == .noAnswer ? "unanswered" : "\(result)")")
        case .notificationModified, .notificationRemoved, .attributesReady, .resubscribeRecommended:
            break
        }
    }

    static func resubscribeReason(_ r: ResubscribeReason) -> String {
        switch r {
        case .probeUnanswered: "the phone did not answer a probe"
        case .notificationSourceSilent: "no notification event for hours"
        case .controlPointStuck: "a Control Point request got no answer"
        }
    }

    /// "Title", "Subtitle", "Message" (the attributes that carry a max length).
    static func attributeName(_ id: UInt8) -> String {
        switch NotificationAttributeID(rawValue: id) {
        case .title: "Title"
        case .subtitle: "Subtitle"
        case .message: "Message"
        default: "attribute \(id)"
        }
    }
}
