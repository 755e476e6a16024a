import BoardConfig
import Foundation
import Graphics
import HAL
import Log
import SimBoard
import Testing

@testable import SimBoard
@testable import WristCore

/// `wristcore demo`: the shipped scenario, rendered headless, matches golden
/// images at key moments; scenarios, keys and terminal drawing.
@Suite struct DemoTests {
    static func shippedScenario() throws -> DemoScenario {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return try DemoScenario.load(path + "/Scenarios/default.scenario")
    }

    @Test func headlessFramesMatchTheGoldenKeyMoments() throws {
        var logger = Logger(label: "demo-test")
        logger.logLevel = .critical
        let runner = DemoRunner(board: BoardLoader.builtInSimulated, options: .init(scenario: try Self.shippedScenario()), logger: logger)
        var frames: [Int: MonoImage] = [:]
        let keyMoments = [15: "demo-important", 50: "demo-chinese", 90: "demo-vietnamese", 110: "demo-incoming-call", 199: "demo-list"]
        runner.frameHandler = { index, image in if keyMoments[index] != nil { frames[index] = image } }
        try runner.runHeadless(frames: 200)
        #expect(frames.count == keyMoments.count)
        for (index, name) in keyMoments.sorted(by: { $0.key < $1.key }) {
            try Golden.compare(pbm: Array(frames[index]!.pbmPlain().utf8), file: "\(name).pbm")
        }
    }

    @Test func theSameFramesEveryRun() throws {
        var logger = Logger(label: "demo-test")
        logger.logLevel = .critical
        func run() throws -> [MonoImage] {
            let runner = DemoRunner(board: BoardLoader.builtInSimulated, options: .init(scenario: try Self.shippedScenario()), logger: logger)
            var images: [MonoImage] = []
            runner.frameHandler = { i, image in if i % 20 == 0 { images.append(image) } }
            try runner.runHeadless(frames: 120)
            return images
        }
        #expect(try run() == run())
    }

    @Test func scenarioButtonsAndWaitsShareOneTimeline() throws {
        let s = try DemoScenario.parse("""
            wait 1s
            add uid=1 category=social title="A"
            wait 500ms
            press positive   # answer
            hold negative 800
            wait 2s
            """)
        #expect(s.buttonSteps == [
            .init(at: .milliseconds(1500), role: .positive, hold: .milliseconds(80)),
            .init(at: .milliseconds(1500), role: .negative, hold: .milliseconds(800)),
        ])
        #expect(s.length == .milliseconds(3500))
        #expect(s.scaled(by: 2).buttonSteps.first?.at == .milliseconds(750))
    }

    @Test func scenarioErrorsNameTheFileAndLine() {
        #expect(throws: WristCoreFailure.self) { try DemoScenario.parse("wait 1s\npress elbow", file: "x.scenario") }
        do {
            _ = try DemoScenario.parse("wait 1s\nadd category=social", file: "x.scenario")
            Issue.record("accepted an add without uid")
        } catch {
            #expect(error.message.hasPrefix("x.scenario:2: "))
            #expect(error.exitCode == WristCoreExit.usageOrConfiguration)
        }
        do {
            _ = try DemoScenario.load("no-such-scenario")
            Issue.record("found a scenario that does not exist")
        } catch {
            #expect(error.message.contains("docs/demo.md"))
        }
    }

    @Test func keysBecomeButtons() {
        let keys = DemoRunner.keys(Array("y\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D n\rbq".utf8))
        #expect(keys == [
            .button(.positive), .button(.up), .button(.down), .button(.positive), .button(.negative), .button(.select),
            .button(.negative), .button(.positive), .button(.back), .quit,
        ])
    }

    @Test func aPlain80x24TerminalGetsBrailleThatFits() {
        let style = TerminalPanel.Style.choose(width: 128, height: 64, columns: 80, rows: 24, reservedRows: 3, utf8: true)
        #expect(style == .braille)
        var image = MonoImage(width: 128, height: 64)
        image[0, 0] = true
        image[127, 63] = true
        let lines = TerminalPanel.lines(image, style: style)
        #expect(lines.count + 3 <= 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[1].hasPrefix("│⠁"))
        #expect(lines[16].hasSuffix("⢀│"))
        #expect(TerminalPanel.Style.choose(width: 128, height: 64, columns: 200, rows: 60, reservedRows: 3, utf8: true) == .halfBlocks)
        #expect(TerminalPanel.Style.choose(width: 128, height: 64, columns: 200, rows: 60, reservedRows: 3, utf8: false) == .ascii)
        let ascii = TerminalPanel.lines(image, style: .ascii)
        #expect(ascii.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
    }
}
