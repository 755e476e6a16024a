// The Apple Media Service vocabulary: identifiers, enumerations and flags
// from the AMS specification. Values are UTF-8 strings on the air; numbers
// inside them (PlaybackInfo, Volume, Duration) are decimal text.
// (The GATT UUIDs are ATTCodec's: BluetoothUUID.amsService and friends.)

/// RemoteCommandID: written to Remote Command; the phone's Remote Command
/// notifications list the ones its current player supports.
public enum RemoteCommandID: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case play = 0, pause = 1, togglePlayPause = 2, nextTrack = 3, previousTrack = 4
    case volumeUp = 5, volumeDown = 6, advanceRepeatMode = 7, advanceShuffleMode = 8
    case skipForward = 9, skipBackward = 10, likeTrack = 11, dislikeTrack = 12, bookmarkTrack = 13

    public var description: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .togglePlayPause: "toggle play/pause"
        case .nextTrack: "next track"
        case .previousTrack: "previous track"
        case .volumeUp: "volume up"
        case .volumeDown: "volume down"
        case .advanceRepeatMode: "advance repeat mode"
        case .advanceShuffleMode: "advance shuffle mode"
        case .skipForward: "skip forward"
        case .skipBackward: "skip backward"
        case .likeTrack: "like track"
        case .dislikeTrack: "dislike track"
        case .bookmarkTrack: "bookmark track"
        }
    }
}

/// A set of Remote Commands (what the phone's player supports now).
/// Commands past 15 (reserved today) are ignored.
public struct RemoteCommands: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ id: RemoteCommandID) { rawValue = 1 << UInt16(id.rawValue) }

    public func contains(_ id: RemoteCommandID) -> Bool { contains(RemoteCommands(id)) }
    public mutating func insert(_ id: RemoteCommandID) { insert(RemoteCommands(id)) }
}

/// EntityID: which object an Entity Update or Entity Attribute is about.
public enum EntityID: UInt8, CaseIterable, Hashable, Sendable {
    case player = 0, queue = 1, track = 2
}

/// Player attributes (EntityID .player).
public enum PlayerAttributeID: UInt8, CaseIterable, Hashable, Sendable {
    /// The app's localized name ("Music").
    case name = 0
    /// "PlaybackState,PlaybackRate,ElapsedTime", for example "1,1.0,32.456".
    case playbackInfo = 1
    /// 0.0 ... 1.0 as text.
    case volume = 2
}

/// Queue attributes (EntityID .queue).
public enum QueueAttributeID: UInt8, CaseIterable, Hashable, Sendable {
    case index = 0, count = 1, shuffleMode = 2, repeatMode = 3
}

/// Track attributes (EntityID .track).
public enum TrackAttributeID: UInt8, CaseIterable, Hashable, Sendable {
    case artist = 0, album = 1, title = 2
    /// Seconds as decimal text, for example "213.42".
    case duration = 3
}

/// EntityUpdateFlags (Entity Update notification byte 2).
public struct EntityUpdateFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The value was cut to fit the notification: read the whole value
    /// through Entity Attribute.
    public static let truncated = EntityUpdateFlags(rawValue: 1 << 0)
}

/// PlaybackState (first field of PlaybackInfo).
public enum PlaybackState: UInt8, CaseIterable, Hashable, Sendable {
    case paused = 0, playing = 1, rewinding = 2, fastForwarding = 3
}

/// AMS ATT error codes (in an Error Response to a write).
public enum AMSErrorCode: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The MR has not registered for Entity Update, or no player.
    case invalidState = 0xA0
    /// The command was not properly formatted.
    case invalidCommand = 0xA1
    /// The attribute is empty or absent.
    case absentAttribute = 0xA2

    public var description: String {
        switch self {
        case .invalidState: "invalid state (0xA0)"
        case .invalidCommand: "invalid command (0xA1)"
        case .absentAttribute: "absent attribute (0xA2)"
        }
    }
}
