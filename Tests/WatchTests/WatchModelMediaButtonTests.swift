import AMS
import ANCS
import Notifications
import BoardConfig
import HAL
import Input
import Screens
import Testing
import Watch

/// docs/buttons.md's Now Playing cells, and the clock's way in, on two-,
/// four- and six-button boards (as WatchModelButtonTests does for the other
/// rows); then what a refused command, the phone's media events and a dark
/// display do there.
@Suite struct WatchModelMediaButtonTests {
    typealias Outcome = WatchModelButtonTests.Outcome

    /// The phone's Music app playing a track that supports `commands`.
    static func music(playing: Bool = true, commands: [RemoteCommandID] = [.togglePlayPause, .nextTrack, .previousTrack, .volumeUp, .volumeDown])
        -> MediaState
    {
        var m = MediaState()
        m.playerName = MediaText("Music")
        m.title = MediaText("Blue in Green")
        m.artist = MediaText("Miles Davis")
        m.durationMilliseconds = 337_000
        m.playbackState = playing ? .playing : .paused
        m.playbackRateMilli = playing ? 1000 : 0
        m.elapsedMilliseconds = 83_000
        m.elapsedAt = MonotonicInstant(nanoseconds: 1_000_000_000)
        for c in commands { m.supportedCommands.insert(c) }
        m.supportedCommandsKnown = !commands.isEmpty  // none listed: the phone has not said yet
        return m
    }

    /// A connected phone playing music (`state`), on the clock.
    static func onTheClock(_ state: MediaState = music()) -> ModelRig {
        let rig = ModelRig()
        rig.connect()
        rig.model.mediaEvent(.available, state: state, now: rig.now)
        rig.model.mediaEvent(.changed([.player, .playback, .track, .commands]), state: state, now: rig.now)
        #expect(rig.screen == .idleClock)
        return rig
    }

    /// Now Playing open, on a phone playing `state`.
    static func nowPlaying(_ state: MediaState = music()) -> ModelRig {
        let rig = onTheClock(state)
        rig.press(.negative)
        #expect(rig.screen == .nowPlaying)
        return rig
    }

