import Glibc
import HAL
import Testing

@testable import LinuxHAL

/// The real libgpiod lines' failures that need no hardware, and the wording
/// of those that do (the real-kernel cases run in the VM with gpio-sim).
@Suite struct GPIOLineErrorTests {
    @Test func buttonOnAMissingChip() {
        #expect {
            _ = try GPIOButtonLine(chip: "gpiochip-nope", line: .offset(17), activeLow: true, bias: .pullUp,
                                   debounce: .milliseconds(20), consumer: "wristcore-test")
        } throws: { error in
            guard let e = error as? HALError else { return false }
            return e.reason == "no GPIO chip 'gpiochip-nope'" && e.hint?.hasPrefix("gpiodetect lists them") == true
                && e.operation == "request GPIO line 17 of chip 'gpiochip-nope'"
        }
    }

    @Test func motorOnAMissingChipByPath() {
        #expect {
            _ = try GPIOMotorLine(chip: "/dev/gpiochip99", line: .name("MOTOR"), activeLow: false, consumer: "wristcore-test")
        } throws: { error in
            guard let e = error as? HALError else { return false }
            return e.description == "request GPIO line 'MOTOR' of chip '/dev/gpiochip99': no GPIO chip '/dev/gpiochip99'; "
                + "gpiodetect lists them; use a path (/dev/gpiochip0), a name (gpiochip0) or a label from it"
        }
    }

    @Test func aFileThatIsNotAChip() {
        #expect {
            _ = try GPIOMotorLine(chip: "/dev/null", line: .offset(0), activeLow: false, consumer: "wristcore-test")
        } throws: { error in
            (error as? HALError)?.reason == "no GPIO chip '/dev/null'"
        }
    }

    @Test func permissionWording() {
        let e = GPIOLineError.chipOpenFailed("gpiochip0", line: .offset(4), errno: .permissionDenied)
        #expect(e.reason == "permission denied opening GPIO chip 'gpiochip0'")
        #expect(e.hint?.contains("'gpio' group") == true)
    }

    @Test func missingLineWording() {
        let named = GPIOLineError.noSuchName("GPIO99", chip: "pinctrl-bcm2835", chipName: "gpiochip0", chipLabel: "pinctrl-bcm2835", lineCount: 54)
        #expect(named.description == "request GPIO line 'GPIO99' of chip 'pinctrl-bcm2835': chip gpiochip0 [pinctrl-bcm2835] has no line named 'GPIO99'; "
            + "'gpioinfo gpiochip0' lists the names of its lines (0-53); or give the line's offset")
        let offset = GPIOLineError.noSuchOffset(60, chip: "gpiochip0", chipName: "gpiochip0", chipLabel: "pinctrl-bcm2835", lineCount: 54)
        #expect(offset.reason == "chip gpiochip0 [pinctrl-bcm2835] has no line 60; it has lines 0-53")
        #expect(offset.errno == EINVAL)
    }

    @Test func busyLineWording() {
        let e = GPIOLineError.requestFailed(.offset(17), offset: 17, chip: "gpiochip0", chipName: "gpiochip0", direction: "input",
                                            errno: .busy, consumer: "foo")
        #expect(e.description == "request GPIO line 17 of chip 'gpiochip0' as input: line 17 of gpiochip0 is already used by 'foo'; "
            + "stop that program or pick another line ('gpioinfo gpiochip0' shows who uses which line)")
        let byName = GPIOLineError.requestFailed(.name("GPIO17"), offset: 17, chip: "gpiochip0", chipName: "gpiochip0",
                                                 direction: "output", errno: .busy, consumer: "")
        #expect(byName.reason == "line 17 ('GPIO17') of gpiochip0 is already used by another program or a kernel driver")
    }

    @Test func apiVersionIsKnown() {
        #expect([1, 2].contains(GPIOChip.libgpiodAPIVersion))
    }
}
