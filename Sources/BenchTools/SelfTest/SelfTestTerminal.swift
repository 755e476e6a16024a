import BoardConfig
import Graphics
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import TextFormat

/// `selftest` on a board that is not wired (the simulated board) in a
/// terminal: the demo's `TerminalScreen` draws the emulated panel, with the
/// motor, the last key and the newest lines of the self-test's text under
/// it, and the demo's keys press the buttons (through the board devices, as
/// edges the self-test's recognizers debounce). When it ends, the terminal is
/// restored and the whole text is printed, so the summary stays on screen.
final class SelfTestTerminal {
    /// Rows under the panel at the least: the motor and last key, six lines of text, the keys.
    static let footerRows = 8

    let screen: TerminalScreen
    private(set) var transcript: [String] = []
    private var lastKey: String?
    private var hand: ButtonHand?
    private var redraw: TimerID?
    private var loop: EpollLoop?

    init(terminal: Terminal) {
        screen = TerminalScreen(terminal: terminal, forcedStyle: nil, footerRows: Self.footerRows)
    }

    /// One output of the self-test (a line, or lines with newlines in it).
    func add(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { transcript.append(String(line)) }
    }

    /// Raw keys, the alternate screen, and a redraw every 50 ms until `end`.
    /// - Parameters:
    ///   - image: what the panel shows now.
    ///   - motorOn: whether the motor runs now.
    ///   - quit: the q key.
    func begin(on loop: EpollLoop, board: Board, devices: any BoardDevices, image: @escaping () -> MonoImage, motorOn: @escaping () -> Bool,
               quit: @escaping () -> Void) throws(WristCoreFailure) {
        self.loop = loop
        let hand = ButtonHand(timing: board.input, loop: loop) { role, active in devices.setButton(role, active: active) }
        self.hand = hand
        try screen.begin(on: loop) { [unowned(unsafe) self] keys in
            for key in keys {
                if case .button(let role, let press) = key { hand.perform(press, on: role) }
                if key == .quit { return quit() }
                self.lastKey = DemoRunner.keyText(key, timing: board.input)
            }
        }
        let timer = loop.makeTimer { [unowned(unsafe) self] in
            let on = motorOn()
            self.screen.draw(image()) { layout, columns in
                Self.footer(motorOn: on, lastKey: self.lastKey, transcript: self.transcript, ascii: layout.ascii, columns: columns, rows: layout.footerRows)
            }
        }
        redraw = timer
        loop.arm(timer, after: .zero, repeating: .milliseconds(50))
    }

    /// Restores the terminal and prints everything the self-test said (idempotent).
    func end(printingTo output: (String) -> Void) {
        if let t = redraw { loop?.destroyTimer(t) }
        redraw = nil
        screen.end()
        for line in transcript { output(line) }
        transcript.removeAll()
    }

    /// The lines under the panel: the motor and the last key, the newest
    /// lines of the text (wrapped to `columns`), the keys on the last line.
    static func footer(motorOn: Bool, lastKey: String?, transcript: [String], ascii: Bool, columns: Int, rows: Int) -> [String] {
        let motor = motorOn ? (ascii ? "== BZZZ ==" : "≋≋ BZZZ ≋≋") : "off       "
        let status = "motor \(motor)   \(lastKey ?? "no key yet")"
        let legend = TerminalScreen.legend(ascii: ascii, gestures: false, answers: true, columns: columns, rows: 1)
        let room = max(0, rows - 1 - legend.count)
        var tail: [String] = []
        for line in transcript.reversed() where tail.count < room {
            tail.insert(contentsOf: wrap(ascii ? asciiOnly(line) : line, columns: columns).suffix(room - tail.count), at: 0)
        }
        return [status] + tail + legend
    }

    /// `line` in lines of at most `columns`, broken at a space where there is one.
    static func wrap(_ line: String, columns: Int) -> [String] {
        let width = max(1, columns)
        var rest = Array(line.unicodeScalars)[...]
        var out: [String] = []
        func text(_ s: ArraySlice<Unicode.Scalar>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: s)
            return String(view)
        }
        while rest.count > width {
            let start = rest.startIndex
            if let space = rest[(start + 1)...(start + width)].lastIndex(of: " ") {
                out.append(text(rest[start..<space]))
                rest = rest[(space + 1)...]
            } else {
                out.append(text(rest[start..<(start + width)]))
                rest = rest[(start + width)...]
            }
        }
        out.append(text(rest))
        return out
    }

    /// `line` with anything beyond ASCII shown as `?` (a non-UTF-8 terminal).
    static func asciiOnly(_ line: String) -> String {
        var out = String.UnicodeScalarView()
        for s in line.unicodeScalars { out.append(s.value < 0x80 ? s : "?") }
        return String(out)
    }
}
