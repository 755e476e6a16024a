import AMS
import HAL
import Testing

@Suite struct MediaStateTests {
    @Test func textIsCutOnACharacterBoundary() {
        // 127 ASCII bytes then "é" (2 bytes): the é does not fit whole.
        let long = String(repeating: "a", count: 127) + "é"
        let text = MediaText(long)
        #expect(text.count == 127)
        #expect(text.isTruncated)
        #expect(MediaText("Hey Jude").string == "Hey Jude")
        #expect(!MediaText("Hey Jude").isTruncated)
    }

    @Test func elapsedAdvancesByRateAndStopsAtTheEnd() {
        var s = MediaState()
        let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
        s.elapsedMilliseconds = 10_000
        s.elapsedAt = t0
        s.playbackRateMilli = 1000
        s.durationMilliseconds = 12_500
        #expect(s.elapsedMilliseconds(at: t0 + .seconds(2)) == 12_000)
        #expect(s.elapsedMilliseconds(at: t0 + .seconds(60)) == 12_500)
        s.playbackRateMilli = 0
        #expect(s.elapsedMilliseconds(at: t0 + .seconds(60)) == 10_000)
    }

    @Test func remoteCommandSet() {
        var c = RemoteCommands()
        c.insert(.nextTrack)
        #expect(c.contains(.nextTrack))
        #expect(!c.contains(.play))
    }
}
