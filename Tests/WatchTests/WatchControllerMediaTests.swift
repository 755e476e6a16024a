import AMS
import Graphics
import HAL
import Loop
import Screens
import Testing
import Watch

/// Now Playing on the controller and a manual loop: the progress is redrawn
/// exactly when it changes on the panel while the screen is up and lit, and
/// never while the panel is dark (waking draws the progress of that moment).
@Suite struct WatchControllerMediaTests {
    typealias Rig = WatchControllerTests.Rig

    /// Lit for the whole test.
    static func lit(_ s: inout WatchSettings) {
        s.dimAfter = .seconds(7200)
        s.offAfter = .seconds(7200)
    }

    /// The phone playing a 5:37 track, 1:23 in, reported now.
    static func playing(at now: MonotonicInstant, rateMilli: Int32 = 1000) -> MediaState {
        var m = WatchModelMediaButtonTests.music(playing: rateMilli != 0)
        m.playbackRateMilli = rateMilli
        m.elapsedAt = now
        return m
    }

    /// Sends the media state to the watch and opens Now Playing, drawn.
    static func openNowPlaying(_ rig: Rig, _ m: MediaState) {
        rig.watch.mediaChanged(.available, state: m)
        rig.watch.mediaChanged(.changed([.player, .playback, .track]), state: m)
        rig.watch.link = .encrypted
        rig.watch.button(.negative, .press)
        rig.loop.runDeferred()
    }

