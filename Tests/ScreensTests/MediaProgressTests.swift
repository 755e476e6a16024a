import AMS
import HAL
import Screens
import Testing

/// When the Now Playing screen next changes: the shown second or the bar's
/// fill, never a millisecond early or late, at any rate.
@Suite("Screens: Now Playing progress arithmetic")
struct MediaProgressTests {
    static let t0 = MonotonicInstant(nanoseconds: 7_000_000_000)

    static func track(elapsed: Int64, rateMilli: Int32, duration: Int64? = 213_420) -> MediaState {
        var m = MediaState()
        m.title = MediaText("Track")
        m.playbackState = rateMilli == 0 ? .paused : (rateMilli > 0 ? .playing : .rewinding)
        m.playbackRateMilli = rateMilli
        m.elapsedMilliseconds = elapsed
        m.elapsedAt = t0
        m.durationMilliseconds = duration
        return m
    }

    /// What the panel shows of the progress at `t`.
    static func shown(_ m: MediaState, at t: MonotonicInstant, width: Int) -> (second: Int64, pixels: Int) {
        let e = m.elapsedMilliseconds(at: t)
        return (e / 1000, m.durationMilliseconds.map { MediaProgress.filledPixels(elapsed: e, duration: $0, width: width) } ?? 0)
    }

    @Test func filledPixelsAreProportionalAndClamped() {
        #expect(MediaProgress.filledPixels(elapsed: 0, duration: 200_000, width: 60) == 0)
        #expect(MediaProgress.filledPixels(elapsed: 100_000, duration: 200_000, width: 60) == 30)
        #expect(MediaProgress.filledPixels(elapsed: 3_333, duration: 200_000, width: 60) == 0)
        #expect(MediaProgress.filledPixels(elapsed: 3_334, duration: 200_000, width: 60) == 1)
        #expect(MediaProgress.filledPixels(elapsed: 999_999, duration: 200_000, width: 60) == 60)
        #expect(MediaProgress.filledPixels(elapsed: -5, duration: 200_000, width: 60) == 0)
        #expect(MediaProgress.filledPixels(elapsed: 5, duration: 0, width: 60) == 0)
        #expect(MediaProgress.filledPixels(elapsed: 5, duration: .max, width: 60) == 0, "absurd durations draw no bar")
    }

    /// Steps from change to change for `steps` changes: the shown progress
    /// is the same on every millisecond before each change and differs at it.
    func walk(_ m: MediaState, width: Int, steps: Int, from start: MonotonicInstant = t0,
              sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var now = start
        var taken = 0
        while taken < steps, let next = MediaProgress.nextChange(m, after: now, barWidth: width) {
            #expect(next > now, sourceLocation: sourceLocation)
            let before = Self.shown(m, at: now, width: width)
            var t = now
            while t < next {
                let s = Self.shown(m, at: t, width: width)
                #expect(s == before, "changed early at \(t - now) of \(next - now)", sourceLocation: sourceLocation)
                if s != before { return taken }
                t = t.advanced(by: .milliseconds(1))
            }
            let after = Self.shown(m, at: next, width: width)
            #expect(after != before, "no change at \(next)", sourceLocation: sourceLocation)
            now = next
            taken += 1
        }
        return taken
    }

    @Test func playingChangesOnEachSecondAndEachPixel() {
        // 213.42 s over 61 px: a pixel every ~3.5 s, a second every second.
        #expect(walk(Self.track(elapsed: 32_456, rateMilli: 1000), width: 61, steps: 12) == 12)
    }

    @Test func aBarWiderThanSecondsChangesOnPixels() {
        // A 20 s jingle over 100 px: the bar moves every 200 ms.
        let m = Self.track(elapsed: 1_234, rateMilli: 1000, duration: 20_000)
        let next = MediaProgress.nextChange(m, after: Self.t0, barWidth: 100)
        #expect(next == Self.t0.advanced(by: .milliseconds(166)))  // 1400 ms is the 7th pixel
        #expect(walk(m, width: 100, steps: 20) == 20)
    }

    @Test func halfAndDoubleSpeedAndRewinding() {
        #expect(walk(Self.track(elapsed: 10_000, rateMilli: 500), width: 61, steps: 6) == 6)
        #expect(walk(Self.track(elapsed: 10_000, rateMilli: 2000), width: 61, steps: 6) == 6)
        #expect(walk(Self.track(elapsed: 10_500, rateMilli: -3000), width: 61, steps: 6) == 6)
        #expect(walk(Self.track(elapsed: 10_000, rateMilli: 1000, duration: nil), width: 0, steps: 4) == 4)
    }

    @Test func pausedOrUnknownNeverChanges() {
        #expect(MediaProgress.nextChange(Self.track(elapsed: 10_000, rateMilli: 0), after: Self.t0, barWidth: 61) == nil)
        var unknown = Self.track(elapsed: 10_000, rateMilli: 1000)
        unknown.elapsedAt = nil
        #expect(MediaProgress.nextChange(unknown, after: Self.t0, barWidth: 61) == nil)
    }

    @Test func theEndStopsTheRedraws() {
        // 400 ms before the end: the last change is the end itself, then nothing.
        let m = Self.track(elapsed: 213_020, rateMilli: 1000)
        let end = Self.t0.advanced(by: .milliseconds(400))
        #expect(MediaProgress.nextChange(m, after: Self.t0, barWidth: 61) == end)
        #expect(MediaProgress.nextChange(m, after: end, barWidth: 61) == nil)
        #expect(MediaProgress.nextChange(m, after: end.advanced(by: .seconds(60)), barWidth: 61) == nil)
        // Rewinding stops at 0:00.
        let back = Self.track(elapsed: 900, rateMilli: -1000)
        #expect(MediaProgress.nextChange(back, after: Self.t0.advanced(by: .seconds(1)), barWidth: 61) == nil)
    }

    @Test func computedFromWhenThePhoneReportedNotFromNow() {
        // Asked 10.25 s after the report of 32.456 s: next second 43 s at 10.544 s.
        let m = Self.track(elapsed: 32_456, rateMilli: 1000, duration: nil)
        let asked = Self.t0.advanced(by: .milliseconds(10_250))
        #expect(MediaProgress.nextChange(m, after: asked, barWidth: 0) == Self.t0.advanced(by: .milliseconds(10_544)))
    }
}
