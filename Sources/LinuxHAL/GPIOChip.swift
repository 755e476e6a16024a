import CGPIOD
import CLinux
import HAL

/// An open GPIO chip (libgpiod; v1 or v2 underneath, see CGPIOD/shim.h).
/// Not copyable: closed exactly once.
public struct GPIOChip: ~Copyable {
    private let chip: OpaquePointer
    /// Kernel name (gpiochip0), label (pinctrl-bcm2835) and line count.
    public let name: String
    public let label: String
    public let lineCount: Int

    /// The libgpiod API generation this build was compiled against (1 or 2).
    public static var libgpiodAPIVersion: Int { Int(wc_gpiod_api_version()) }

    /// Opens a chip by path (/dev/gpiochip0), name (gpiochip0) or label (pinctrl-rp1).
    public init(_ descriptor: String) throws(HALError) {
        guard let c = wc_gpio_chip_open(descriptor) else {
            let e = Errno.current
            let hint: String
            switch e {
            case .permissionDenied:
                hint = "add your user to the 'gpio' group (sudo usermod -aG gpio $USER, then log in again) or run as root"
            default:
                hint = "list the chips with 'gpiodetect' (package gpiod) and use a path, name or label from it"
            }
            throw e.halError("open GPIO chip \"\(descriptor)\"", hint: hint)
        }
        chip = c
        var nameBuf = [CChar](repeating: 0, count: 64)
        var labelBuf = [CChar](repeating: 0, count: 64)
        lineCount = Int(wc_gpio_chip_info(c, &nameBuf, 64, &labelBuf, 64))
        name = String(decoding: nameBuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        label = String(decoding: labelBuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { wc_gpio_chip_close(chip) }

    /// The offset of the line with this name, or nil.
    public func offset(ofLineNamed lineName: String) -> Int? {
        let r = wc_gpio_chip_find_line(chip, lineName)
        return r >= 0 ? Int(r) : nil
    }

    /// What the kernel says about a line: its name, and whether (and by whom) it is used.
    public struct LineInfo: Equatable, Sendable {
        public var name: String
        public var used: Bool
        public var consumer: String
    }

    public func lineInfo(_ offset: Int) throws(HALError) -> LineInfo {
        guard offset >= 0 && offset < lineCount else {
            throw HALError(operation: "line \(offset) of \(name) (\(label))", errno: EINVAL, reason: "no such line",
                           hint: "the chip has lines 0-\(lineCount - 1); 'gpioinfo \(name)' lists them")
        }
        var nameBuf = [CChar](repeating: 0, count: 64)
        var consumerBuf = [CChar](repeating: 0, count: 64)
        var used = false
        if wc_gpio_line_info(chip, UInt32(offset), &nameBuf, 64, &used, &consumerBuf, 64) != 0 {
            throw Errno.current.halError("read info of line \(offset) of \(name)")
        }
        func str(_ b: [CChar]) -> String { String(decoding: b.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return LineInfo(name: str(nameBuf), used: used, consumer: str(consumerBuf))
    }
}
