/// The volume bar Now Playing shows for a moment in place of its progress
/// line, when the phone's volume changes or the wearer presses up / down
/// there (the watch takes it down 2 s later: WatchModel+VolumeBar).
/// The level is the media state's (`MediaState.volumePercent`), read when
/// drawn, so a report from the phone while the bar is up moves its fill.
public struct VolumeBar: Sendable, Equatable {
    /// What brought the bar up.
    public enum Cause: Sendable, Equatable {
        /// The phone reported a new volume.
        case phone
        /// The wearer pressed volume up / down on the watch.
        case up, down
    }

    public var cause: Cause

    public init(_ cause: Cause) { self.cause = cause }

    /// Said in words when the phone has not told the level (Gadgetbridge
    /// never does; an iPhone may not have yet): what the press asked for.
    /// No descenders: the line sits on the panel's last row.
    var words: StaticString {
        switch cause {
        case .up: "Volume +"
        case .down: "Volume -"
        case .phone: "Volume"
        }
    }
}
