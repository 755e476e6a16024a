import BoardConfig
import Graphics
import Log
import SimBoard
import Testing

@testable import WristCore
@testable import BenchTools

/// The shipped demo's music segment (after the notifications, from 20 s):
/// the phone plays, the clock's negative button opens Now Playing, a long
/// press on positive skips to the next track, a press pauses, back returns
/// to the clock. Its key frames against goldens (the earlier ones are
/// DemoTests').
@Suite struct DemoMusicTests {
    @Test func theMusicSegmentMatchesItsGoldenFrames() throws {
        var logger = Logger(label: "demo-music-test")
        logger.logLevel = .critical
        let runner = DemoRunner(board: BoardLoader.builtInSimulated, options: .init(scenario: try DemoTests.shippedScenario()), logger: logger)
        var frames: [Int: MonoImage] = [:]
        // 24 s: Hey Jude, 4 s in; 27.1 s: the next track after the long
        // press (its title read whole); 28.1 s: paused; 30 s: the clock again, as at 20 s.
        let keyMoments = [239: "demo-now-playing", 270: "demo-next-track", 280: "demo-paused"]
        var clockAt20s: MonoImage?
        runner.frameHandler = { index, image in
            if keyMoments[index] != nil || index == 299 { frames[index] = image }
            if index == 200 { clockAt20s = image }
        }
        try runner.runHeadless(frames: 300)
        #expect(frames.count == keyMoments.count + 1)
        #expect(frames[299] == clockAt20s, "back on the clock at the end")
        frames[299] = nil
        for (index, name) in keyMoments.sorted(by: { $0.key < $1.key }) {
            try Golden.compare(pbm: Array(frames[index]!.pbmPlain().utf8), file: "\(name).pbm")
        }
    }
}
