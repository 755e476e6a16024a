import AMS
import HAL
import BoardConfig
import Input
import Screens
import Testing
import Watch

/// Now Playing's volume bar on the model's manual clock: a new volume
/// from the phone, or a volume press, shows it for 2 s; the phone's first
/// level does not; nothing stays timed once it is down.
@Suite struct WatchModelVolumeBarTests {
    typealias Media = WatchModelMediaButtonTests

    /// The phone's player at `percent`.
    static func music(volume percent: Int8?) -> MediaState {
        var m = Media.music()
        m.volumePercent = percent
        return m
    }

    /// Now Playing open; the phone's first report of its volume (40 %) came
    /// with the registration, as an iPhone's does.
    static func nowPlaying(volume: Int8? = 40) -> ModelRig {
        let rig = Media.onTheClock()
        rig.model.mediaEvent(.changed(.volume), state: music(volume: volume), now: rig.now)
        rig.press(.negative)
        #expect(rig.screen == .nowPlaying)
        return rig
    }

    /// The phone says its volume is now `percent`.
    func phoneReports(_ percent: Int8?, _ rig: ModelRig) {
        rig.model.mediaEvent(.changed(.volume), state: Self.music(volume: percent), now: rig.now)
        rig.sink.drain()
    }

    @Test func aNewVolumeFromThePhoneShowsTheBarForTwoSeconds() {
        let rig = Self.nowPlaying()
        #expect(rig.model.volumeBar == nil)
        let renders = rig.sink.renders
        let shownAt = rig.now
        phoneReports(55, rig)
        #expect(rig.model.volumeBar == VolumeBar(.phone))
        #expect(rig.model.nowPlayingContent(now: rig.now).volumeBar == VolumeBar(.phone), "what the screen draws")
        #expect(rig.model.nowPlayingContent(now: rig.now).media.volumePercent == 55)
        #expect(rig.sink.renders > renders)
        #expect(rig.model.nextDeadline == shownAt.advanced(by: .seconds(2)), "the loop wakes for it")
        rig.advance(by: .milliseconds(1999))
        #expect(rig.model.volumeBar != nil, "still up at 1.999 s")
        let before = rig.sink.renders
        rig.advance(by: .milliseconds(1))
        #expect(rig.model.volumeBar == nil, "down at 2 s")
        #expect(rig.model.nowPlayingContent(now: rig.now).volumeBar == nil)
        #expect(rig.sink.renders == before + 1, "the progress line is drawn again")
        #expect(rig.model.nextDeadline == shownAt.advanced(by: rig.settings.dimAfter), "nothing else timed: only the dimming")
    }

    @Test func theFirstLevelOfASessionIsAReadingNotAChange() {
        // Now Playing is up before the phone has said its volume.
        let rig = Self.nowPlaying(volume: nil)
        let timed = rig.model.nextDeadline
        phoneReports(40, rig)
        #expect(rig.model.volumeBar == nil, "the first level brings no bar")
        #expect(rig.model.nextDeadline == timed, "and no timer")
        phoneReports(40, rig)
        #expect(rig.model.volumeBar == nil, "the same level again is no change")
        phoneReports(45, rig)
        #expect(rig.model.volumeBar == VolumeBar(.phone), "a change is")
        // AMS goes and comes back: its first level is a reading again.
        rig.model.mediaEvent(.unavailable, state: MediaState(), now: rig.now)
        #expect(rig.model.volumeBar == nil)
        rig.model.mediaEvent(.available, state: Self.music(volume: 80), now: rig.now)
        rig.model.mediaEvent(.changed([.player, .volume]), state: Self.music(volume: 80), now: rig.now)
        #expect(rig.model.volumeBar == nil)
    }

    @Test func aChangeOffNowPlayingShowsNothingThere() {
        let rig = Media.onTheClock()
        phoneReports(40, rig)
        let timed = rig.model.nextDeadline
        phoneReports(70, rig)
        #expect(rig.model.volumeBar == nil, "the clock has no bar")
        #expect(rig.model.nextDeadline == timed)
        #expect(rig.model.media.volumePercent == 70, "the copy is kept")
        rig.press(.negative)
        #expect(rig.screen == .nowPlaying && rig.model.volumeBar == nil, "opening Now Playing shows the progress")
    }

