import AMS
import ANCS
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
    /// store has for `n` (null where an attribute has not arrived).
    public static func notificationEvent(_ change: NotificationChange, _ n: ANCSNotification, at now: MonotonicInstant)
        -> String {
        let fields: [(String, String)] = [
            ("event", string("notification")),
            ("change", string(change.rawValue)),
            ("uid", "\(n.uid.rawValue)"),
            ("app", optional(n.appIdentifier)),
            ("appName", optional(n.appDisplayName)),
            ("title", optional(n.title)),
            ("subtitle", optional(n.subtitle)),
            ("message", optional(n.message)),
            ("category", string("\(n.category)")),
            ("flags", flags(n.flags)),
            ("positiveLabel", optional(n.positiveActionLabel)),
            ("negativeLabel", optional(n.negativeActionLabel)),
            ("t", "\(now.nanoseconds)"),
        ]
        return object(fields)
    }

    /// `{"event":"notification","change":"removed","uid":N,"t":...}`.
    public static func notificationRemovedEvent(_ uid: NotificationUID, at now: MonotonicInstant) -> String {
        object([
            ("event", string("notification")), ("change", string(NotificationChange.removed.rawValue)),
            ("uid", "\(uid.rawValue)"), ("t", "\(now.nanoseconds)"),
        ])
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
