import CGPIOD
import CLinux
import HAL

/// Which line of a GPIO chip: its offset, or the name the kernel (device
/// tree, gpio-sim) gives it, such as "GPIO17".
public enum GPIOLineID: Sendable, Equatable, Hashable, CustomStringConvertible {
    case offset(Int)
    case name(String)

    public var description: String {
        switch self {
        case .offset(let o): "line \(o)"
        case .name(let n): "line '\(n)'"
        }
    }
}

/// A chip opened for one line request, with the line resolved to an offset.
///
/// Shared by the button and motor lines: it keeps the chip open as long as
/// the request lives (libgpiod v1 ties a request to its chip), and words every
/// failure through `GPIOLineError`. Not copyable: the chip is closed exactly once.
struct GPIOLineTarget: ~Copyable {
    let chip: OpaquePointer
    /// The chip as the board file names it, and as the kernel does.
    let chipArgument: String
    let chipName: String
    let chipLabel: String
    let lineCount: Int
    let offset: UInt32
    let line: GPIOLineID

    init(chip descriptor: String, line: GPIOLineID) throws(HALError) {
        guard let c = wc_gpio_chip_open(descriptor) else {
            throw GPIOLineError.chipOpenFailed(descriptor, line: line, errno: Errno.current)
        }
        var nameBuffer = [CChar](repeating: 0, count: 64)
        var labelBuffer = [CChar](repeating: 0, count: 64)
        let count = Int(wc_gpio_chip_info(c, &nameBuffer, 64, &labelBuffer, 64))
        let name = Self.string(nameBuffer)
        let label = Self.string(labelBuffer)
        let resolved: Int
        switch line {
        case .offset(let o):
            guard o >= 0 && o < count else {
                wc_gpio_chip_close(c)
                throw GPIOLineError.noSuchOffset(o, chip: descriptor, chipName: name, chipLabel: label, lineCount: count)
            }
            resolved = o
        case .name(let lineName):
            let r = lineName.withCString { wc_gpio_chip_find_line(c, $0) }
            guard r >= 0 else {
                wc_gpio_chip_close(c)
                throw GPIOLineError.noSuchName(lineName, chip: descriptor, chipName: name, chipLabel: label, lineCount: count)
            }
            resolved = Int(r)
        }
        chip = c
        chipArgument = descriptor
        chipName = name
        chipLabel = label
        lineCount = count
        offset = UInt32(resolved)
        self.line = line
    }

    deinit { wc_gpio_chip_close(chip) }

    /// "line 17 of gpiochip0", or "line 17 ('GPIO17') of gpiochip0" when the board named it.
    var lineDescription: String { GPIOLineError.describe(line: line, offset: Int(offset), chipName: chipName) }

    /// The error for a failed line request, while errno is still current;
    /// for a busy line it asks the kernel who holds it.
    func requestError(as direction: String) -> HALError {
        let e = Errno.current
        var consumer = ""
        if e == .busy {
            var nameBuffer = [CChar](repeating: 0, count: 64)
            var consumerBuffer = [CChar](repeating: 0, count: 64)
            var used = false
            if wc_gpio_line_info(chip, offset, &nameBuffer, 64, &used, &consumerBuffer, 64) == 0 {
                consumer = Self.string(consumerBuffer)
            }
        }
        return GPIOLineError.requestFailed(
            line, offset: Int(offset), chip: chipArgument, chipName: chipName, direction: direction, errno: e, consumer: consumer)
    }

    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The wording of GPIO line failures: what is wrong, naming the chip and the
/// line, and how to fix it. Pure functions, so the wording is unit-tested
/// without hardware.
enum GPIOLineError {
    static func operation(_ line: GPIOLineID, chip: String) -> String { "request GPIO \(line) of chip '\(chip)'" }

    static func chipOpenFailed(_ chip: String, line: GPIOLineID, errno e: Errno) -> HALError {
        if e == .permissionDenied {
            return HALError(
                operation: operation(line, chip: chip), errno: e.rawValue, reason: "permission denied opening GPIO chip '\(chip)'",
                hint: "add your user to the 'gpio' group (sudo usermod -aG gpio $USER, then log in again) or run as root")
        }
        return HALError(
            operation: operation(line, chip: chip), errno: e.rawValue == 0 ? ENOENT : e.rawValue, reason: "no GPIO chip '\(chip)'",
            hint: "gpiodetect lists them; use a path (/dev/gpiochip0), a name (gpiochip0) or a label from it")
    }

    static func noSuchOffset(_ offset: Int, chip: String, chipName: String, chipLabel: String, lineCount: Int) -> HALError {
        HALError(
            operation: operation(.offset(offset), chip: chip), errno: EINVAL,
            reason: "chip \(chipName) [\(chipLabel)] has no line \(offset); it has lines 0-\(max(lineCount - 1, 0))",
            hint: "'gpioinfo \(chipName)' lists them")
    }

    static func noSuchName(_ name: String, chip: String, chipName: String, chipLabel: String, lineCount: Int) -> HALError {
        HALError(
            operation: operation(.name(name), chip: chip), errno: ENOENT,
            reason: "chip \(chipName) [\(chipLabel)] has no line named '\(name)'",
            hint: "'gpioinfo \(chipName)' lists the names of its lines (0-\(max(lineCount - 1, 0))); or give the line's offset")
    }

    static func describe(line: GPIOLineID, offset: Int, chipName: String) -> String {
        switch line {
        case .offset: "line \(offset) of \(chipName)"
        case .name(let n): "line \(offset) ('\(n)') of \(chipName)"
        }
    }

    /// `consumer`: who holds a busy line, as the kernel reports it ("" if unknown).
    static func requestFailed(_ line: GPIOLineID, offset: Int, chip: String, chipName: String, direction: String, errno e: Errno,
                              consumer: String) -> HALError {
        let op = operation(line, chip: chip) + " as \(direction)"
        let what = describe(line: line, offset: offset, chipName: chipName)
        switch e {
        case .busy:
            let by = consumer.isEmpty ? "another program or a kernel driver" : "'\(consumer)'"
            return HALError(
                operation: op, errno: e.rawValue, reason: "\(what) is already used by \(by)",
                hint: "stop that program or pick another line ('gpioinfo \(chipName)' shows who uses which line)")
        case .permissionDenied:
            return e.halError(op, hint: "add your user to the 'gpio' group or run as root")
        default:
            return e.halError(op)
        }
    }
}
