import BoardConfig
import Graphics
import HAL
import Input
import Log
import Loop
import Screens
import SimBoard
import Testing
import Watch

@testable import WristCore
@testable import BenchTools

/// The demo's keys for every gesture of docs/buttons.md: the bytes a
/// terminal sends, the press / release timelines they become (from the
/// board's input timing), and the watch's own recognizer reading them;
/// the footer that names each press; the terminal size → drawing style
/// choice; ASCII mode.
@Suite struct DemoKeysTests {
    // MARK: bytes → keys

    @Test func capitalsAndShiftedArrowsAreLongPressesAndTwoMakesADouble() {
        #expect(DemoRunner.keys(Array("YNKJSB".utf8)) == [
            .button(.positive, .long), .button(.negative, .long), .button(.up, .long), .button(.down, .long),
            .button(.select, .long), .button(.back, .long),
        ])
        // Shift+→ ← ↑ ↓ (xterm: ESC [ 1 ; 2 C), and the application-mode arrows (ESC O C).
        #expect(DemoRunner.keys(Array("\u{1B}[1;2C\u{1B}[1;2D\u{1B}[1;2A\u{1B}[1;2B\u{1B}OC".utf8)) == [
            .button(.positive, .long), .button(.negative, .long), .button(.up, .long), .button(.down, .long), .button(.positive, .press),
        ])
        #expect(DemoRunner.keys(Array("2y2\u{1B}[C2n2 y".utf8)) == [
            .doubleNext, .button(.positive, .double), .doubleNext, .button(.positive, .double), .doubleNext, .button(.negative, .double),
            .doubleNext, .button(.select, .double), .button(.positive, .press),
        ])
        // A key that is no button forgets the 2; a capital after 2 is still a long press.
        #expect(DemoRunner.keys(Array("2xy2Y".utf8)) == [
            .doubleNext, .other(UInt8(ascii: "x")), .button(.positive, .press), .doubleNext, .button(.positive, .long),
        ])
        // The 2 at the end of one read applies to the first key of the next.
        var decoder = DemoKeyDecoder()
        #expect(decoder.decode(Array("k2".utf8)) == [.button(.up, .press), .doubleNext])
        #expect(decoder.decode(Array("b".utf8)) == [.button(.back, .double)])
        #expect(decoder.decode(Array("b".utf8)) == [.button(.back, .press)])
    }

    // MARK: keys → timelines → the watch's recognizer

    /// What the watch's recognizer makes of `press` played by the demo's hand on a simulated line.
    static func recognised(_ press: ButtonPress, timing: InputTiming, detectsDoublePress: Bool = true) -> [ButtonGesture] {
        let loop = ManualLoop()
        let line = SimulatedButtonLine { loop.now }
        var gestures: [ButtonGesture] = []
        let recognizer = ButtonRecognizer(
            timing: ButtonTiming(debounce: timing.debounce, longPress: timing.longPress, doublePress: timing.doublePress),
            detectsDoublePress: detectsDoublePress, scheduler: loop) { gestures.append($0) }
        line.edgesQueued = { while let edge = try? line.readEdge() { recognizer.edge(edge) } }
        let hand = ButtonHand(timing: timing, loop: loop) { _, active in line.push(active: active) }
        hand.perform(press, on: .positive)
        loop.advance(by: .seconds(30))
        return gestures
    }

    static let timings = [
        InputTiming.defaults,
        InputTiming(debounce: .milliseconds(50), longPress: .milliseconds(1500), doublePress: .milliseconds(600)),
        InputTiming(debounce: .milliseconds(5), longPress: .milliseconds(200), doublePress: .milliseconds(120)),
        InputTiming(debounce: .zero, longPress: .milliseconds(100), doublePress: .milliseconds(40)),
    ]

    @Test(arguments: timings)
    func eachKeysTimelineIsTheGestureTheWatchRecognises(_ timing: InputTiming) {
        func gesture(_ text: String) -> [ButtonGesture] {
            guard case .button(_, let press)? = DemoRunner.keys(Array(text.utf8)).last else { return [] }
            return Self.recognised(press, timing: timing)
        }
        #expect(gesture("y") == [.press])
        #expect(gesture("Y") == [.longPress])
        #expect(gesture("\u{1B}[1;2C") == [.longPress])
        #expect(gesture("2y") == [.doublePress])
        // A button that does not read double presses sees two presses.
        #expect(Self.recognised(.double, timing: timing, detectsDoublePress: false) == [.press, .press])
        // A scenario's hold: long from the long-press time on.
        #expect(Self.recognised(.hold(timing.longPress + timing.debounce + .milliseconds(50)), timing: timing) == [.longPress])
    }

    @Test func theTimelinesComeFromTheBoardsTiming() {
        let d = InputTiming.defaults
        #expect(ButtonPress.press.edges(d) == [.init(after: .zero, active: true), .init(after: .milliseconds(80), active: false)])
        #expect(ButtonPress.long.edges(d).last == .init(after: .milliseconds(770), active: false))
        #expect(ButtonPress.double.edges(d) == [
            .init(after: .zero, active: true), .init(after: .milliseconds(80), active: false),
            .init(after: .milliseconds(240), active: true), .init(after: .milliseconds(320), active: false),
        ])
        let slow = InputTiming(debounce: .milliseconds(50), longPress: .milliseconds(1500), doublePress: .milliseconds(600))
        #expect(ButtonPress.long.length(slow) == .milliseconds(1700))
        #expect(ButtonPress.press.length(slow) == .milliseconds(110))
    }

    @Test func aBusyButtonTakesTheNextGestureOnceTheLastHasSettled() {
        let loop = ManualLoop()
        var edges: [(MonotonicInstant, Bool)] = []
        let hand = ButtonHand(timing: .defaults, loop: loop) { _, active in
            edges.append((loop.now, active))
            return true
        }
        hand.perform(.long, on: .positive)
        hand.perform(.press, on: .positive)
        #expect(hand.perform(.press, on: .negative))
        loop.advance(by: .seconds(5))
        let times = edges.map { $0.0.nanoseconds / 1_000_000 }
        // positive down 0, negative down 0, negative up 80, positive up 770, positive again 800 (770 + 20 + 10) to 880.
        #expect(times == [0, 0, 80, 770, 800, 880])
        // A key held down and repeating: beyond 2 s of backlog the presses are dropped.
        var accepted = 0
        for _ in 0..<100 where hand.perform(.press, on: .up) { accepted += 1 }
        #expect(accepted > 10 && accepted < 30)
    }

    // MARK: the demo: a long press opens Do Not Disturb

    static let quiet: DemoScenario = try! DemoScenario.parse("wait 10s")

    static func runner(_ scenario: DemoScenario = quiet, board: Board = BoardLoader.builtInSimulated) -> DemoRunner {
        var logger = Logger(label: "demo-keys-test")
        logger.logLevel = .critical
        return DemoRunner(board: board, options: .init(scenario: scenario), logger: logger)
    }

    @Test func theCapitalYOnTheClockOpensDoNotDisturb() throws {
        let runner = Self.runner()
        var screens: [Int: Screen] = [:]
        runner.keysAtFrame = [20: Array("Y".utf8)]
        runner.watchHandler = { frame, watch in screens[frame] = watch.screen }
        try runner.runHeadless(frames: 40)
        #expect(screens[19] == .idleClock)
        // 770 ms of press: the menu opens at 600 ms, while the key's press is still held.
        #expect(screens[24] == .idleClock)
        #expect(screens[27] == .doNotDisturbMenu(selected: DoNotDisturbMenu.Entry.forOneHour.rawValue))
        #expect(screens[39] == .doNotDisturbMenu(selected: DoNotDisturbMenu.Entry.forOneHour.rawValue))
        #expect(runner.lastPressText == "you: positive (long)")
    }

    @Test func twoThenYIsADoublePressWhereTheBoardReadsOne() throws {
        // Without up / down buttons the positive button reads double presses: in the menu, the previous entry.
        var fourButtons = BoardLoader.builtInSimulated
        fourButtons.buttons = fourButtons.buttons.filter { [.positive, .negative, .select, .back].contains($0.role) }
        let count = DoNotDisturbMenu.entryCount
        let forOneHour = DoNotDisturbMenu.Entry.forOneHour.rawValue
        var screens: [Int: Screen] = [:]
        let runner = Self.runner(board: fourButtons)
        runner.keysAtFrame = [20: Array("Y".utf8), 40: Array("2y".utf8)]
        runner.watchHandler = { frame, watch in screens[frame] = watch.screen }
        try runner.runHeadless(frames: 60)
        #expect(screens[39] == .doNotDisturbMenu(selected: forOneHour))
        #expect(screens[59] == .doNotDisturbMenu(selected: (forOneHour + count - 1) % count))
        #expect(runner.lastPressText == "you: positive (double)")
        // The six-button board does not: 2 y is two presses, the first chooses "For 1 hour".
        var dnd = false
        let six = Self.runner()
        six.keysAtFrame = [20: Array("Y".utf8), 40: Array("2y".utf8)]
        six.watchHandler = { frame, watch in
            screens[frame] = watch.screen
            dnd = watch.model.isDoNotDisturbOn
        }
        try six.runHeadless(frames: 60)
        #expect(dnd)
        #expect(screens[59] == .idleClock)
    }

    // MARK: the footer names each press

    @Test func theFooterNamesTheScenariosPressesAndTheUsersKeys() throws {
        let t = InputTiming.defaults
        #expect(DemoRunner.scenarioPressText(.positive, .long, timing: t) == "scenario: positive (long)")
        #expect(DemoRunner.scenarioPressText(.positive, .hold(.milliseconds(800)), timing: t) == "scenario: positive (long)")
        #expect(DemoRunner.scenarioPressText(.negative, .hold(.milliseconds(300)), timing: t) == "scenario: negative (held 300 ms)")
        #expect(DemoRunner.scenarioPressText(.back, .press, timing: t) == "scenario: back")
        #expect(DemoRunner.scenarioPressText(.positive, .double, timing: t) == "scenario: positive (double)")
        #expect(DemoRunner.keyText(.button(.select, .long), timing: t) == "you: select (long)")
        #expect(DemoRunner.keyText(.other(UInt8(ascii: "x")), timing: t) == "you: 'x' presses nothing (keys below)")
        #expect(DemoRunner.keyText(.doubleNext, timing: t).hasPrefix("you: 2: the next button key is a double press"))
        let status = DemoRunner.footer(motorOn: true, lastPress: "scenario: positive (long)", seconds: 27.1, ascii: false, columns: 128, rows: 2)[0]
        #expect(status == "motor ≋≋ BZZZ ≋≋   scenario: positive (long)    27.1 s")

        // The shipped scenario's presses, as the footer shows them while it plays.
        let runner = DemoRunner(board: BoardLoader.builtInSimulated, options: .init(scenario: try DemoTests.shippedScenario()), logger: {
            var l = Logger(label: "demo-keys-test")
            l.logLevel = .critical
            return l
        }())
        var shown: [String] = []
        runner.watchHandler = { _, _ in
            if let text = runner.lastPressText, shown.last != text { shown.append(text) }
        }
        try runner.runHeadless(frames: 300)
        #expect(shown == ["scenario: positive", "scenario: back", "scenario: negative", "scenario: positive (long)", "scenario: positive", "scenario: back"])
    }

    // MARK: terminal size → style

    static func screen(columns: Int, rows: Int, utf8: Bool = true, forced: TerminalPanel.Style? = nil, motorOn: Bool = false,
                       lastPress: String? = nil) -> (TerminalPanel.Layout, [String]) {
        let layout = TerminalPanel.layout(
            width: 128, height: 64, terminal: .init(columns: columns, rows: rows), footerRows: DemoRunner.footerRows, utf8: utf8, forced: forced)
        var image = MonoImage(width: 128, height: 64)
        for x in 0..<128 { image[x, 0] = true; image[x, 63] = true }
        let footer = DemoRunner.footer(motorOn: motorOn, lastPress: lastPress, seconds: 3, ascii: layout.ascii, columns: columns, rows: layout.footerRows)
        return (layout, TerminalScreen.compose(image, layout: layout, columns: columns, footer: footer))
    }

    @Test func halfBlocksFromTheSmallestTerminalTheyFitAndBrailleWithTheSizeBelowIt() {
        // 128 columns hold the panel's 128 pixels; 32 rows hold its 64, and two more the status line and the keys.
        let (blocks, lines) = Self.screen(columns: 128, rows: 34)
        #expect(blocks.style == .halfBlocks && !blocks.sides && !blocks.rules && blocks.sharperAt == nil && blocks.footerRows == 2)
        #expect(lines.count == 34)
        #expect(lines[0] == String(repeating: "▀", count: 128))
        #expect(lines[31] == String(repeating: "▄", count: 128))
        #expect(lines[32].hasPrefix("motor off"))
        #expect(lines[33].contains("y positive") && lines[33].contains("Shift"))
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 128 })
        // Room for the border and the full legend: 130x37.
        let (framed, framedLines) = Self.screen(columns: 130, rows: 37)
        #expect(framed.style == .halfBlocks && framed.sides && framed.rules && framed.footerRows == 3)
        #expect(framedLines.count == 37 && framedLines[0].hasPrefix("┌"))
        // One column or one row short: braille, and the size half blocks need.
        for (columns, rows) in [(120, 34), (127, 34), (128, 33), (80, 24), (120, 40)] {
            let (layout, lines) = Self.screen(columns: columns, rows: rows)
            #expect(layout.style == .braille, "\(columns)x\(rows)")
            #expect(layout.sharperAt == TerminalPanel.Size(columns: 128, rows: 34))
            #expect(lines.filter { $0 == "enlarge the terminal to 128x34 for a sharper panel" }.count == 1)
            #expect(lines.count <= rows && lines.allSatisfy { $0.unicodeScalars.count <= columns }, "\(columns)x\(rows)")
        }
        // A style asked for: no advice; ASCII: no advice either.
        #expect(Self.screen(columns: 80, rows: 24, forced: .braille).0.sharperAt == nil)
        #expect(Self.screen(columns: 80, rows: 24, utf8: false).0.sharperAt == nil)
    }

    @Test func asciiModeWritesOnlyASCII() {
        for (columns, rows) in [(80, 24), (128, 34), (200, 60)] {
            for motorOn in [false, true] {
                for (utf8, forced) in [(false, nil), (true, TerminalPanel.Style.ascii)] {
                    let (layout, lines) = Self.screen(
                        columns: columns, rows: rows, utf8: utf8, forced: forced, motorOn: motorOn, lastPress: "you: positive (long)")
                    #expect(layout.style == .ascii && layout.ascii)
                    #expect(lines.joined(separator: "\n").utf8.allSatisfy { $0 < 0x80 }, "\(columns)x\(rows)")
                    #expect(lines.joined().contains("y/Enter/Right positive") || lines.joined().contains("y positive"))
                }
            }
        }
        // The self-test's screen too, whatever its text holds.
        let footer = SelfTestTerminal.footer(
            motorOn: true, lastKey: "you: negative", transcript: ["Step 1/3: display on 李伟's board — “quoted”"], ascii: true, columns: 80, rows: 8)
        #expect(footer.joined().utf8.allSatisfy { $0 < 0x80 })
        #expect(footer[0] == "motor == BZZZ ==   you: negative")
    }
}
