import HAL

/// How sure the watch is that a source's notifications still arrive, and
/// what it did about it: its liveness checks (probe, silence), the
/// re-subscriptions, the stuck requests it cleared. (ANCS's terms: a
/// probe is a request no phone can satisfy, a re-subscription rewrites the
/// subscriptions; another source maps its own checks onto them.)
/// Shown by the status bar (a mark unless `ok`), the harness `state` and
/// systemd's STATUS=; see docs/troubleshooting.md.
public struct NotificationSourceHealth: Hashable, Sendable {
    public enum State: String, Sendable {
        /// No ANCS session yet (not subscribed, ANCS missing, link just up).
        case unknown
        /// Subscribed, and nothing says otherwise since: the last check
        /// passed or a Notification Source event arrived.
        case ok
        /// The last check failed (probe unanswered or refused, silence, a
        /// stuck request) or a re-subscription is under way or failed.
        case failing
    }

    /// The last thing the health checks saw or did.
    public enum Result: String, Sendable {
        case none
        /// The Notification Source subscription was confirmed.
        case subscribed
        /// A probe (UID 0xFFFFFFFF) was answered (0xA2, as expected).
        case probeAnswered
        /// A probe was refused with another error.
        case probeRejected
        /// A probe got no answer within the request timeout.
        case probeUnanswered
        /// No Notification Source event for `resubscribeAfterSilence`.
        case silent
        /// A Control Point write whose outcome never came was forgotten.
        case stuckRequestCleared
        /// The subscriptions are being rewritten.
        case resubscribing
        /// They were rewritten.
        case resubscribed
        /// Rewriting them failed: the link was dropped so the phone reconnects.
        case resubscribeFailed
    }

    public var state: State = .unknown
    public var lastResult: Result = .none
    /// When the last Notification Source event arrived (nil: none yet).
    public var lastNotificationSource: MonotonicInstant?
    /// Probes sent, answered (alive) and unanswered.
    public var probes = 0
    public var probesAnswered = 0
    public var probesUnanswered = 0
    /// Re-subscriptions started, and those that failed.
    public var resubscribes = 0
    public var resubscribeFailures = 0
    /// Control Point writes whose outcome never came, forgotten by the watchdog.
    public var stuckRequestsCleared = 0

    public init() {}

    /// How long ago the last Notification Source event arrived.
    public func notificationSourceAge(at now: MonotonicInstant) -> Duration? {
        lastNotificationSource.map { now.duration(since: $0) }
    }

    public mutating func record(_ result: Result, _ state: State) {
        lastResult = result
        self.state = state
    }

    /// Another consumer's history (the previous link's), kept across a
    /// reconnect: counters and the last Notification Source; the state
    /// starts over.
    public mutating func carryOver(_ old: NotificationSourceHealth) {
        lastResult = old.lastResult
        lastNotificationSource = old.lastNotificationSource
        probes += old.probes
        probesAnswered += old.probesAnswered
        probesUnanswered += old.probesUnanswered
        resubscribes += old.resubscribes
        resubscribeFailures += old.resubscribeFailures
        stuckRequestsCleared += old.stuckRequestsCleared
    }
}
