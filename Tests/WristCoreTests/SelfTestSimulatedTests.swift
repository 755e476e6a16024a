import BoardConfig
import Graphics
import HAL
import SimBoard
import Testing

@testable import WristCore
@testable import BenchTools

/// `selftest --board sim`: nothing there is soldered, so the self-test's
/// advice names no wire, pin, bus tool or board-file wiring field; it says
/// what presses a simulated button (its keys in a terminal, the harness).
@Suite struct SelfTestSimulatedTests {
    /// Words of the advice for a wired board; none belongs on the simulated one.
    static let hardwareWords = [
        "gpioinfo", "i2cdetect", "wire", "wiring", "GND", "solder", "transistor", "pull-up", "pull-down", ".bias", "activeLow",
        ".chip and .line", "swap their", "motor-off", "raspi-config", "display.controller", "display.columnOffset",
    ]

    static func hardwareWords(in text: String) -> [String] { hardwareWords.filter { text.contains($0) } }

    @Test func everyFailureOnTheSimulatedBoardGivesNoHardwareAdvice() {
        let bench = SelfTestBench(timeout: .seconds(2))
        bench.start()
        bench.loop.advance(by: .seconds(2))  // display: no answer
        bench.loop.advance(by: .seconds(2))  // positive: nothing
        bench.press(.select)  // negative: the wrong button, then nothing
        #expect(bench.simulated.setButton(.select, active: true))  // select: held from then on (a harness 'hold')
        bench.loop.advance(by: .seconds(2))
        #expect(bench.sequence.step == .button(.select))
        bench.loop.advance(by: .seconds(2))
        #expect(bench.simulated.setButton(.select, active: false))
        bench.loop.advance(by: .milliseconds(100))
        while case .button? = bench.sequence.step { bench.loop.advance(by: .seconds(2)) }
        #expect(bench.sequence.step == .motor)
        bench.press(.negative)  // motor: not felt
        let s = bench.sequence.summary
        #expect(s.results.count == 8 && s.results.allSatisfy { $0.outcome == .failed })
        let everything = bench.output + "\n" + s.results.compactMap(\.hint).joined(separator: "\n")
        #expect(Self.hardwareWords(in: everything) == [], "\(everything)")
        // What it says instead.
        let positive = s.results[1]
        #expect(positive.hint == "nothing from sim line 0 in 2 s: on the simulated board a key presses it when the self-test runs in a terminal "
            + "(y/Enter/Right for positive), or a harness client ('press positive' with --harness, docs/harness.md)")
        #expect(s.results[2].hint?.contains("that was select (its keys: s/space); negative's keys are n/Bksp/Left") == true)
        #expect(s.results[3].detail.contains("the line reads pressed all the time"))
        #expect(s.results[3].hint?.contains("a harness client holds it ('hold select' with no 'release')") == true)
        #expect(s.results[0].hint?.contains("a wrong picture is a bug in WristCore") == true)
        #expect(s.results[7].hint?.contains("cannot be felt") == true)
        #expect(bench.output.contains("The simulated panel decodes the driver's own bytes"))
    }

    @Test func theSameStepsOnAWiredBoardStillExplainTheWiring() {
        let bench = SelfTestBench(timeout: .seconds(2), wired: true)
        bench.start()
        while bench.sequence.step != nil { bench.loop.advance(by: .seconds(2)) }
        let everything = bench.output + "\n" + bench.sequence.summary.results.compactMap(\.hint).joined(separator: "\n")
        #expect(Self.hardwareWords(in: everything).contains("gpioinfo"))
        #expect(Self.hardwareWords(in: everything).contains("i2cdetect"))
    }

    @Test func withoutATerminalOrAHarnessOneLineSaysHowToPress() {
        let line = SelfTestRunner.nothingPresses(BoardLoader.builtInSimulated)
        #expect(!line.contains("\n"))
        #expect(line.contains("--harness unix:") && line.contains("'press positive'") && line.contains("in a terminal"))
        #expect(Self.hardwareWords(in: line) == [])
    }

    @Test func theTerminalShowsTheNewestTextWrappedAndTheKeys() {
        let transcript = ["Step 1/3: display", "", "  press POSITIVE (sim line 0) ...",
                          "    got BACK (sim line 5), not POSITIVE: that was back (its keys: b/Esc); positive's keys are y/Enter/Right"]
        let footer = SelfTestTerminal.footer(motorOn: false, lastKey: "you: back", transcript: transcript, ascii: false, columns: 80, rows: 6)
        #expect(footer == [
            "motor off          you: back",
            "",
            "  press POSITIVE (sim line 0) ...",
            "    got BACK (sim line 5), not POSITIVE: that was back (its keys: b/Esc);",
            "positive's keys are y/Enter/Right",
            "y positive=yes  n negative=no  k up  j down  s select  b back  q quit",
        ])
        #expect(SelfTestTerminal.wrap("abcdefghij", columns: 4) == ["abcd", "efgh", "ij"])
        #expect(SelfTestTerminal.wrap("", columns: 4) == [""])
    }
}
