import BoardConfig
import Testing

@testable import BoardConfig

/// Board-file errors echo what the file says (issue 14 item 11): every
/// echoed key and value is escaped JSON-style, so a NUL cannot cut stderr
/// (the CLI writes C strings) and a newline or ESC cannot split a problem
/// over lines or drive the terminal. One problem, one line, every problem.
@Suite("Board files: echoed text is escaped")
struct BoardErrorEchoTests {
    /// Keys and values with a NUL, newline, ESC, tab, C1 CSI, quote and
    /// backslash, each written as a JSON escape in the file.
    static let hostile = #"""
        {
          "name": "Test board",
          "dis\u0000play": 1,
          "display": { "controller": "ssd\n1306\u001b[2J", "bus": "\t0\u009b", "address": "0x3C", "width": 128, "height": 64 },
          "buttons": [
            { "role": "posi\"tive\\", "chip": "gpiochip0", "line": 17 },
            { "role": "negative", "chip": "gpiochip0", "line": 27 }
          ],
          "motor": { "chip": "gpiochip0", "line": 18, "quietHours": "\u001b]0;pwned\u0007" },
          "bluetooth": { "name": "\u0000\u001b[2J-twenty-five-more-bytes!!" }
        }
        """#

    @Test("NUL, newline, ESC and C1 in keys and values: escaped, one problem per line, none lost")
    func hostileFile() {
        let lines = problems(Self.hostile)
        #expect(lines == [
            #"Boards/broken.json:3: dis\u0000play: unknown field; allowed: name, simulated, display, buttons, motor, battery, input, bluetooth, setSystemClock"#,
            #"Boards/broken.json:4: display.controller: "ssd\n1306\u001b[2J" is not a supported display controller; allowed: ssd1306, sh1106, ssd1309"#,
            #"Boards/broken.json:4: display.bus: expected a number, found the string "\t0\u009b"; allowed: the N of /dev/i2c-N, 0-255"#,
            #"Boards/broken.json:6: buttons[0].role: "posi\"tive\\" is not a supported button role; allowed: positive, negative, select, up, down, back"#,
            #"Boards/broken.json:5: buttons: no button has role "positive"; the positive and negative buttons are required"#,
            #"Boards/broken.json:9: motor.quietHours: "\u001b]0;pwned\u0007" is not a time range; allowed: "HH:MM-HH:MM", e.g. "22:00-07:00""#,
            #"Boards/broken.json:10: bluetooth.name: "\u0000\u001b[2J-twenty-five-more-bytes!!" is 30 bytes of UTF-8; allowed: 1-29 bytes (it must fit in an advertisement)"#,
        ])
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line)")
        }
        // What the CLI writes: the report, one problem per line, no NUL to cut it.
        do {
            _ = try BoardLoader.parse(Self.hostile, file: "Boards/broken.json")
            Issue.record("no error")
        } catch {
            #expect(error.description.split(separator: "\n", omittingEmptySubsequences: false).count == 7)
            #expect(!error.description.utf8.contains(0))
        }
    }

    @Test("raw control bytes (not JSON escapes) in a key and a value")
    func rawControlBytes() {
        let text = "{ \"name\": \"x\", \"a\u{0}b\u{1b}[31m\": 1, \"display\": { \"controller\": \"x\u{1b}y\" } }"
        let lines = problems(text)
        #expect(lines.contains(#"Boards/broken.json:1: display.controller: "x\u001by" is not a supported display controller; allowed: ssd1306, sh1106, ssd1309"#))
        #expect(lines.contains(#"Boards/broken.json:1: a\u0000b\u001b[31m: unknown field; allowed: name, simulated, display, buttons, motor, battery, input, bluetooth, setSystemClock"#))
        // A newline inside a string is a syntax error: the report is still one line.
        #expect(problems("{ \"name\": \"x\n\" }") == ["Boards/broken.json:1: syntax: line break inside a string (column 14)"])
        #expect(problems("{ \"name\u{1b}\" 1 }") == [#"Boards/broken.json:1: syntax: expected ':' after "name\u001b" (column 11)"#])
        #expect(problems("\u{1b}[2J") == [#"Boards/broken.json:1: syntax: unexpected character '\u001b' (column 1)"#])
        #expect(problems("{ \"a\": \"\\\u{1b}\" }") == [#"Boards/broken.json:1: syntax: unknown escape '\\u001b' (column 11)"#])
        for line in lines { #expect(!line.contains("\n") && !line.contains("\u{0}") && !line.contains("\u{1b}")) }
    }

    @Test("the file name and a field path are escaped too, and a chip path with slashes is named whole")
    func fileNameAndChip() {
        do {
            _ = try BoardLoader.parse("{ \"x\": 1 }", file: "evil\n\u{1b}[2J.json")
            Issue.record("no error")
        } catch {
            #expect(error.problems.first?.description.hasPrefix(#"evil\n\u001b[2J.json:1: x: unknown field"#) == true)
        }
        let shared = validBoard.replacingOccurrences(of: "\"line\": 18", with: "\"line\": 17")
            .replacingOccurrences(of: "\"chip\": \"gpiochip0\"", with: "\"chip\": \"/dev/gpiochip0\"")
        #expect(problems(shared).contains { $0.hasSuffix(#"chip "/dev/gpiochip0" line 17 is already used by buttons[positive]; every button and the motor need their own line"#) })
    }

    @Test("BoardText: JSON-style escapes")
    func escapes() {
        #expect(BoardText.escaped("a\0b\n\r\t\u{1b}\u{7f}\u{85}\"\\é") == #"a\u0000b\n\r\t\u001b\u007f\u0085\"\\é"#)
        #expect(BoardText.quoted("x") == "\"x\"")
        #expect(BoardText.controlsEscaped(#"keep "quotes" \ and\#u{0}"#) == #"keep "quotes" \ and\u0000"#)
    }
}
