import AMS
import HAL

/// What the Now Playing screen is drawn from: the watch's copy of the
/// phone's media state, the instant its progress is computed at (elapsed
/// time advances by the playback rate since the phone reported it), and a
/// notice after a failed command.
public struct NowPlayingContent: Sendable {
    public var media: MediaState
    public var now: MonotonicInstant
    public var notice: MediaNotice?

    public init(media: MediaState, now: MonotonicInstant, notice: MediaNotice? = nil) {
        self.media = media
        self.now = now
        self.notice = notice
    }
}
