import AMS
import HAL
import Screens

/// Now Playing's volume bar (`VolumeBar`): when the phone's volume changes
/// while the screen is up, or the wearer presses volume up / down there,
/// the progress line gives way to a bar for `volumeBarShownFor`, then
/// comes back. The bar is timed like the watch's other deadlines (one in
/// `nextDeadline`), so it costs a wake-up only while it is up. The first
/// level of a session (the phone's answer to the watch's registration)
/// is a reading, not a change: it brings no bar.
extension WatchModel {
    /// How long the bar stays after the last change or press.
    static let volumeBarShownFor: Duration = .seconds(2)

    /// Puts the bar up (or keeps it up) for another `volumeBarShownFor`.
    func showVolumeBar(_ cause: VolumeBar.Cause, now: MonotonicInstant) {
        volumeBar = VolumeBar(cause)
        volumeBarDeadline = now.advanced(by: Self.volumeBarShownFor)
        requestRender()
    }

    /// The phone reported its volume (`old` is what the watch knew before).
    /// Only a change on Now Playing shows: not the first level (`old` nil),
    /// not the same level again.
    func volumeReported(old: Int8?, new: Int8?, now: MonotonicInstant) {
        guard screen == .nowPlaying, let old, let new, new != old else { return }
        showVolumeBar(.phone, now: now)
    }

    /// Takes the bar down (its time is up, the player went, the wearer left).
    func hideVolumeBar() {
        volumeBarDeadline = nil
        guard volumeBar != nil else { return }
        volumeBar = nil
        if screen == .nowPlaying { requestRender() }
    }
}
