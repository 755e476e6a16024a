import AMS
import Foundation
import SimBoard
import Testing

@testable import WristCore

/// Music control on the simulated board: the simulated iPhone's Media
/// Source (AMS) over the phone endpoint, the watch's Now Playing screen
/// through the harness (its pictures against goldens), and buttons reaching
/// the phone as Remote Commands. The player starts paused, so the pictures
/// do not depend on how long the test takes.
@Suite(.serialized) struct NowPlayingEndToEndTests {
    static let longTitle = AMSProvider.defaultQueue[1].title

    static func snapshot(_ rig: SimBoardRig) throws -> [UInt8] {
        _ = try rig.harness.request("snapshot pbm", loop: rig.loop)
        let count = Int(rig.harness.lines.last!.split(separator: " ")[2])!
        return try rig.harness.takeBytes(count, loop: rig.loop)
    }

    /// A phone playing nothing yet (paused on its first track), the watch
    /// knowing its player and commands, Now Playing opened from the clock.
    static func nowPlaying(_ rig: SimBoardRig, _ config: SimulatedPhone.Configuration = .init()) throws -> SimulatedPhone {
        let phone = try rig.connectPhone(config)
        try #require(try rig.run(until: {
            rig.watch.model.media.title.string == "Hey Jude" && rig.watch.model.media.supportedCommands.contains(.nextTrack)
                && rig.watch.model.media.volumePercent != nil && rig.watch.model.media.durationMilliseconds != nil
        }), "the watch learnt the player; phone log: \(phone.log.suffix(6))")
        try rig.idle(.milliseconds(50))
        #expect(try rig.state()["screen"] as? String == "idleClock")
        #expect(try rig.harness.request("press negative", loop: rig.loop) == "ok press negative")
        try #require(try rig.run(until: { rig.watch.screen == .nowPlaying }))
        try rig.idle(.milliseconds(50))
        #expect(try rig.state()["screen"] as? String == "nowPlaying")
        return phone
    }

    @Test func aTrackChangeOnThePhoneIsOnTheScreen() throws {
        let rig = try SimBoardRig()
        _ = try Self.nowPlaying(rig)
        try Golden.compare(pbm: try Self.snapshot(rig), file: "now-playing-hey-jude.pbm")
        // The wearer skips on the phone itself.
        try rig.play("media next")
        try #require(try rig.run(until: { rig.watch.model.media.title.string == Self.longTitle }))
        try rig.idle(.milliseconds(50))
        try Golden.compare(pbm: try Self.snapshot(rig), file: "now-playing-next-track.pbm")
    }

    @Test func buttonsReachThePhoneAsRemoteCommands() throws {
        let rig = try SimBoardRig()
        let phone = try Self.nowPlaying(rig)
        // Press: play/pause (the player supports the toggle).
        #expect(try rig.harness.request("press positive", loop: rig.loop) == "ok press positive")
        try #require(try rig.run(until: { phone.media.commandsReceived == [2] && rig.watch.model.media.playbackState == .playing }))
        #expect(phone.media.playing)
        #expect(phone.log.contains("ams remote command toggle"))
        // Long press: next track, learnt back from the phone.
        _ = try rig.harness.request("hold positive 800", loop: rig.loop)
        try #require(try rig.run(until: { rig.watch.model.media.title.string == Self.longTitle }))
        #expect(phone.media.commandsReceived == [2, 3])
        // Up / down: volume.
        _ = try rig.harness.request("press up", loop: rig.loop)
        try #require(try rig.run(until: { phone.media.commandsReceived == [2, 3, 5] && rig.watch.model.media.volumePercent == 56 }))
        _ = try rig.harness.request("press down", loop: rig.loop)
        try #require(try rig.run(until: { phone.media.commandsReceived == [2, 3, 5, 6] && rig.watch.model.media.volumePercent == 50 }))
        #expect(rig.watch.model.mediaNotice == nil, "nothing refused")
        // Back to the clock: no more commands.
        _ = try rig.harness.request("press back", loop: rig.loop)
        try rig.idle(.milliseconds(100))
        #expect(try rig.state()["screen"] as? String == "idleClock")
        #expect(phone.media.commandsReceived.count == 4)
    }

    @Test func aTruncatedLongTitleIsReadWholeAndShown() throws {
        let rig = try SimBoardRig()
        var config = SimulatedPhone.Configuration()
        config.mtu = 23  // the default ATT MTU: an Entity Update carries 17 bytes of value
        let phone = try Self.nowPlaying(rig, config)
        _ = try rig.harness.request("hold positive 800", loop: rig.loop)
        try #require(try rig.run(until: { rig.watch.model.media.title.string == Self.longTitle }),
                     "phone log: \(phone.log.suffix(6))")
        #expect(!rig.watch.model.media.title.isTruncated)
        #expect(phone.log.contains { $0.hasPrefix("ams entity update 2 2 truncated at 17 of ") })
        #expect(phone.log.contains("ams entity attribute 2 2"))
        try rig.idle(.milliseconds(50))
        // The same picture as with a title that fitted in one notification.
        try Golden.compare(pbm: try Self.snapshot(rig), file: "now-playing-next-track.pbm")
    }
}
