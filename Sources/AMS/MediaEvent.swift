/// What changed in `MediaState` after an AMS update (several bits at once
/// when one notification touched several parts, for example a new track).
public struct MediaChange: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The player's name (a player appeared, changed or went away).
    public static let player = MediaChange(rawValue: 1 << 0)
    /// Playback state, rate or elapsed time.
    public static let playback = MediaChange(rawValue: 1 << 1)
    public static let volume = MediaChange(rawValue: 1 << 2)
    /// Artist, album, title or duration.
    public static let track = MediaChange(rawValue: 1 << 3)
    /// The supported Remote Commands.
    public static let commands = MediaChange(rawValue: 1 << 4)
}

/// What the AMS client tells the watch.
public enum MediaEvent: Sendable, Equatable {
    /// AMS is subscribed: media updates will arrive.
    case available
    /// AMS went away (Service Changed, link closed): `MediaState` was reset.
    case unavailable
    case changed(MediaChange)
    /// The phone refused a Remote Command (the AMS error when it sent one:
    /// 0xA0 no player / not registered, 0xA1 invalid command), or it could
    /// not be sent (nil).
    case commandFailed(RemoteCommandID, AMSErrorCode?)
}