    @Test(arguments: [(ButtonRole.up, RemoteCommandID.volumeUp, VolumeBar.Cause.up), (.down, .volumeDown, .down)])
    func aVolumePressShowsTheBarAndSendsTheCommand(role: ButtonRole, command: RemoteCommandID, cause: VolumeBar.Cause) {
        let rig = Self.nowPlaying()
        _ = rig.sink.take()
        rig.press(role)
        #expect(rig.sink.take() == [.remote(command)])
        #expect(rig.model.volumeBar == VolumeBar(cause))
        // A second press 1.5 s later keeps it up 2 s from then.
        rig.advance(by: .milliseconds(1500))
        rig.press(role, .longPress)
        rig.advance(by: .milliseconds(1900))
        #expect(rig.model.volumeBar == VolumeBar(cause), "3.4 s after the first press, 1.9 s after the second")
        // The phone's report of the new level keeps it up 2 s from the report.
        phoneReports(role == .up ? 47 : 33, rig)
        rig.advance(by: .milliseconds(1900))
        #expect(rig.model.volumeBar == VolumeBar(.phone))
        rig.advance(by: .milliseconds(100))
        #expect(rig.model.volumeBar == nil)
    }

    @Test func withoutALevelFromThePhoneThePressStillShows() {
        // Gadgetbridge never reports the volume: the bar says what was asked.
        let rig = Self.nowPlaying(volume: nil)
        rig.press(.down)
        let content = rig.model.nowPlayingContent(now: rig.now)
        #expect(content.volumeBar == VolumeBar(.down) && content.media.volumePercent == nil)
        rig.advance(by: .seconds(2))
        #expect(rig.model.volumeBar == nil)
    }

    @Test func leavingOrLosingThePlayerTakesTheBarDownAndItsTimer() {
        // Leaving with the buttons.
        var rig = Self.nowPlaying()
        phoneReports(50, rig)
        rig.press(.back)
        #expect(rig.screen == .idleClock && rig.model.volumeBar == nil)
        #expect(rig.model.nextDeadline == rig.now.advanced(by: rig.settings.dimAfter), "no timer left for it")
        rig.press(.negative)
        #expect(rig.model.volumeBar == nil, "back on Now Playing: the progress line")
        // AMS going away: "Nothing playing", no bar.
        rig = Self.nowPlaying()
        rig.press(.up)
        rig.model.mediaEvent(.unavailable, state: MediaState(), now: rig.now)
        #expect(rig.model.volumeBar == nil)
        #expect(rig.model.nextDeadline == rig.now.advanced(by: rig.settings.dimAfter))
        // The phone going away.
        rig = Self.nowPlaying()
        rig.press(.up)
        rig.disconnect()
        #expect(rig.model.volumeBar == nil)
    }

    @Test func aPressThatOnlyWakesADarkDisplayShowsNoBar() {
        let rig = Self.nowPlaying()
        rig.advance(by: .seconds(31))
        #expect(rig.model.displayPower == .off)
        rig.press(.up)
        #expect(rig.model.volumeBar == nil, "woken, nothing sent, nothing shown")
    }

    @Test func withTheDisplayOffNothingStaysTimed() {
        // The bar's timer is the only one left when the display goes dark
        // during it: once it is down the watch has no wake-up left.
        let rig = Self.nowPlaying()
        rig.advance(by: .seconds(29))
        phoneReports(60, rig)
        rig.advance(by: .seconds(1))
        #expect(rig.model.displayPower == .off)
        #expect(rig.model.nextDeadline != nil, "the bar's 2 s are still running")
        rig.advance(by: .seconds(1))
        #expect(rig.model.volumeBar == nil)
        #expect(rig.model.nextDeadline == nil, "0 wake-ups with the display off")
    }
}
