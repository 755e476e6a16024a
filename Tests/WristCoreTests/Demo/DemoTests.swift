import BoardConfig
import Foundation
import Graphics
import HAL
import Log
import SimBoard
import Testing

@testable import SimBoard
@testable import WristCore
import TextFormat
@testable import BenchTools

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
            long positive
            double back
            """)
        #expect(s.buttonSteps == [
            .init(at: .milliseconds(1500), role: .positive, press: .press),
            .init(at: .milliseconds(1500), role: .negative, press: .hold(.milliseconds(800))),
            .init(at: .milliseconds(3500), role: .positive, press: .long),
            .init(at: .milliseconds(3500), role: .back, press: .double),
        ])
        #expect(s.length == .milliseconds(3500))
        #expect(s.scaled(by: 2).buttonSteps.first?.at == .milliseconds(750))
        #expect(throws: WristCoreFailure.self) { try DemoScenario.parse("long positive 800") }
        #expect(throws: WristCoreFailure.self) { try DemoScenario.parse("double elbow") }
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
            // The shipped ones are listed (the tests run in the package, next to Scenarios/).
            #expect(error.message.contains("available scenarios: android, default"), "\(error.message)")
        }
    }

    @Test func theNoScenarioErrorListsTheScenariosThere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wc-scenarios-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["walk.scenario", "calls.scenario", "notes.txt"] {
            try Data("wait 1s\n".utf8).write(to: dir.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("dir.scenario"), withIntermediateDirectories: true)
        let names = DemoScenario.available(in: [dir.path, "/nonexistent", dir.path])
        #expect(names == ["calls", "walk"])
        let message = DemoScenario.notFound("walks", lookedIn: ["walks", dir.path + "/walks.scenario"], available: names)
        #expect(message.hasPrefix("no scenario 'walks' (looked in: walks, \(dir.path)/walks.scenario); available scenarios: calls, walk"))
        #expect(DemoScenario.notFound("x", lookedIn: ["x"], available: []).contains("no scenario files were found there"))
    }

    @Test func keysBecomeButtons() {
        let keys = DemoRunner.keys(Array("y\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D n\rbq".utf8))
        #expect(keys == [
            .button(.positive, .press), .button(.up, .press), .button(.down, .press), .button(.positive, .press),
            .button(.negative, .press), .button(.select, .press), .button(.negative, .press), .button(.positive, .press),
            .button(.back, .press), .quit,
        ])
    }

    @Test func aPlain80x24TerminalGetsBrailleThatFits() {
        let layout = TerminalPanel.layout(width: 128, height: 64, terminal: .init(columns: 80, rows: 24), footerRows: DemoRunner.footerRows, utf8: true)
        #expect(layout.style == .braille)
        var image = MonoImage(width: 128, height: 64)
        image[0, 0] = true
        image[127, 63] = true
        let footer = DemoRunner.footer(motorOn: false, lastPress: nil, seconds: 1, ascii: false, columns: 80, rows: layout.footerRows)
        let lines = TerminalScreen.compose(image, layout: layout, columns: 80, footer: footer)
        #expect(lines.count <= 24)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 80 })
        #expect(lines[1].hasPrefix("│⠁"))
        #expect(lines[16].hasSuffix("⢀│"))
        #expect(lines[18] == "enlarge the terminal to 128x34 for a sharper panel")
        // Every key and gesture is named under the panel.
        let legend = lines[19...].joined(separator: "  ")
        for piece in ["y/Enter/→ positive", "n/Bksp/← negative", "k/↑ up", "j/↓ down", "s/space select", "b/Esc back", "Y N K J S B", "2 then a key", "q quit"] {
            #expect(legend.contains(piece), "\(piece)")
        }
        #expect(TerminalPanel.layout(width: 128, height: 64, terminal: .init(columns: 200, rows: 60), footerRows: 2, utf8: true).style == .halfBlocks)
        #expect(TerminalPanel.layout(width: 128, height: 64, terminal: .init(columns: 200, rows: 60), footerRows: 2, utf8: false).style == .ascii)
        let ascii = TerminalPanel.lines(image, style: .ascii)
        #expect(ascii.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
    }
}
