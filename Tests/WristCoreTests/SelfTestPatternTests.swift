import BoardConfig
import Graphics
import HAL
import LinuxHAL
import Loop
import SimBoard
import Testing

@testable import WristCore
@testable import BenchTools

/// The self-test's pictures, as the emulated panel decodes them from the
/// driver's I2C bytes, against golden images at 128x64 and 128x32; and the
/// display pattern's promise: a wrong controller shows at its edges.
@Suite struct SelfTestPatternTests {
    static let sizes: [(height: Int, suffix: String)] = [(64, "128x64"), (32, "128x32")]

    @Test(arguments: [64, 32])
    func everyScreenMatchesItsGolden(height: Int) {
        let size = "128x\(height)"
        let bench = SelfTestBench(board: SelfTestBench.board(height: height))
        bench.start()
        #expect(bench.glass == MonoImage(bench.sequence.panel!.framebuffer), "the panel shows what was drawn")
        Golden.compare(image: bench.glass, file: "selftest-display-\(size).pbm")
        bench.answerYesOrPress()
        Golden.compare(image: bench.glass, file: "selftest-button-\(size).pbm")
        bench.press(.positive)
        Golden.compare(image: bench.glass, file: "selftest-button-pressed-\(size).pbm")
        bench.loop.advance(by: bench.sequence.options.feedbackPause)
        while bench.sequence.step != .motor { bench.answerYesOrPress() }
        Golden.compare(image: bench.glass, file: "selftest-motor-\(size).pbm")
        bench.answerYesOrPress()
        Golden.compare(image: bench.glass, file: "selftest-summary-passed-\(size).pbm")
    }

    @Test(arguments: [64, 32])
    func aFailedRunsSummaryNamesTheFailedSteps(height: Int) {
        let bench = SelfTestBench(board: SelfTestBench.board(height: height))
        bench.start()
        bench.press(.negative)  // display: no
        bench.loop.advance(by: .seconds(15))  // positive: not pressed
        while bench.sequence.step != nil { bench.answerYesOrPress() }
        Golden.compare(image: bench.glass, file: "selftest-summary-failed-128x\(height).pbm")
    }

    @Test(arguments: [64, 32])
    func theQuickPatternMatchesItsGolden(height: Int) {
        let bench = SelfTestBench(board: SelfTestBench.board(height: height), quick: true)
        bench.start()
        // The display step has drawn; the motor's pulse still runs: the pattern is on the glass.
        Golden.compare(image: bench.glass, file: "selftest-quick-128x\(height).pbm")
    }

    /// The pattern's geometry in panel pixels: the frame on the edges, the
    /// left and right edges two pixels thick, ticks on the middle rows.
    @Test(arguments: [64, 32])
    func thePatternMarksThePanelsEdgesAndMiddleRows(height: Int) {
        let bench = SelfTestBench(board: SelfTestBench.board(height: height))
        bench.start()
        let g = bench.glass
        for y in 0..<height {
            for x in [0, 1, 126, 127] { #expect(g[x, y], "column \(x) row \(y)") }
            #expect(!g[2, y] || y == 0 || y == height - 1 || (height / 2 - 1...height / 2).contains(y), "only the ticks next to the left edge, row \(y)")
        }
        for x in 0..<128 {
            #expect(g[x, 0] && g[x, height - 1], "top and bottom edges, column \(x)")
        }
        for y in [height / 2 - 1, height / 2] {
            for x in 2..<(2 + SelfTestPatterns.tickLength) { #expect(g[x, y] && g[127 - x, y], "ticks on row \(y)") }
        }
    }

    /// An SH1106 module (its picture starts at RAM column 2) behind a board
    /// file that says columnOffset 0: the picture lands 2 columns left, so
    /// the thick left edge is gone and the right one sits 2 columns in,
    /// with 2 dark columns beyond it, as the terminal's explanation says.
    @Test func aWrongColumnOffsetShowsAsAMissingLeftEdge() {
        let holder = GlassHolder()
        let bench = SelfTestBench(board: SelfTestBench.board(controller: .sh1106, columnOffset: 0)) { base in
            let d = AlteredDevices(base)
            d.display = { wiring throws(HALError) in
                let panel = EmulatedI2CDisplay(panel: .sh1106_128x64, address: wiring.address)
                holder.panel = panel
                return panel
            }
            return d
        }
        bench.start()
        let g = holder.panel!.emulator.image()
        for y in [10, 20, 40, 50] {
            #expect(!g[0, y] && !g[1, y], "no left edge on row \(y)")
            #expect(g[124, y] && g[125, y], "the right edge 2 columns in, row \(y)")
            #expect(!g[126, y] && !g[127, y], "dark beyond it, row \(y)")
        }
        #expect(bench.output.contains("needs another display.columnOffset (now 0; 0-4, usually 2)"))
        // With the offset the board file should have, the frame is whole.
        let right = SelfTestBench(board: SelfTestBench.board(controller: .sh1106, columnOffset: 2))
        right.start()
        #expect((0..<64).allSatisfy { right.glass[0, $0] && right.glass[1, $0] && right.glass[126, $0] && right.glass[127, $0] })
    }
}

/// The panel a test double handed out.
final class GlassHolder { var panel: EmulatedI2CDisplay? }
