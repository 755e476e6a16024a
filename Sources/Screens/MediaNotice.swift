import AMS

/// A line the Now Playing screen shows, inverted, in place of the player's
/// name (on a 128x32 panel, of the artist) when a Remote Command could not
/// be sent or the phone refused it: the screen stays and its buttons still
/// act, as the call screen does with `CallNotice`.
public enum MediaNotice: Sendable, Equatable {
    case couldNotPlay
    case couldNotPause
    case couldNotSkip
    case couldNotGoBack
    case couldNotSetVolume
    /// Any other command (the watch sends none of them today).
    case couldNotSend

    /// The notice for a failed `command`; `playing` tells what a failed
    /// toggle meant to do.
    public init(failed command: RemoteCommandID, playing: Bool) {
        switch command {
        case .play: self = .couldNotPlay
        case .pause: self = .couldNotPause
        case .togglePlayPause: self = playing ? .couldNotPause : .couldNotPlay
        case .nextTrack, .skipForward: self = .couldNotSkip
        case .previousTrack, .skipBackward: self = .couldNotGoBack
        case .volumeUp, .volumeDown: self = .couldNotSetVolume
        default: self = .couldNotSend
        }
    }

    /// What the panel shows.
    public var text: StaticString {
        switch self {
        case .couldNotPlay: "Could not play"
        case .couldNotPause: "Could not pause"
        case .couldNotSkip: "Could not skip"
        case .couldNotGoBack: "Could not go back"
        case .couldNotSetVolume: "Could not set volume"
        case .couldNotSend: "Could not send"
        }
    }
}