    /// Now Playing drawn afresh from `media` at the loop's now.
    static func expected(_ rig: Rig, _ media: MediaState, volumeBar: VolumeBar? = nil) -> MonoImage {
        let fb = Framebuffer(width: 128, height: 64)
        ScreenRenderer(width: 128, height: 64, fonts: Rig.fonts).render(
            .nowPlaying,
            status: StatusInfo(time: CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41, second: 0),
                               link: rig.watch.link, unread: rig.watch.unread),
            notifications: rig.watch.notifications, into: fb,
            nowPlaying: NowPlayingContent(media: media, now: rig.loop.now, volumeBar: volumeBar))
        return MonoImage(fb)
    }

    @Test func aNewVolumeIsDrawnAsABarAndTheLoopWakesOnceToTakeItDown() throws {
        let rig = try Rig(Self.lit)
        // Paused, so no progress redraw runs; the phone's first level came with the player.
        var m = Self.playing(at: rig.loop.now, rateMilli: 0)
        m.volumePercent = 40
        Self.openNowPlaying(rig, m)
        #expect(rig.image == Self.expected(rig, m), "the first level: no bar")
        m.volumePercent = 75
        rig.watch.mediaChanged(.changed(.volume), state: m)
        rig.loop.runDeferred()
        #expect(rig.image == Self.expected(rig, m, volumeBar: VolumeBar(.phone)))
        #expect(rig.image != Self.expected(rig, m))
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .milliseconds(1900))
        #expect(rig.image == Self.expected(rig, m, volumeBar: VolumeBar(.phone)), "still up")
        rig.loop.advance(by: .milliseconds(100))
        #expect(rig.image == Self.expected(rig, m), "2 s later: the progress line again")
        #expect(rig.loop.timerFirings - firings == 1, "one wake-up, for the bar")
        // Then the clock's minute only, as before.
        let after = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - after == 60)
    }

    @Test func playingRedrawsOnEverySecondAndPixelAndNothingElse() throws {
        let rig = try Rig(Self.lit)
        let m = Self.playing(at: rig.loop.now)
        Self.openNowPlaying(rig, m)
        #expect(rig.watch.screen == .nowPlaying)
        #expect(rig.image == Self.expected(rig, m))
        let bar = ScreenRenderer(width: 128, height: 64, fonts: Rig.fonts).nowPlayingBarWidth(durationMilliseconds: 337_000)
        // Every change instant in the next minute, from the arithmetic.
        var changes: Set<MonotonicInstant> = []
        var t = rig.loop.now
        let end = t.advanced(by: .seconds(60))
        while let next = MediaProgress.nextChange(m, after: t, barWidth: bar), next <= end {
            changes.insert(next)
            t = next
        }
        #expect(changes.count >= 60 && changes.count < 80, "each second, and the pixels between")
        // The clock's minute tick redraws too (a change falling on it is drawn by it).
        let minute = rig.loop.now.advanced(by: rig.loop.wallClockNow.nextWholeMinute.duration(since: rig.loop.wallClockNow))
        #expect(minute <= end)
        let firings = rig.loop.timerFirings
        var drawn = 0
        while rig.loop.now < end {
            let before = rig.loop.timerFirings
            rig.loop.advance(by: .milliseconds(250))
            if rig.loop.timerFirings > before {
                drawn += 1
                #expect(rig.image == Self.expected(rig, m), "at \(rig.loop.now)")
            }
        }
        // The progress changes and the minute tick, once per instant.
        #expect(rig.loop.timerFirings - firings == changes.union([minute]).count)
        #expect(drawn > 0)
    }

    @Test func pausedNowPlayingLitForAnHourWakesOnlyOnTheMinute() throws {
        let rig = try Rig(Self.lit)
        Self.openNowPlaying(rig, Self.playing(at: rig.loop.now, rateMilli: 0))
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 60)
    }

    @Test func leavingNowPlayingStopsItsRedraws() throws {
        let rig = try Rig(Self.lit)
        Self.openNowPlaying(rig, Self.playing(at: rig.loop.now))
        rig.watch.button(.back, .press)
        rig.loop.runDeferred()
        #expect(rig.watch.screen == .waitingForPhone, "no phone connected in this rig")
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 60, "the clock's minute only")
    }

    @Test func darkForAnHourWhilePlayingTheLoopNeverWakesAndWakingDrawsTheProgressOfThatMoment() throws {
        let rig = try Rig {
            $0.dimAfter = .seconds(10)
            $0.offAfter = .seconds(20)
        }
        // A long track, so an hour does not reach its end.
        var m = Self.playing(at: rig.loop.now)
        m.durationMilliseconds = 2 * 3_600_000
        Self.openNowPlaying(rig, m)
        rig.loop.advance(by: .seconds(15))
        #expect(rig.watch.displayState == "dimmed")
        #expect(rig.image == Self.expected(rig, m), "dimmed is lit: still drawn")
        rig.loop.advance(by: .seconds(5))
        #expect(rig.watch.displayState == "off")
        let dark = rig.image
        let writes = rig.transport.writes
        let firings = rig.loop.timerFirings

        rig.loop.advance(by: .seconds(3600))
        #expect(rig.loop.timerFirings - firings == 0, "no progress, minute or model timer in the dark")
        #expect(rig.loop.armedTimerCount == 0)
        #expect(rig.transport.writes == writes)
        #expect(rig.image == dark)

        // A press wakes it (and only wakes it): the progress an hour on.
        rig.watch.button(.positive, .press)
        rig.loop.runDeferred()
        #expect(rig.driver.isOn)
        #expect(rig.watch.screen == .nowPlaying)
        #expect(rig.image == Self.expected(rig, m))
        #expect(m.elapsedMilliseconds(at: rig.loop.now) / 1000 == 83 + 3620)
        // And the redraws are back.
        let awake = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(2))
        #expect(rig.loop.timerFirings - awake >= 2)
        #expect(rig.image == Self.expected(rig, m))
    }

    @Test func aMediaUpdateRedrawsNowPlayingAndMovesTheNextRedraw() throws {
        let rig = try Rig(Self.lit)
        Self.openNowPlaying(rig, Self.playing(at: rig.loop.now, rateMilli: 0))
        rig.loop.advance(by: .seconds(5))
        var m = Self.playing(at: rig.loop.now)
        m.title = MediaText("All Blues")
        m.elapsedMilliseconds = 0
        m.durationMilliseconds = 693_000
        rig.watch.mediaChanged(.changed([.track, .playback]), state: m)
        rig.loop.runDeferred()
        #expect(rig.image == Self.expected(rig, m))
        rig.loop.advance(by: .milliseconds(1000))
        #expect(rig.image == Self.expected(rig, m), "0:01")
    }

    @Test func withoutAPhoneACommandCannotBeSentAndTheScreenSaysSo() throws {
        let rig = try Rig(Self.lit)
        Self.openNowPlaying(rig, Self.playing(at: rig.loop.now))
        rig.watch.button(.positive, .longPress)
        rig.loop.runDeferred()
        #expect(rig.watch.model.mediaNotice == .couldNotSkip)
        let fb = Framebuffer(width: 128, height: 64)
        ScreenRenderer(width: 128, height: 64, fonts: Rig.fonts).render(
            .nowPlaying,
            status: StatusInfo(time: CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41, second: 0),
                               link: rig.watch.link, unread: 0),
            notifications: rig.watch.notifications, into: fb,
            nowPlaying: rig.watch.model.nowPlayingContent(now: rig.loop.now))
        #expect(rig.image == MonoImage(fb))
    }
}
