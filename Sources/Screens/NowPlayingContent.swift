import AMS
import HAL

/// What the Now Playing screen is drawn from: the watch's copy of the
/// phone's media state, the instant its progress is computed at (elapsed
/// time advances by the playback rate since the phone reported it), a
/// notice after a failed command, and the volume bar while it is up.
public struct NowPlayingContent: Sendable {
    public var media: MediaState
    public var now: MonotonicInstant
    public var notice: MediaNotice?
    /// Drawn in place of the progress line (nil: the progress line).
    public var volumeBar: VolumeBar?

    public init(media: MediaState, now: MonotonicInstant, notice: MediaNotice? = nil, volumeBar: VolumeBar? = nil) {
        self.media = media
        self.now = now
        self.notice = notice
        self.volumeBar = volumeBar
    }
}
