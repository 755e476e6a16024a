import HAL

/// What the phone's media player is doing, as the AMS client has learnt it
/// from Entity Update notifications (and Entity Attribute reads of
/// truncated values). A value type in fixed storage: the client updates it
/// in place, the watch reads it; nothing allocates.
public struct MediaState: Sendable, Equatable {
    /// The player app's name ("Music"); empty when no player is active.
    public var playerName = MediaText()
    public var playbackState: PlaybackState = .paused
    /// Playback rate in thousandths (1000 = normal speed, 0 = paused).
    public var playbackRateMilli: Int32 = 0
    /// Elapsed time in milliseconds when the phone reported it at `elapsedAt`.
    public var elapsedMilliseconds: Int64 = 0
    /// When the elapsed time was received (nil: not known yet).
    public var elapsedAt: MonotonicInstant? = nil
    /// 0 ... 100, nil until the phone reports it.
    public var volumePercent: Int8? = nil

    public var artist = MediaText()
    public var album = MediaText()
    public var title = MediaText()
    /// The track's duration in milliseconds (nil: unknown).
    public var durationMilliseconds: Int64? = nil

    /// The Remote Commands the player supports now.
    public var supportedCommands = RemoteCommands()
    /// Whether the phone has said which (a Remote Command notification):
    /// until then every command is tried.
    public var supportedCommandsKnown = false
    /// The phone offers Remote Command without Entity Update: the buttons
    /// work, but nothing about the player will come.
    public var remoteOnly = false

    public init() {}

    /// A player is known (the phone named one, or sent a track), or the
    /// phone offers only its remote.
    public var hasPlayer: Bool { !playerName.isEmpty || !title.isEmpty || remoteOnly }

    /// Whether `id` is worth sending: the phone has not said what it
    /// supports yet, or said it supports this one.
    public func mayTry(_ id: RemoteCommandID) -> Bool { !supportedCommandsKnown || supportedCommands.contains(id) }

    /// The elapsed time at `now`: the reported value advanced by the rate
    /// since it arrived, clamped to [0, duration]. Computed on demand, so
    /// nothing needs a timer while the screen is off.
    public func elapsedMilliseconds(at now: MonotonicInstant) -> Int64 {
        var ms = elapsedMilliseconds
        if let at = elapsedAt, now > at {
            let since = now - at
            let sinceMs = since.components.seconds * 1000 + since.components.attoseconds / 1_000_000_000_000_000
            ms += sinceMs * Int64(playbackRateMilli) / 1000
        }
        if ms < 0 { ms = 0 }
        if let d = durationMilliseconds, ms > d { ms = d }
        return ms
    }

    /// Forget everything (the phone went away, or AMS did).
    public mutating func reset() { self = MediaState() }
}
