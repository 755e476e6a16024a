import AMS
import Graphics
import HAL
import Screens
import Testing

/// The Now Playing screen against golden pictures at 128x64 and 128x32
/// (Golden/now-playing-*.pbm; WRISTCORE_UPDATE_GOLDEN=1 rewrites them).
@Suite("Screens: Now Playing")
struct NowPlayingGoldenTests {
    /// When the phone reported the elapsed time.
    static let reported = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// A track as an iPhone's Music app reports it: playing at normal speed,
    /// 1:23 of 5:37 in.
    static func playing() -> MediaState {
        var m = MediaState()
        m.playerName = MediaText("Music")
        m.title = MediaText("Blue in Green")
        m.artist = MediaText("Miles Davis")
        m.album = MediaText("Kind of Blue")
        m.durationMilliseconds = 337_000
        m.playbackState = .playing
        m.playbackRateMilli = 1000
        m.elapsedMilliseconds = 83_000
        m.elapsedAt = reported
        m.volumePercent = 60
        m.supportedCommands = [RemoteCommands(.togglePlayPause), RemoteCommands(.nextTrack), RemoteCommands(.previousTrack)]
        return m
    }

    func render(_ media: MediaState?, height: Int, at now: MonotonicInstant = reported, notice: MediaNotice? = nil,
                volumeBar: VolumeBar? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> MonoImage
    {
        let f = Fixture()
        let content = media.map { NowPlayingContent(media: $0, now: now, notice: notice, volumeBar: volumeBar) }
        return Panel(height: height).render(.nowPlaying, status(), f.consumer, nowPlaying: content,
                                            sourceLocation: sourceLocation)
    }

    @Test("playing: player, title, artist, 1:23 of 5:37 with the bar, the play glyph")
    func playing() {
        for h in [64, 32] { Golden.check(image: render(Self.playing(), height: h), "now-playing-128x\(h)") }
    }

    @Test("paused: the pause glyph; the time stays where the phone left it")
    func paused() {
        var m = Self.playing()
        m.playbackState = .paused
        m.playbackRateMilli = 0
        m.elapsedMilliseconds = 200_500
        let later = Self.reported.advanced(by: .seconds(600))
        for h in [64, 32] {
            Golden.check(image: render(m, height: h, at: later), "now-playing-paused-128x\(h)")
            #expect(render(m, height: h, at: later) == render(m, height: h), "paused: time does not move")
        }
    }

    @Test("a long title: two lines with an ellipsis at 128x64, one at 128x32")
    func longTitle() {
        var m = Self.playing()
        m.title = MediaText("The Ballad of the Sad Young Men Who Never Learned to Dance Under the Summer Moon")
        m.artist = MediaText("The Extremely Long Named Orchestra of Somewhere")
        for h in [64, 32] { Golden.check(image: render(m, height: h), "now-playing-long-title-128x\(h)") }
    }

    @Test("no duration (a live stream): elapsed time only, no bar")
    func noDuration() {
        var m = Self.playing()
        m.playerName = MediaText("Radio")
        m.title = MediaText("Morning Jazz")
        m.artist = MediaText("KJZZ Live")
        m.durationMilliseconds = nil
        m.elapsedMilliseconds = 3_725_000
        for h in [64, 32] { Golden.check(image: render(m, height: h), "now-playing-no-duration-128x\(h)") }
    }

    @Test("nothing playing: no player, or no content at all")
    func nothingPlaying() {
        for h in [64, 32] {
            Golden.check(image: render(MediaState(), height: h), "now-playing-nothing-128x\(h)")
            #expect(render(nil, height: h) == render(MediaState(), height: h))
        }
    }

    @Test("a refused command: the notice in place of the player (128x64) or the artist (128x32)")
    func notice() {
        for h in [64, 32] {
            Golden.check(image: render(Self.playing(), height: h, notice: .couldNotSkip), "now-playing-could-not-skip-128x\(h)")
        }
    }

    @Test("a CJK title through the Unifont fallback")
    func cjkTitle() {
        var m = Self.playing()
        m.title = MediaText("夜に駆ける")
        m.artist = MediaText("YOASOBI")
        for h in [64, 32] { Golden.check(image: render(m, height: h), "now-playing-cjk-128x\(h)") }
    }

    @Test("a CJK title over a CJK artist: 1 px between their lines, as on the detail screen")
    func cjkTitleAndArtist() {
        var m = Self.playing()
        m.title = MediaText("晴天")
        m.artist = MediaText("周杰伦")
        for h in [64, 32] { Golden.check(image: render(m, height: h), "now-playing-cjk-artist-128x\(h)") }
    }

    @Test("the volume bar: the speaker, the phone's level as a bar and in percent, in place of the progress line")
    func volumeBar() {
        for h in [64, 32] {
            Golden.check(image: render(Self.playing(), height: h, volumeBar: VolumeBar(.phone)), "now-playing-volume-128x\(h)")
            // What brought it up does not matter once the level is known.
            #expect(render(Self.playing(), height: h, volumeBar: VolumeBar(.up))
                == render(Self.playing(), height: h, volumeBar: VolumeBar(.phone)))
        }
    }

