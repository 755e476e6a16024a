import BoardConfig
import Foundation
import HAL
import Loop
import SimBoard
import Testing

@testable import WristCore

/// The watch's behaviour through the harness: pairing prompt, display power,
/// burn-in shift, and a two-button board reaching every function.
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

    @Test func pairingIsRejectedWithTheNegativeButtonOrTheTimeout() throws {
        var settings = SimBoardRig.settings()
        settings.pairingTimeout = .milliseconds(300)
        let rig = try SimBoardRig(settings: settings)
        var answers: [Bool] = []
        rig.watch.showPairing(passkey: 999_999) { answers.append($0) }
        _ = try rig.harness.request("press negative", loop: rig.loop)
        try #require(try rig.run(until: { answers.count == 1 }))
        rig.watch.showPairing(passkey: 111_111) { answers.append($0) }
        try #require(try rig.run(until: { answers.count == 2 }))
        #expect(answers == [false, false])
    }

    @Test func displayDimsThenSleepsAndWakesOnAButtonOrAnImportantAlert() throws {
        var settings = SimBoardRig.settings()
        settings.dimAfter = .milliseconds(300)
        settings.offAfter = .milliseconds(600)
        let rig = try SimBoardRig(settings: settings)
        let panel = try #require(rig.daemon.emulatedDisplay?.emulator)
        try #require(try rig.run(until: { (try? rig.state()["display"] as? String) == "dimmed" }))
        #expect(panel.contrast == settings.dimContrast)
        try #require(try rig.run(until: { (try? rig.state()["display"] as? String) == "off" }))
        #expect(panel.displayOn == false)
        _ = try rig.harness.request("press back", loop: rig.loop)
        try #require(try rig.run(until: { (try? rig.state()["display"] as? String) == "on" }))
        #expect(panel.displayOn == true)
        #expect(panel.contrast == BoardLoader.builtInSimulated.display.contrast)

        try rig.connectPhone()
        try #require(try rig.run(until: { (try? rig.state()["display"] as? String) == "off" }))
        try rig.play(#"add uid=1 category=social title="Wake up" flags=important"#)
        try #require(try rig.run(until: { (try? rig.state()["display"] as? String) == "on" }))
        #expect(panel.displayOn == true)
    }

    @Test func staticContentShiftsAgainstBurnIn() throws {
        var settings = SimBoardRig.settings()
        settings.pixelShiftInterval = .milliseconds(200)
        let rig = try SimBoardRig(settings: settings)
        let panel = try #require(rig.daemon.emulatedDisplay?.emulator)
        try rig.idle(.milliseconds(50))
        let before = panel.image()
        try #require(try rig.run(until: { panel.image() != before }))
        let after = panel.image()
        // The same picture, one pixel to the right.
        var moved = 0
        for y in 0..<before.height {
            for x in 1..<before.width where after[x, y] == before[x - 1, y] { moved += 1 }
        }
        #expect(moved == (before.width - 1) * before.height)
    }

    @Test func aTwoButtonBoardReachesEveryFunction() throws {
        var board = BoardLoader.builtInSimulated
        board.buttons = board.buttons.filter { $0.role == .positive || $0.role == .negative }
        let rig = try SimBoardRig(board: board)
        let phone = try rig.connectPhone()
        try rig.play("""
            add uid=1 category=email title="First" message="one"
            add uid=2 category=social title="Second" message="two"
            """)
        try #require(try rig.run(until: { (try? rig.notifications().count) == 2 }))
        try rig.idle(.milliseconds(100))
        // The newest alert is open; a long press on negative goes back to the list.
        #expect(try rig.state()["screen"] as? String == "detail")
        _ = try rig.harness.request("hold negative 800", loop: rig.loop)
        #expect(try rig.state()["screen"] as? String == "list")
        // A long press on positive moves down; a press opens.
        _ = try rig.harness.request("hold positive 800", loop: rig.loop)
        _ = try rig.harness.request("press positive", loop: rig.loop)
        try #require(try rig.run(until: { (try? rig.state()["uid"] as? Int) == 1 }))
        #expect(try rig.state()["screen"] as? String == "detail")
        // A press on negative performs the negative action (Clear) on it.
        _ = try rig.harness.request("press negative", loop: rig.loop)
        try #require(try rig.run(until: { phone.log.contains("action negative 1") }))
        // No up/down/select/back buttons on this board.
        #expect(try rig.harness.request("press up", loop: rig.loop) == "error this board has no 'up' button")
    }
}