    /// Like WatchModelButtonTests.check, for the inputs `only` keeps.
    func check(
        _ board: BoardButtons, start: () -> ModelRig, _ expected: [String: Outcome],
        only: (ButtonRole, ButtonGesture) -> Bool = { _, _ in true }, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (role, gesture) in board.inputs where only(role, gesture) {
            let rig = start()
            let before = rig.screen
            _ = rig.sink.take()
            rig.press(role, gesture)
            let got = Outcome(screen: rig.screen, effects: rig.sink.take())
            let want = expected[key(role, gesture)] ?? Outcome(screen: before)
            #expect(got == want, "\(board) board, \(key(role, gesture)) on \(before)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - the cells

    @Test(arguments: BoardButtons.all)
    func clockNegativePressOpensNowPlayingWhileThePhoneHasAPlayer(board: BoardButtons) {
        // The negative and back buttons' cells of the clock (the positive
        // side opens the list or the Do Not Disturb menu: WatchModelButtonTests;
        // the negative long press the watch menu: WatchModelFeedsTests).
        let backSide: (ButtonRole, ButtonGesture) -> Bool = { role, gesture in
            (role == .negative || role == .back) && !(role == .negative && gesture == .longPress)
        }
        check(board, start: { Self.onTheClock() }, ["negative press": Outcome(screen: .nowPlaying)], only: backSide)
        // With notifications too.
        check(board, start: {
            let rig = WatchModelButtonTests.withThree()
            rig.model.mediaEvent(.changed([.player, .track]), state: Self.music(), now: rig.now)
            return rig
        }, ["negative press": Outcome(screen: .nowPlaying)], only: backSide)
        // No player: nothing, as before.
        check(board, start: {
            let rig = ModelRig()
            rig.connect()
            return rig
        }, [:], only: backSide)
    }

    @Test(arguments: BoardButtons.all)
    func nowPlaying(board: BoardButtons) {
        let clock = Outcome(screen: .idleClock)
        let toggle = Outcome(screen: .nowPlaying, effects: [.remote(.togglePlayPause)])
        let up = Outcome(screen: .nowPlaying, effects: [.remote(.volumeUp)])
        let down = Outcome(screen: .nowPlaying, effects: [.remote(.volumeDown)])
        check(board, start: { Self.nowPlaying() }, [
            "positive press": toggle, "select press": toggle, "select longPress": toggle,
            "positive longPress": Outcome(screen: .nowPlaying, effects: [.remote(.nextTrack)]),
            "positive doublePress": Outcome(screen: .nowPlaying, effects: [.remote(.previousTrack)]),
            "up press": up, "up longPress": up, "down press": down, "down longPress": down,
            "negative press": clock, "negative longPress": clock, "back press": clock, "back longPress": clock,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func nothingPlayingSendsNothingAndGoesBack(board: BoardButtons) {
        let clock = Outcome(screen: .idleClock)
        check(board, start: {
            let rig = Self.nowPlaying()
            rig.model.mediaEvent(.unavailable, state: MediaState(), now: rig.now)
            #expect(rig.screen == .nowPlaying, "stays, saying Nothing playing")
            return rig
        }, ["negative press": clock, "negative longPress": clock, "back press": clock, "back longPress": clock])
    }

    // MARK: - play / pause as the player supports it

    @Test func playPauseIsTheToggleOrPlayOrPauseByTheState() {
        let both: [RemoteCommandID] = [.play, .pause, .nextTrack]
        for (state, sent) in [
            (Self.music(playing: true, commands: both), RemoteCommandID.pause),
            (Self.music(playing: false, commands: both), .play),
            (Self.music(playing: true, commands: [.togglePlayPause, .play, .pause]), .togglePlayPause),
            // The player has not said what it supports yet: the toggle.
            (Self.music(playing: false, commands: []), .togglePlayPause),
        ] {
            let rig = Self.nowPlaying(state)
            _ = rig.sink.take()
            rig.press(.positive)
            #expect(rig.sink.take() == [.remote(sent)], "\(state.supportedCommands), \(state.playbackState)")
        }
    }

    // MARK: - refused commands

    @Test func aCommandThatCannotBeSentShowsANoticeUntilTheNextOne() {
        let rig = Self.nowPlaying()
        rig.sink.remoteCommandsAccepted = false
        rig.press(.positive, .longPress)
        #expect(rig.model.mediaNotice == .couldNotSkip)
        #expect(rig.screen == .nowPlaying, "the screen stays; its buttons still act")
        rig.press(.positive)
        #expect(rig.model.mediaNotice == .couldNotPause, "a failed toggle while playing meant pause")
        rig.sink.remoteCommandsAccepted = true
        rig.press(.up)
        #expect(rig.model.mediaNotice == nil)
        rig.sink.remoteCommandsAccepted = false
        rig.press(.down)
        #expect(rig.model.mediaNotice == .couldNotSetVolume)
        // Leaving clears it; coming back shows none.
        rig.press(.back)
        rig.press(.negative)
        #expect(rig.screen == .nowPlaying && rig.model.mediaNotice == nil)
    }

    @Test func thePhoneRefusingACommandShowsANoticeANewTrackClearsIt() {
        let rig = Self.nowPlaying(Self.music(playing: false))
        let renders = rig.sink.renders
        rig.model.mediaEvent(.commandFailed(.togglePlayPause, .invalidState), state: Self.music(playing: false), now: rig.now)
        #expect(rig.model.mediaNotice == .couldNotPlay)
        #expect(rig.sink.renders == renders + 1)
        rig.model.mediaEvent(.changed(.playback), state: Self.music(playing: false), now: rig.now)
        #expect(rig.model.mediaNotice == .couldNotPlay, "a playback update keeps it")
        rig.model.mediaEvent(.commandFailed(.previousTrack, nil), state: Self.music(playing: false), now: rig.now)
        #expect(rig.model.mediaNotice == .couldNotGoBack)
        var next = Self.music()
        next.title = MediaText("All Blues")
        rig.model.mediaEvent(.changed(.track), state: next, now: rig.now)
        #expect(rig.model.mediaNotice == nil)
        #expect(rig.model.media.title.string == "All Blues")
    }

    @Test func aRefusalArrivingAfterLeavingIsNotShownLater() {
        let rig = Self.nowPlaying()
        rig.press(.positive, .longPress)
        rig.press(.back)
        rig.model.mediaEvent(.commandFailed(.nextTrack, .invalidState), state: Self.music(), now: rig.now)
        #expect(rig.model.mediaNotice == nil)
        rig.press(.negative)
        #expect(rig.model.mediaNotice == nil)
    }

    // MARK: - media events and the screen

    @Test func mediaChangesRedrawOnlyWhileNowPlayingIsShown() {
        let rig = Self.onTheClock()
        var renders = rig.sink.renders
        var m = Self.music()
        m.elapsedMilliseconds = 90_000
        rig.model.mediaEvent(.changed(.playback), state: m, now: rig.now)
        #expect(rig.sink.renders == renders, "the clock does not show media")
        #expect(rig.model.media == m, "but the copy is kept")
        rig.press(.negative)
        renders = rig.sink.renders
        m.volumePercent = 70
        rig.model.mediaEvent(.changed(.volume), state: m, now: rig.now)
        #expect(rig.sink.renders == renders + 1)
        #expect(rig.model.nowPlayingContent(now: rig.now).media == m)
    }

    @Test func amsGoingAwayLeavesNothingPlayingOnScreen() {
        let rig = Self.nowPlaying()
        rig.model.mediaEvent(.unavailable, state: MediaState(), now: rig.now)
        #expect(rig.screen == .nowPlaying)
        #expect(!rig.model.media.hasPlayer)
        _ = rig.sink.take()
        rig.press(.positive)
        #expect(rig.sink.take() == [], "nothing to control")
        rig.press(.negative)
        #expect(rig.screen == .idleClock)
        rig.press(.negative)
        #expect(rig.screen == .idleClock, "no player: the clock's negative press does nothing")
    }

    @Test func thePhoneGoingAwayLeavesNowPlayingAndForgetsThePlayer() {
        let rig = Self.nowPlaying()
        rig.disconnect()
        #expect(rig.screen == .waitingForPhone)
        #expect(rig.model.media == MediaState())
        rig.press(.negative)
        #expect(rig.screen == .waitingForPhone)
    }

    @Test func anIncomingCallTakesTheScreenAndGivesItBackToTheClock() {
        let rig = Self.nowPlaying()
        rig.add(9, .incomingCall, flags: [.positiveAction, .negativeAction])
        #expect(rig.screen == .incomingCall(NotificationUID(9)))
        rig.remove(9)
        #expect(rig.screen == .idleClock)
    }

    // MARK: - a dark display

    @Test func theFirstPressOnADarkDisplayOnlyWakesIt() {
        let rig = Self.nowPlaying()
        rig.advance(by: .seconds(31))
        #expect(rig.model.displayPower == .off)
        _ = rig.sink.take()
        rig.press(.positive, .longPress)
        #expect(rig.sink.take() == [.power(.on)], "woken, nothing skipped")
        rig.press(.positive, .longPress)
        #expect(rig.sink.take() == [.remote(.nextTrack)])
        // And on the clock: the wake press does not open Now Playing.
        rig.press(.back)
        rig.advance(by: .seconds(31))
        rig.press(.negative)
        #expect(rig.screen == .idleClock)
        rig.press(.negative)
        #expect(rig.screen == .nowPlaying)
    }
}
