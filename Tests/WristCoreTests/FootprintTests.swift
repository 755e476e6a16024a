import BoardConfig
import HAL
import LinuxHAL
import SimBoard
import Testing

@testable import WristCore
import TextFormat
@testable import BenchTools

/// What replaced Foundation in the composition root: printf-style numbers,
/// board files read through LinuxHAL, the scenario search path.
@Suite struct FootprintTests {
    @Test func zeroPaddedMatchesPercent04d() {
        #expect(NumberText.zeroPadded(0, width: 4) == "0000")
        #expect(NumberText.zeroPadded(42, width: 4) == "0042")
        #expect(NumberText.zeroPadded(12345, width: 4) == "12345")
        #expect(NumberText.zeroPadded(-7, width: 4) == "-007")
        #expect(DemoRunner.frameFileName(7) == "frame-0007.png")
        #expect(DemoRunner.frameFileName(199) == "frame-0199.png")
    }

    @Test func fixedMatchesPercent5Point1f() {
        #expect(NumberText.fixed(0, fractionDigits: 1, width: 5) == "  0.0")
        #expect(NumberText.fixed(3.14159, fractionDigits: 1, width: 5) == "  3.1")
        #expect(NumberText.fixed(12.96, fractionDigits: 1, width: 5) == " 13.0")
        #expect(NumberText.fixed(123.45, fractionDigits: 1, width: 5) == "123.5")
        #expect(NumberText.fixed(1234.5, fractionDigits: 1, width: 5) == "1234.5")
        #expect(NumberText.fixed(-2.25, fractionDigits: 2) == "-2.25")
        #expect(NumberText.fixed(-0.01, fractionDigits: 1) == "0.0")
        #expect(NumberText.fixed(7, fractionDigits: 0, width: 3) == "  7")
    }

    @Test func boardFilesAreReadThroughLinuxHAL() throws {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        let sim = try BoardLoader.load(path: root + "/Boards/sim.json")
        #expect(sim.simulated && sim.source == root + "/Boards/sim.json")
        #expect(throws: BoardError.self) { try BoardLoader.load(path: "/nonexistent/board.json") }
        do {
            _ = try BoardLoader.load(path: root + "/Boards")  // a directory: refused by its kind, not read
            Issue.record("loaded a directory")
        } catch {
            #expect(error.problems.first?.message.hasPrefix("cannot be read (not a regular file (directory)") == true, "\(error)")
        }
    }

    @Test func scenarioSearchPathFromTheEnvironmentAndTheExecutable() {
        #expect(DemoScenario.searchPath(scenariosVariable: "/etc/sc", executablePath: "/usr/bin/wristcore") == [
            "/etc/sc", "Scenarios", "/usr/share/wristcore/Scenarios", "/Scenarios",
        ])
        #expect(DemoScenario.searchPath(scenariosVariable: nil, executablePath: "/src/wc/.build/x86_64-unknown-linux-gnu/debug/wristcore") == [
            "Scenarios", "/src/wc/.build/x86_64-unknown-linux-gnu/share/wristcore/Scenarios", "/src/wc/Scenarios",
        ])
        #expect(DemoScenario.searchPath(scenariosVariable: nil, executablePath: nil) == ["Scenarios"])
    }
}
