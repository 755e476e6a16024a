import AMS
import Notifications
import HAL

/// The lines of the `events` stream (docs/harness.md): one JSON object each,
/// with an `event` kind and `t`, the loop's monotonic time in nanoseconds.
/// Formatted only for a subscriber (see `HarnessServer`).
extension HarnessJSON {
    /// What happened to a notification, as the stream names it.
    public enum NotificationChange: String, Sendable {
        case added, modified, removed
    }

    /// `{"event":"notification","change":"added"|"modified",...}` with what the
    /// store has for `n` (null where an attribute has not arrived), a line
    /// (with its newline) in `line`'s kept buffer: no allocation once it
    /// has grown to the longest line.
    static func notificationEvent(_ change: NotificationChange, _ n: Notification, at now: MonotonicInstant, into line: inout JSONLineBuffer) {
        line.begin()
        line.key("event"); line.string("notification")
        line.key("change"); line.string(change == .added ? "added" : change == .modified ? "modified" : "removed")
        line.key("uid"); line.number(UInt64(n.uid.rawValue))
        line.key("app"); optional(n, .appIdentifier, into: &line)
        line.key("appName")
        if let name = n.appDisplayNameBytes { line.string(name) } else { line.raw("null") }
        line.key("title"); optional(n, .title, into: &line)
        line.key("subtitle"); optional(n, .subtitle, into: &line)
        line.key("message"); optional(n, .message, into: &line)
        line.key("category")
        var category = n.category.description  // a literal: no allocation
        category.withUTF8 { line.string(UnsafeRawBufferPointer($0)) }
        line.key("flags"); flags(n.flags, into: &line)
        line.key("positiveLabel"); optional(n, .positiveActionLabel, into: &line)
        line.key("negativeLabel"); optional(n, .negativeActionLabel, into: &line)
        line.key("t"); line.number(now.nanoseconds)
        line.end()
    }

    /// `{"event":"notification","change":"removed","uid":N,"t":...}`, into `line`.
    static func notificationRemovedEvent(_ uid: NotificationID, at now: MonotonicInstant, into line: inout JSONLineBuffer) {
        line.begin()
        line.key("event"); line.string("notification")
        line.key("change"); line.string("removed")
        line.key("uid"); line.number(UInt64(uid.rawValue))
        line.key("t"); line.number(now.nanoseconds)
        line.end()
    }

    /// The same lines as Strings, without the newline (tests, tools).
    public static func notificationEvent(_ change: NotificationChange, _ n: Notification, at now: MonotonicInstant) -> String {
        var line = JSONLineBuffer(capacity: 512)
        notificationEvent(change, n, at: now, into: &line)
        return String(decoding: line.bytes.dropLast(), as: UTF8.self)
    }

    public static func notificationRemovedEvent(_ uid: NotificationID, at now: MonotonicInstant) -> String {
        var line = JSONLineBuffer(capacity: 128)
        notificationRemovedEvent(uid, at: now, into: &line)
        return String(decoding: line.bytes.dropLast(), as: UTF8.self)
    }

    /// A text attribute's bytes as a JSON string, `null` when not stored.
    private static func optional(_ n: Notification, _ field: NotificationField, into line: inout JSONLineBuffer) {
        if n.has(field) {
            line.string(n.bytes(field))
        } else {
            line.raw("null")
        }
    }

    /// `["silent","important",...]` into `line` (also `flags(_:)`'s, for the `notifications` reply).
    static func flags(_ f: NotificationFlags, into line: inout JSONLineBuffer) {
        line.raw("[")
        var first = true
        func name(_ s: StaticString) {
            if !first { line.raw(",") }
            first = false
            line.string(s)
        }
        if f.contains(.silent) { name("silent") }
        if f.contains(.important) { name("important") }
        if f.contains(.preExisting) { name("preExisting") }
        if f.contains(.positiveAction) { name("positiveAction") }
        if f.contains(.negativeAction) { name("negativeAction") }
        line.raw("]")
    }

    /// `{"event":"media",...}`: the player (null without one), its state,
    /// the track, the elapsed time at `now` and the duration in
    /// milliseconds, the volume in percent (null while unknown).
    public static func mediaEvent(_ m: MediaState, at now: MonotonicInstant) -> String {
        object([("event", string("media"))] + mediaFields(m, at: now) + [("t", "\(now.nanoseconds)")])
    }

    /// The media fields of an event line, also the `state` reply's `media`
    /// object.
    static func mediaFields(_ m: MediaState, at now: MonotonicInstant) -> [(String, String)] {
        [
            ("player", m.playerName.isEmpty ? "null" : string(m.playerName.string)),
            ("state", string(playbackStateName(m.playbackState))),
            ("title", string(m.title.string)),
            ("artist", string(m.artist.string)),
            ("album", string(m.album.string)),
            ("elapsedMs", "\(m.elapsedMilliseconds(at: now))"),
            ("durationMs", m.durationMilliseconds.map { "\($0)" } ?? "null"),
            ("volume", m.volumePercent.map { "\($0)" } ?? "null"),
        ]
    }

    static func playbackStateName(_ s: PlaybackState) -> String {
        switch s {
        case .paused: "paused"
        case .playing: "playing"
        case .rewinding: "rewinding"
        case .fastForwarding: "fastForwarding"
        }
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
