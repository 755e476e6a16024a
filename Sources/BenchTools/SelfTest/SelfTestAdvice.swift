import BoardConfig
import Display

/// What the terminal tells the person at the bench for each step: what the
/// panel should show, what a wrong picture means and which board-file field
/// to change (the fields are those of docs/boards.md).
///
/// On devices that are not wired (the simulated board: `BoardDevices.isWired`)
/// there are no pins, wires or buses to check: the advice says what presses
/// a simulated button (a key in the terminal, the harness) and what the
/// emulated panel and motor show instead.
struct SelfTestAdvice {
    /// The devices are real pins and buses.
    let wired: Bool

    /// "gpiochip0 line 17", "pinctrl-rp1 line \"GPIO17\"".
    static func lineName(chip: String, line: LineSelector) -> String { "\(chip) line \(line)" }

    static func lineName(_ b: ButtonWiring) -> String { lineName(chip: b.chip, line: b.line) }

    /// The display step's explanation, for this board's panel settings.
    func display(_ d: DisplayWiring, location: String) -> [String] {
        var lines = [
            "The panel should show: a frame exactly on all four edges, the left and right edges two pixels",
            "thick, a short tick on both sides halfway down, and \"Display test\" with Yes / No over the buttons.",
        ]
        guard wired else {
            lines.append("The simulated panel decodes the driver's own bytes with this board file's settings, so only a")
            lines.append("bug can make it wrong: then answer no, and report it with the picture.")
            return lines
        }
        lines.append("If it does not, the board file's display section is wrong:")
        // A panel whose RAM is wider than its glass (SH1106: 132 columns, the
        // glass at offset 2) shows the opposite mistakes of a 128-column one.
        if let spec = ControllerSpec.panel(d.controller, width: d.width, height: d.height), spec.ramColumns > spec.width {
            lines.append("  - the right edge missing and a 2-pixel gap at the left: the panel is an SSD1306 (most 0.96\"")
            lines.append("    modules): set display.controller to \"ssd1306\"; an SH1106 clone shifted by another amount")
            lines.append("    needs another display.columnOffset (now \(d.columnOffset); 0-4, usually 2)")
        } else {
            lines.append("  - garbled, snow, only a band at the top, or the left edge missing with 2 columns of noise at")
            lines.append("    the right: the panel is an SH1106 (most 1.3\" modules): set display.controller to \"sh1106\"")
            lines.append("  - shifted by 1-4 pixels with a clean picture otherwise: display.columnOffset (now \(d.columnOffset); 0-4)")
        }
        if d.height == 64 {
            lines.append("  - only the top half (the ticks on the bottom edge, no bottom line), or every other row")
            lines.append("    (the picture squashed): a 128x32 panel: set display.height to 32")
        } else {
            lines.append("  - the picture stretched over twice the rows with empty rows between, or the bottom line")
            lines.append("    halfway down: a 128x64 panel: set display.height to 64")
        }
        lines.append("  - upside down: display.rotation 180; mirrored left-right: display.flip")
        lines.append("  - nothing at all although no error was reported: another device answers at display.address")
        lines.append("    on \(location); 'wristcore doctor' and 'i2cdetect' show what is on the bus")
        return lines
    }

    var displayHint: String {
        wired
            ? "check display.controller (\(ControllerFamily.allCases.map { $0.rawValue }.joined(separator: " / "))), display.columnOffset, display.height, display.rotation and display.flip against the explanation above"
            : "the simulated panel shows the driver's own bytes: a wrong picture is a bug in WristCore, please report it with a snapshot (the harness's 'snapshot png')"
    }

    /// What presses a simulated button: its keys in a terminal, or the harness.
    private static func simulatedPress(_ role: ButtonRole) -> String {
        "on the simulated board a key presses it when the self-test runs in a terminal (\(DemoKeyNames.keys(role, ascii: true)) for \(role.rawValue)), "
            + "or a harness client ('press \(role.rawValue)' with --harness, docs/harness.md)"
    }

    func buttonNotPressed(_ b: ButtonWiring, seconds: Int64) -> String {
        guard wired else { return "nothing from \(Self.lineName(b)) in \(seconds) s: " + Self.simulatedPress(b.role) }
        return "nothing from \(Self.lineName(b)) in \(seconds) s: check the wire (an activeLow button connects the pin to GND), "
            + "the board file's buttons[\(b.role.rawValue)].chip and .line ('gpioinfo \(b.chip)' lists the lines), "
            + ".activeLow (now \(b.activeLow)) and .bias (now \(b.bias.rawValue); activeLow buttons need pull-up)"
    }

    func buttonHeld(_ b: ButtonWiring) -> String {
        guard wired else {
            return "\(b.role.rawValue) (\(Self.lineName(b))) reads pressed while nobody touches it: a harness client holds it ('hold \(b.role.rawValue)' with no 'release')"
        }
        return "\(b.role.rawValue) (\(Self.lineName(b))) reads pressed while nobody touches it: buttons[\(b.role.rawValue)].activeLow "
            + "(now \(b.activeLow)) is probably the wrong way round, or the pin floats: set .bias to \(b.activeLow ? "pull-up" : "pull-down")"
    }

    func wrongButton(pressed: ButtonWiring, expected: ButtonWiring) -> String {
        guard wired else {
            return "that was \(pressed.role.rawValue) (its keys: \(DemoKeyNames.keys(pressed.role, ascii: true))); \(expected.role.rawValue)'s keys are "
                + "\(DemoKeyNames.keys(expected.role, ascii: true)), or 'press \(expected.role.rawValue)' through the harness"
        }
        return "if you pressed the \(expected.role.rawValue) button, the board file has \(expected.role.rawValue) and "
            + "\(pressed.role.rawValue) on the wrong lines: swap their buttons[].line (\(expected.line) and \(pressed.line))"
    }

    func motor(_ m: MotorWiring) -> [String] {
        guard wired else {
            return ["The simulated motor (\(Self.lineName(chip: m.chip, line: m.line))) now pulses three times, then rests, and again: in a terminal",
                    "BZZZ shows under the panel while it runs (a harness client follows it with 'motor')."]
        }
        return [
            "The motor (\(Self.lineName(chip: m.chip, line: m.line))) now pulses three times, then rests, and again.",
            "If it runs all the time, also between the pulses, motor.activeLow (now \(m.activeLow)) is the wrong way",
            "round: answer no and change it ('wristcore motor-off --board FILE' stops it should it keep running).",
        ]
    }

    func motorHint(_ m: MotorWiring) -> String {
        guard wired else {
            return "the simulated motor (\(Self.lineName(chip: m.chip, line: m.line))) cannot be felt: it shows as BZZZ under the panel in a terminal, and a harness client follows it with 'motor'"
        }
        return "check the driver transistor (the motor never hangs on the GPIO pin directly) and its supply, motor.chip and motor.line "
            + "(now \(Self.lineName(chip: m.chip, line: m.line))) and motor.activeLow (now \(m.activeLow): false for an NPN / N-MOSFET low-side switch)"
    }
}
