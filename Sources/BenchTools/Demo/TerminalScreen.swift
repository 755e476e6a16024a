import Graphics
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import TextFormat

/// The simulated panel in a terminal, with lines of text under it, redrawn in
/// place, and the keys that press the buttons: what `wristcore demo` and
/// `wristcore selftest --board sim` share.
///
/// `begin` puts the terminal in raw mode (no echo, no line buffering; Ctrl-C
/// still raises SIGINT) on the alternate screen and reads keys on the loop;
/// `end` (also run by the loop's shutdown and on deinit) restores it.
final class TerminalScreen {
    let terminal: Terminal
    /// The style asked for (`--style`), else nil: chosen by the terminal's size.
    let forcedStyle: TerminalPanel.Style?
    /// Rows the caller needs under the panel at the least.
    let footerRows: Int
    let utf8: Bool
    private var decoder = DemoKeyDecoder()
    private var keyBuffer = [UInt8](repeating: 0, count: 64)
    private var lastScreen: [String] = []
    private var source: SourceID?
    private var loop: EpollLoop?

    init(terminal: Terminal, forcedStyle: TerminalPanel.Style?, footerRows: Int, utf8: Bool = TerminalScreen.localeIsUTF8()) {
        self.terminal = terminal
        self.forcedStyle = forcedStyle
        self.footerRows = footerRows
        self.utf8 = utf8
    }

    deinit { end() }

    /// Raw mode, the alternate screen, and `keys` called with what is typed.
    func begin(on loop: EpollLoop, keys: @escaping ([DemoKey]) -> Void) throws(WristCoreFailure) {
        do throws(HALError) { try terminal.enterRawMode() } catch { throw WristCoreFailure("terminal: \(error)") }
        self.loop = loop
        loop.onShutdown { [unowned(unsafe) self] in self.end() }
        do throws(HALError) {
            source = try loop.addSource(fd: terminal.input, events: .readable) { [unowned(unsafe) self] _ in
                let n = self.terminal.readKeys(into: &self.keyBuffer)
                guard n > 0 else { return }
                let typed = self.decoder.decode(Array(self.keyBuffer[0..<n]))
                if !typed.isEmpty { keys(typed) }
            }
        } catch {
            terminal.restore()
            throw WristCoreFailure("terminal: \(error)")
        }
    }

    /// Stops reading keys and restores the terminal (idempotent).
    func end() {
        if let s = source { loop?.removeSource(s) }
        source = nil
        terminal.restore()
    }

    /// The layout for a panel this big in the terminal as it is now.
    func layout(width: Int, height: Int) -> TerminalPanel.Layout {
        let size = terminal.size
        return TerminalPanel.layout(
            width: width, height: height, terminal: .init(columns: size.columns, rows: size.rows), footerRows: footerRows, utf8: utf8,
            forced: forcedStyle)
    }

    /// Draws `image` and the lines `footer` gives for the layout (and the
    /// terminal's columns), when anything changed since the last time.
    func draw(_ image: MonoImage, footer: (TerminalPanel.Layout, Int) -> [String]) {
        let layout = layout(width: image.width, height: image.height)
        let columns = terminal.size.columns
        let lines = Self.compose(image, layout: layout, columns: columns, footer: footer(layout, columns))
        guard lines != lastScreen else { return }
        lastScreen = lines
        terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    }

    /// The whole screen: the panel as `layout` draws it, then the footer's
    /// lines (at most `layout.footerRows`, each cut to `columns`).
    static func compose(_ image: MonoImage, layout: TerminalPanel.Layout, columns: Int, footer: [String]) -> [String] {
        TerminalPanel.lines(image, layout: layout) + footer.prefix(layout.footerRows).map { clip($0, to: columns) }
    }

    /// `line` cut to `columns` (every character here takes one column).
    static func clip(_ line: String, to columns: Int) -> String {
        var scalars = line.unicodeScalars
        guard scalars.count > columns else { return line }
        scalars.removeLast(scalars.count - max(0, columns))
        return String(scalars)
    }

    /// Whether the locale is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
    static func localeIsUTF8() -> Bool {
        let env = CurrentProcess.environment
        let locale = env("LC_ALL").flatMap { $0.isEmpty ? nil : $0 } ?? env("LC_CTYPE").flatMap { $0.isEmpty ? nil : $0 } ?? env("LANG") ?? ""
        let l = Array(locale.asciiLowercased().utf8)
        return contains(l, "utf-8") || contains(l, "utf8")
    }

    /// Whether `text` holds `word` (the stdlib's substring search is not in Embedded Swift).
    private static func contains(_ text: [UInt8], _ word: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard w.count <= text.count else { return false }
        return (0...(text.count - w.count)).contains { i in text[i..<(i + w.count)].elementsEqual(w) }
    }

    /// Packs legend pieces into at most `rows` lines of `columns`, two spaces
    /// apart; nil when they do not fit.
    static func pack(_ items: [String], columns: Int, rows: Int) -> [String]? {
        var lines: [String] = []
        var line = ""
        for item in items {
            let candidate = line.isEmpty ? item : line + "  " + item
            if candidate.unicodeScalars.count <= columns {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = item
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.count <= rows && lines.allSatisfy({ $0.unicodeScalars.count <= columns }) ? lines : nil
    }

    /// The legend in at most `rows` lines: the long names if they fit, else the short ones (cut if need be).
    static func legend(ascii: Bool, gestures: Bool, answers: Bool = false, columns: Int, rows: Int) -> [String] {
        let rows = max(1, rows)
        if let lines = pack(DemoKeyNames.legend(ascii: ascii, short: false, gestures: gestures, answers: answers), columns: columns, rows: rows) {
            return lines
        }
        let short = DemoKeyNames.legend(ascii: ascii, short: true, gestures: gestures, answers: answers)
        return pack(short, columns: columns, rows: rows) ?? [short.joined(separator: "  ")]
    }
}
