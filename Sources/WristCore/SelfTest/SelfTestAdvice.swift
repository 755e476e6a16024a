import BoardConfig

/// What the terminal tells the person at the bench for each step: what the
/// panel should show, what a wrong picture means and which board-file field
/// to change (the fields are those of docs/boards.md).
enum SelfTestAdvice {
    /// "gpiochip0 line 17", "pinctrl-rp1 line \"GPIO17\"".
    static func lineName(chip: String, line: LineSelector) -> String { "\(chip) line \(line)" }

    static func lineName(_ b: ButtonWiring) -> String { lineName(chip: b.chip, line: b.line) }

    /// The display step's explanation, for this board's panel settings.
    static func display(_ d: DisplayWiring, location: String) -> [String] {
        var lines = [
            "The panel should show: a frame exactly on all four edges, the left and right edges two pixels",
            "thick, a short tick on both sides halfway down, and \"Display test\" with Yes / No over the buttons.",
            "If it does not, the board file's display section is wrong:",
        ]
        switch d.controller {
        case .sh1106:
            lines.append("  - the right edge missing and a 2-pixel gap at the left: the panel is an SSD1306 (most 0.96\"")
            lines.append("    modules): set display.controller to \"ssd1306\"; an SH1106 clone shifted by another amount")
            lines.append("    needs another display.columnOffset (now \(d.columnOffset); 0-4, usually 2)")
        case .ssd1306, .ssd1309:
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

    static let displayHint =
        "check display.controller (ssd1306 / sh1106 / ssd1309), display.columnOffset, display.height, display.rotation and display.flip against the explanation above"

    static func buttonNotPressed(_ b: ButtonWiring, seconds: Int64) -> String {
        "nothing from \(lineName(b)) in \(seconds) s: check the wire (an activeLow button connects the pin to GND), "
            + "the board file's buttons[\(b.role.rawValue)].chip and .line ('gpioinfo \(b.chip)' lists the lines), "
            + ".activeLow (now \(b.activeLow)) and .bias (now \(b.bias.rawValue); activeLow buttons need pull-up)"
    }

    static func buttonHeld(_ b: ButtonWiring) -> String {
        "\(b.role.rawValue) (\(lineName(b))) reads pressed while nobody touches it: buttons[\(b.role.rawValue)].activeLow "
            + "(now \(b.activeLow)) is probably the wrong way round, or the pin floats: set .bias to \(b.activeLow ? "pull-up" : "pull-down")"
    }

    static func wrongButton(pressed: ButtonWiring, expected: ButtonWiring) -> String {
        "if you pressed the \(expected.role.rawValue) button, the board file has \(expected.role.rawValue) and "
            + "\(pressed.role.rawValue) on the wrong lines: swap their buttons[].line (\(expected.line) and \(pressed.line))"
    }

    static func motor(_ m: MotorWiring) -> [String] {
        [
            "The motor (\(lineName(chip: m.chip, line: m.line))) now pulses three times, then rests, and again.",
            "If it runs all the time, also between the pulses, motor.activeLow (now \(m.activeLow)) is the wrong way",
            "round: answer no and change it ('wristcore motor-off --board FILE' stops it should it keep running).",
        ]
    }

    static func motorHint(_ m: MotorWiring) -> String {
        "check the driver transistor (the motor never hangs on the GPIO pin directly) and its supply, motor.chip and motor.line "
            + "(now \(lineName(chip: m.chip, line: m.line))) and motor.activeLow (now \(m.activeLow): false for an NPN / N-MOSFET low-side switch)"
    }
}
