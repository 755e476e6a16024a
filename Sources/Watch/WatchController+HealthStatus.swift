import Notifications
import Screens

/// The notification source's health in words, for systemd's STATUS=
/// (`systemctl status wristcore`), and as values to tell when the words
/// would change.
extension WatchController {
    /// Everything `healthStatus` says, as values (no text).
    public struct HealthStatusKey: Equatable {
        var connected: Bool
        var state: NotificationSourceHealth.State
        var lastResult: NotificationSourceHealth.Result
        var counts: InlineArray<4, Int>
        var ageMinutes: Int64?
        /// The Status screen's causes (`statusCauses`).
        var causes: Int

        public static func == (a: Self, b: Self) -> Bool {
            a.connected == b.connected && a.state == b.state && a.lastResult == b.lastResult && a.ageMinutes == b.ageMinutes
                && a.causes == b.causes
                && a.counts[0] == b.counts[0] && a.counts[1] == b.counts[1] && a.counts[2] == b.counts[2]
                && a.counts[3] == b.counts[3]
        }
    }

    public var healthStatusKey: HealthStatusKey {
        let h = notifications.health
        return HealthStatusKey(
            connected: session != nil, state: h.state, lastResult: h.lastResult,
            counts: [h.probes, h.probesUnanswered, h.resubscribes, h.resubscribeFailures],
            ageMinutes: h.notificationSourceAge(at: now).map { $0.components.seconds / 60 },
            causes: Self.causeBits(model.statusReport(now: now)))
    }

    /// The causes and the Silent count (its words say how many).
    static func causeBits(_ r: StatusReport) -> Int {
        r.causeBits | (r.silentInARow >= 2 ? r.silentInARow << 8 : 0)
    }

    /// The Status screen's causes that hold now, each by name and in words
    /// (the Silent one says how many): the runtime status file's lines.
    public var statusCauseList: [(name: StaticString, words: String)] {
        let r = model.statusReport(now: now)
        var list: [(name: StaticString, words: String)] = []
        for cause in StatusReport.Cause.allCases where r.has(cause) {
            list.append((cause.name, cause == .silent ? "\(r.silentInARow) \(cause.words)" : "\(cause.words)"))
        }
        return list
    }

    /// The Status screen's causes in words, for STATUS= and the log ("" when
    /// none): why notifications may not arrive, and what to do.
    public var statusCauses: String {
        statusCauseList.map { $0.words }.joined(separator: "; ")
    }

    /// "ANCS ok: last notification event 4 min ago, 12 probes (0
    /// unanswered), 1 re-subscriptions (0 failed), last check: probeAnswered".
    public var healthStatus: String {
        let h = notifications.health
        let age = h.notificationSourceAge(at: now).map { "\($0.components.seconds / 60) min ago" } ?? "none yet"
        return "ANCS \(h.state.rawValue): last notification event \(age), \(h.probes) probes (\(h.probesUnanswered) unanswered), "
            + "\(h.resubscribes) re-subscriptions (\(h.resubscribeFailures) failed), last check: \(h.lastResult.rawValue)"
    }
}
