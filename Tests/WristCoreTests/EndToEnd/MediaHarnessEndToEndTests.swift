import AMS
import Foundation
import SimBoard
import Testing
@testable import WristCore

/// The phone's player as a maker's program sees it through the harness: the
/// `state` reply's `media` object and the `events` stream's `media` lines,
/// fed by the daemon from the AMS client.
@Suite("Media in the harness", .serialized)
struct MediaHarnessEndToEndTests {
    @Test func stateAndEventsCarryThePhonesTrack() throws {
        let rig = try SimBoardRig()
        #expect(try rig.state()["media"] is NSNull, "no phone, no player")
        let events = try HarnessClient(path: rig.harnessPath, loop: rig.loop)
        #expect(try events.request("events", loop: rig.loop) == "ok events")

        let phone = try rig.connectPhone(.init())
        try #require(try rig.run(until: { rig.watch.model.media.title.string == "Hey Jude" }), "phone log: \(phone.log.suffix(6))")
        try rig.idle(.milliseconds(50))
        let media = try #require(try rig.state()["media"] as? [String: Any])
        #expect(media["title"] as? String == "Hey Jude")
        #expect(media["player"] as? String == "Music")

        try rig.play("media next")
        let next = NowPlayingEndToEndTests.longTitle
        var line: String?
        _ = try rig.loop.runUntil(timeout: .seconds(10)) {
            while let l = events.takeLine() {
                if l.contains("\"event\":\"media\""), l.contains("\"title\":\"\(next)\"") { line = l }
            }
            return line != nil
        }
        let event = try #require(line, "media lines seen: \(events.lines.filter { $0.contains("media") }.suffix(3))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])
        #expect(object["player"] as? String == "Music")
        #expect(object["durationMs"] is NSNumber)
    }
}
