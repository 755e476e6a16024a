import CLinux
import HAL

/// The controlling terminal for the demo (and `setup`'s question): raw key input (no line buffering,
/// no echo; Ctrl-C still raises SIGINT), the window size, and output. The
/// original mode is restored by `restore()` — idempotent, and also run on
/// deinit — so the shell is never left in raw mode.
public final class Terminal {
    public let input: Int32
    public let output: Int32
    private var original: termios?

    /// nil when standard input or output is not a terminal (CI, pipes).
    public init?(input: Int32 = 0, output: Int32 = 1) {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        self.input = input
        self.output = output
    }

    /// Columns and rows (80x24 when the size cannot be read).
    public var size: (columns: Int, rows: Int) {
        var w = winsize()
        if wc_ioctl_ptr(output, wc_tiocgwinsz(), &w) == 0, w.ws_col > 0, w.ws_row > 0 {
            return (Int(w.ws_col), Int(w.ws_row))
        }
        return (80, 24)
    }

    /// Keys arrive byte by byte without echo; the alternate screen is used
    /// and the cursor hidden.
    public func enterRawMode() throws(HALError) {
        var t = termios()
        if tcgetattr(input, &t) != 0 { throw Errno.current.halError("read the terminal mode") }
        original = t
        t.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // VMIN 0 / VTIME 0: reads never block.
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        if tcsetattr(input, TCSANOW, &t) != 0 { throw Errno.current.halError("set the terminal to raw mode") }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// Puts the terminal back as it was (cursor, screen, mode).
    public func restore() {
        guard var t = original else { return }
        original = nil
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        _ = tcsetattr(input, TCSANOW, &t)
    }

    deinit { restore() }

    /// One line typed in the terminal's ordinary (cooked) mode, without its
    /// newline; nil at end of input (Ctrl-D) or on an error. At most `limit`
    /// bytes are kept; the rest of a longer line is read and dropped.
    public func readLine(limit: Int = 256) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = CLinux.read(input, &byte, 1)
            if n < 0, Errno.current == .interrupted { continue }
            if n <= 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            if line.count < limit { line.append(byte) }
        }
    }

    /// Reads the bytes typed so far (never blocks).
    public func readKeys(into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { CLinux.read(input, $0.baseAddress, $0.count) }
    }

    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { CLinux.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 {
                if Errno.current == .interrupted || Errno.current == .wouldBlock { continue }
                return
            }
            offset += n
        }
        bytes.removeAll()
    }
}
