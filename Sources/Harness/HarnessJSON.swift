import HAL
import PhoneFeeds
import Notifications
import Screens
import TextFormat
import Timekeeping
import Watch

/// The harness's JSON answers (one line each; field names are documented in
/// docs/harness.md and stay stable).
public enum HarnessJSON {
    /// A JSON string literal (HAL's JSON escaping, as `wristcore decode --json` writes it).
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars { EscapedText.append(scalar, to: &out, style: .json, quote: true, backslash: true) }
        out += "\""
        return out
    }

    static func optional(_ s: String?) -> String { s.map(string) ?? "null" }

    /// `["silent","important",...]`: the events stream's list, as a String.
    static func flags(_ f: NotificationFlags) -> String {
        var line = JSONLineBuffer(capacity: 96)
        flags(f, into: &line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// The store, newest first.
    public static func notifications(_ consumer: any NotificationSource) -> String {
        var items: [String] = []
        consumer.forEachNotification(newestFirst: true) { n in
            let fields: [(String, String)] = [
                ("uid", "\(n.uid.rawValue)"),
                ("category", string("\(n.category)")),
                ("flags", flags(n.flags)),
                ("app", optional(n.appIdentifier)),
                ("appName", optional(n.appDisplayName)),
                ("title", optional(n.title)),
                ("subtitle", optional(n.subtitle)),
                ("message", optional(n.message)),
                ("date", optional(n.date.map { "\($0)" })),
                ("positiveLabel", optional(n.positiveActionLabel)),
                ("negativeLabel", optional(n.negativeActionLabel)),
            ]
            items.append("{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}")
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// "off", "untilTurnedOff" or "timed".
    static func doNotDisturbName(_ d: DoNotDisturbState) -> String {
        switch d {
        case .off: "off"
        case .untilTurnedOff: "untilTurnedOff"
        case .until: "timed"
        }
    }

    static func screenName(_ s: Screen) -> String {
        switch s {
        case .idleClock: "idleClock"
        case .waitingForPhone: "waitingForPhone"
        case .list: "list"
        case .detail: "detail"
        case .incomingCall: "incomingCall"
        case .pairing: "pairing"
        case .message: "message"
        case .doNotDisturbMenu: "doNotDisturbMenu"
        case .nowPlaying: "nowPlaying"
        case .watchMenu: "watchMenu"
        case .weather: "weather"
        case .agenda: "agenda"
        case .findingPhone: "findingPhone"
        case .notificationMenu: "notificationMenu"
        case .replyPicker: "replyPicker"
        case .status: "status"
        case .mutedApps: "mutedApps"
        case .alarms: "alarms"
        case .alarmEditor: "alarmEditor"
        case .ringing: "ringing"
        case .timer: "timer"
        case .stopwatch: "stopwatch"
        }
    }

    /// The watch's state (docs/harness.md), from a snapshot of it; `bus`
    /// is the display bus as counted (the emulated bus's count on the
    /// simulated board; default: the driver's).
    public static func state(_ w: WatchSnapshot, bus busCount: DisplayBusCounters? = nil) -> String {
        var uid = "null"
        switch w.screen {
        case .detail(let u, _), .incomingCall(let u), .notificationMenu(let u, _), .replyPicker(let u, _): uid = "\(u.rawValue)"
        default: break
        }
        let fields: [(String, String)] = [
            ("screen", string(screenName(w.screen))),
            ("uid", uid),
            ("display", string(w.displayPower.rawValue)),
            ("link", string("\(w.link)")),
            ("connected", w.isPhoneConnected ? "true" : "false"),
            ("phone", w.phoneKind.map(string) ?? "null"),
            ("notifications", "\(w.notificationCount)"),
            ("ringing", w.ringingCall.map { "\($0.rawValue)" } ?? "null"),
            ("motor", string(w.isMotorOn ? "on" : "off")),
            ("bus", bus(busCount ?? w.displayBus)),
            ("ancs", ancs(w.sourceHealth, now: w.now)),
            ("doNotDisturb", string(doNotDisturbName(w.doNotDisturb))),
            ("media", w.media.hasPlayer ? object(mediaFields(w.media, at: w.now)) : "null"),
            ("weather", w.weather.map { object([
                ("temperature", "\($0.temperature)"), ("summary", string($0.summary.string)), ("location", string($0.location.string)),
            ]) } ?? "null"),
            ("calendarEvents", "\(w.calendarEvents)"),
            ("phoneAlarms", "\(w.phoneAlarms)"),
            ("alarms", alarms(w)),
            ("ringingAlert", w.ringing.map { string(alertName($0)) } ?? "null"),
            ("snoozed", w.snoozed.map { string(alertName($0)) } ?? "null"),
            ("timer", object([
                ("running", w.timer.isRunning ? "true" : "false"), ("secondsLeft", "\(w.timer.secondsLeft(at: w.now))"),
                ("length", "\(w.timer.length)"),
            ])),
            ("stopwatch", object([
                ("running", w.stopwatch.isRunning ? "true" : "false"),
                ("elapsedMs", "\(w.stopwatch.elapsed(at: w.now).millisecondsClamped)"), ("laps", "\(w.stopwatch.lapCount)"),
            ])),
            ("battery", w.watchBattery.map { b in object([
                ("percent", "\(b.percent)"), ("charging", b.charging ? "true" : "false"),
                ("millivolts", b.millivolts.map { "\($0)" } ?? "null"),
            ]) } ?? "null"),
            ("phoneBattery", w.phoneBattery.map { "\($0)" } ?? "null"),
            ("causes", causes(w.status)),
        ]
        return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The alarms (docs/harness.md): each as "HH:MM days on|off [phone]",
    /// and the next ring as local "YYYY-MM-DDTHH:MM" (null: none).
    static func alarms(_ w: WatchSnapshot) -> String {
        var rows: [String] = []
        for i in 0..<w.alarms.count {
            let a = w.alarms[i]
            rows.append(string("\(twoDigits(a.hour)):\(twoDigits(a.minute)) \(a.days.text) \(a.enabled ? "on" : "off")\(w.alarms.isFromPhone(i) ? " phone" : "")"))
        }
        let next = w.nextAlarm.map { t -> String in
            let c = CivilTime(secondsSinceEpoch: t)
            return string("\(c.year)-\(twoDigits(c.month))-\(twoDigits(c.day))T\(twoDigits(c.hour)):\(twoDigits(c.minute))")
        } ?? "null"
        return object([("list", "[" + rows.joined(separator: ",") + "]"), ("next", next)])
    }

    static func alertName(_ a: RingingAlert) -> String {
        switch a {
        case .alarm(let h, let m, _): "alarm \(twoDigits(h)):\(twoDigits(m))"
        case .timer: "timer"
        }
    }

    static func twoDigits(_ n: Int) -> String { NumberText.zeroPadded(n, width: 2) }

    /// The Status screen's causes, by name (docs/harness.md,
    /// `StatusReport.Cause`): `notSharing`, `notAnswering`, `bondLost`,
    /// `silent` (two or more Silent in a row), `adapterGone`, `notPaired`,
    /// `pairing`, `lookingForNotifications`.
    static func causes(_ r: StatusReport) -> String {
        var names: [String] = []
        for cause in StatusReport.Cause.allCases where r.has(cause) { names.append(string("\(cause.name)")) }
        return "[" + names.joined(separator: ",") + "]"
    }

    /// ANCS health (docs/harness.md): state, seconds since the last
    /// Notification Source event (null: none yet), probes, re-subscriptions,
    /// the last check's result.
    static func ancs(_ h: NotificationSourceHealth, now: MonotonicInstant) -> String {
        let age = h.notificationSourceAge(at: now).map { d -> String in
            let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
            return "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
        } ?? "null"
        let fields: [(String, String)] = [
            ("state", string(h.state.rawValue)),
            ("lastNotificationSourceAge", age),
            ("probes", "\(h.probes)"),
            ("probesAnswered", "\(h.probesAnswered)"),
            ("probesUnanswered", "\(h.probesUnanswered)"),
            ("resubscribes", "\(h.resubscribes)"),
            ("resubscribeFailures", "\(h.resubscribeFailures)"),
            ("stuckRequestsCleared", "\(h.stuckRequestsCleared)"),
            ("lastResult", string(h.lastResult.rawValue)),
        ]
        return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The display bus since the daemon started: bytes after the address
    /// byte (control bytes, commands, data) and transactions, as the
    /// emulated bus counted them (the driver's own count on a real board);
    /// and the last flush's.
    static func bus(_ c: DisplayBusCounters) -> String {
        return "{\"bytes\":\(c.bytes),\"transactions\":\(c.transactions),"
            + "\"lastFlush\":{\"bytes\":\(c.lastFlushBytes),\"transactions\":\(c.lastFlushTransactions)}}"
    }
}
