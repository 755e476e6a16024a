import AMS
import BoardConfig
import HAL
import Input
import Screens

/// Music control: the watch keeps a copy of the phone's media state (AMS),
/// updated in place on every media event (a fixed-size value: nothing
/// allocates). The clock's negative press opens Now Playing while the phone
/// has a player; there the buttons send Remote Commands (docs/buttons.md).
/// A command that cannot be sent, or that the phone refuses, puts a short
/// notice on the screen ("Could not skip") until the next command, a new
/// track, or leaving. When AMS goes away the screen stays and says
/// "Nothing playing"; the negative button goes back to the clock. A new
/// volume, or a volume press, shows a bar for a moment (WatchModel+VolumeBar).
extension WatchModel {
    /// An event from the phone's AMS client; `state` is the session's media
    /// state after it. Redraws only while Now Playing is on screen (the
    /// progress is computed from the state when drawn, so no event is needed
    /// for time passing).
    public func mediaEvent(_ event: MediaEvent, state: MediaState, now: MonotonicInstant) {
        switch event {
        case .available:
            media = state
        case .unavailable:
            media.reset()
            mediaNotice = nil
            hideVolumeBar()
        case .changed(let what):
            let volumeBefore = media.volumePercent
            media = state
            if what.contains(.track) { mediaNotice = nil }
            if what.contains(.volume) { volumeReported(old: volumeBefore, new: state.volumePercent, now: now) }
        case .commandFailed(let command, _):
            guard screen == .nowPlaying else { return }
            mediaNotice = MediaNotice(failed: command, playing: isMediaPlaying)
        }
        if screen == .nowPlaying { requestRender() }
    }

    /// The phone's media state at the last event, and the notice: what the
    /// Now Playing screen draws at `now`.
    public func nowPlayingContent(now: MonotonicInstant) -> NowPlayingContent {
        NowPlayingContent(media: media, now: now, notice: mediaNotice, volumeBar: volumeBar)
    }

    /// The clock's (or waiting screen's) negative press opens Now Playing
    /// while the phone has a player.
    func opensNowPlaying(_ role: ButtonRole, _ gesture: ButtonGesture) -> Bool {
        role == .negative && gesture == .press && media.hasPlayer
    }

    func openNowPlaying() {
        mediaNotice = nil
        hideVolumeBar()
        screen = .nowPlaying
    }

    /// A gesture on the Now Playing screen.
    func nowPlayingButton(_ role: ButtonRole, _ gesture: ButtonGesture, now: MonotonicInstant) {
        switch (role, gesture) {
        case (.positive, .press), (.select, _):
            sendRemoteCommand(playPauseCommand)
        case (.positive, .longPress):
            sendRemoteCommand(.nextTrack)
        case (.positive, .doublePress):
            sendRemoteCommand(.previousTrack)
        case (.up, _):
            // The bar shows the level the phone knew; its report of the new one moves it.
            if media.hasPlayer { showVolumeBar(.up, now: now) }
            sendRemoteCommand(.volumeUp)
        case (.down, _):
            if media.hasPlayer { showVolumeBar(.down, now: now) }
            sendRemoteCommand(.volumeDown)
        case (.negative, _), (.back, _):
            mediaNotice = nil
            hideVolumeBar()
            screen = clockScreen
        }
    }

    /// Play / pause as the player supports it: its toggle when it has one
    /// (or has not said yet), else play or pause by the current state.
    var playPauseCommand: RemoteCommandID {
        let supported = media.supportedCommands
        if !media.supportedCommandsKnown || supported.contains(.togglePlayPause) { return .togglePlayPause }
        if isMediaPlaying && supported.contains(.pause) { return .pause }
        if !isMediaPlaying && supported.contains(.play) { return .play }
        return .togglePlayPause
    }

    /// Playing, fast-forwarding or rewinding: a toggle pauses.
    var isMediaPlaying: Bool { media.playbackState != .paused }

    private func sendRemoteCommand(_ command: RemoteCommandID) {
        guard media.hasPlayer else { return }
        mediaNotice = nil
        effects.requestRemoteCommand(command)
    }
}