    @Test("the volume bar with no level from the phone (Gadgetbridge): the speaker and what the press asked for")
    func volumeBarWithoutALevel() {
        var m = Self.playing()
        m.volumePercent = nil
        for h in [64, 32] {
            Golden.check(image: render(m, height: h, volumeBar: VolumeBar(.up)), "now-playing-volume-up-no-level-128x\(h)")
        }
        #expect(render(m, height: 64, volumeBar: VolumeBar(.down)) != render(m, height: 64, volumeBar: VolumeBar(.up)))
    }

    @Test("the volume bar's fill: none at 0 %, all of it at 100 %, in proportion between")
    func volumeBarFill() {
        // The bar is the longest lit run of row 58 (its top edge, as the
        // progress bar's); the fill is row 60 inside it.
        func bar(_ percent: Int8) -> (inner: Int, filled: Int) {
            var m = Self.playing()
            m.volumePercent = percent
            let image = render(m, height: 64, volumeBar: VolumeBar(.phone))
            var best = (start: 0, count: 0), run = (start: 0, count: 0)
            for x in 0..<128 {
                run = image[x, 58] ? (run.count == 0 ? x : run.start, run.count + 1) : (0, 0)
                if run.count > best.count { best = run }
            }
            return (best.count - 2, (best.start + 1..<best.start + best.count - 1).filter { image[$0, 60] }.count)
        }
        let inner = bar(0).inner
        #expect(inner > 60, "most of the line")
        #expect(bar(0).filled == 0)
        #expect(bar(100).filled == inner)
        #expect(bar(50).filled == inner / 2)
        #expect(bar(60).filled == inner * 60 / 100)
        #expect(bar(7).inner == inner, "the bar keeps its length whatever the level's text")
    }

    /// Runs of inked rows in `rows`, ignoring the column of the status
    /// bar's and progress line's edges: each text line drawn apart from the
    /// next by a blank row is one run.
    func inkRuns(_ image: MonoImage, rows: Range<Int>) -> Int {
        var runs = 0, inRun = false
        for y in rows {
            let inked = (0..<image.width).contains { image[$0, y] }
            if inked && !inRun { runs += 1 }
            inRun = inked
        }
        return runs
    }

    @Test("title and artist lines never touch, whatever their scripts; at 128x32 a CJK line leaves no room for the artist")
    func linesApart() {
        let long = "The Ballad of the Sad Young Men Who Never Learned to Dance"
        // (title, artist, lines drawn at 128x64, at 128x32)
        let cases: [(String, String, Int, Int)] = [
            ("Blue in Green", "Miles Davis", 2, 2),
            (long, "Miles Davis", 3, 2),
            ("晴天", "周杰伦", 2, 1),
            ("晴天", "Jay Chou", 2, 1),
            ("Sunny Day", "周杰伦", 2, 1),
            // Two Latin lines do not fit above a CJK artist: one line.
            (long, "周杰伦", 2, 1),
            ("夜に駆ける 😀", "YOASOBI", 2, 1),
        ]
        for (title, artist, full, compact) in cases {
            var m = Self.playing()
            m.title = MediaText(title)
            m.artist = MediaText(artist)
            // Between the player's name and the progress line (128x64), above it (128x32).
            #expect(inkRuns(render(m, height: 64), rows: 20..<57) == full, "\(title) / \(artist) at 128x64")
            #expect(inkRuns(render(m, height: 32), rows: 0..<25) == compact, "\(title) / \(artist) at 128x32")
        }
    }

    @Test("the progress is computed at `now`: 60 s later is the state with 60 s more elapsed")
    func progressAtNow() {
        var advanced = Self.playing()
        advanced.elapsedMilliseconds += 60_000
        let later = Self.reported.advanced(by: .seconds(60))
        for h in [64, 32] {
            #expect(render(Self.playing(), height: h, at: later) == render(advanced, height: h))
            #expect(render(Self.playing(), height: h, at: later) != render(Self.playing(), height: h))
        }
        // Past the end it stays at the end.
        var end = Self.playing()
        end.elapsedMilliseconds = 337_000
        #expect(render(Self.playing(), height: 64, at: Self.reported.advanced(by: .seconds(3600))) == render(end, height: 64))
    }

    @Test("the bar's fill: none at 0:00, all of it at the end, in proportion between")
    func barFill() {
        let p = Panel()
        let inner = p.renderer.nowPlayingBarWidth(durationMilliseconds: 337_000)
        #expect(inner > 40)
        // The bar is the 5-row box on the progress line (baseline 64): its
        // top edge is the longest lit run of row 58; the fill is row 60 inside it.
        func filled(_ m: MediaState) -> Int {
            let image = render(m, height: 64)
            var best = (start: 0, count: 0), run = (start: 0, count: 0)
            for x in 0..<128 {
                run = image[x, 58] ? (run.count == 0 ? x : run.start, run.count + 1) : (0, 0)
                if run.count > best.count { best = run }
            }
            #expect(best.count == inner + 2)
            return (best.start + 1..<best.start + best.count - 1).filter { image[$0, 60] }.count
        }
        var m = Self.playing()
        m.elapsedMilliseconds = 0
        #expect(filled(m) == 0)
        m.elapsedMilliseconds = 337_000
        #expect(filled(m) == inner)
        m.elapsedMilliseconds = 168_500
        #expect(filled(m) == inner / 2)
    }
}
