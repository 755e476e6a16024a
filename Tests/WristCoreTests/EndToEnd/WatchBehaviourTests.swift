import BoardConfig
import Foundation
import HAL
import Loop
import SimBoard
import Testing

@testable import WristCore

/// The pairing prompt through the harness, as a smoke run: its golden frame
/// and a harness press answering it. The watch's rules themselves (pairing,
/// display power, burn-in shift, every button on every screen) are unit
/// tests of `WatchModel` and `WatchController` in Tests/WatchTests.
@Suite(.serialized) struct WatchBehaviourTests {
    @Test func pairingPasskeyIsConfirmedWithThePositiveButton() throws {
        let rig = try SimBoardRig()
        var answers: [Bool] = []
        rig.watch.showPairing(passkey: 12345) { answers.append($0) }
        try rig.idle(.milliseconds(50))
        #expect(try rig.state()["screen"] as? String == "pairing")
        _ = try rig.harness.request("snapshot pbm", loop: rig.loop)
        let n = Int(rig.harness.lines.last!.split(separator: " ")[2])!
        try Golden.compare(pbm: try rig.harness.takeBytes(n, loop: rig.loop), file: "pairing-012345.pbm")
        #expect(try rig.harness.request("press positive", loop: rig.loop) == "ok press positive")
        try #require(try rig.run(until: { !answers.isEmpty }))
        #expect(answers == [true])
        #expect(try rig.state()["screen"] as? String == "waitingForPhone")
    }
}
