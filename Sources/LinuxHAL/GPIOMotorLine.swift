import CGPIOD
import CLinux
import HAL

/// The vibration motor's GPIO output line (libgpiod, v1 or v2).
///
/// Requested inactive, so the motor never starts by being opened. `release()`
/// (and `deinit`) drive it inactive before handing it back to the kernel:
/// after release the kernel keeps the last value on most drivers, so the
/// line must already be off. After release, `setActive(false)` is a no-op and
/// `setActive(true)` fails.
public final class GPIOMotorLine: MotorLine {
    public let chipName: String
    public let chipLabel: String
    public let offset: Int

    private var target: GPIOLineTarget?
    private var request: UnsafeMutablePointer<wc_gpio_request>?
    private let lineDescription: String

    /// - Parameters:
    ///   - chip: a path (/dev/gpiochip0), name (gpiochip0) or label (pinctrl-rp1).
    ///   - activeLow: true when the driver transistor switches on with a low level.
    ///   - consumer: the name `gpioinfo` shows as the line's user.
    public init(chip: String, line: GPIOLineID, activeLow: Bool, consumer: String) throws(HALError) {
        let target = try GPIOLineTarget(chip: chip, line: line)
        guard let request = consumer.withCString({ wc_gpio_request_output(target.chip, target.offset, $0, activeLow, 0) }) else {
            throw target.requestError(as: "output")
        }
        chipName = target.chipName
        chipLabel = target.chipLabel
        offset = Int(target.offset)
        lineDescription = target.lineDescription
        self.request = request
        self.target = consume target
    }

    deinit { release() }

    public func setActive(_ on: Bool) throws(HALError) {
        guard let request else {
            if !on { return }  // released lines are already inactive
            throw HALError(operation: "switch on \(lineDescription)", errno: EBADF, reason: "the line was released")
        }
        if wc_gpio_request_set_value(request, on ? 1 : 0) != 0 {
            throw Errno.current.halError("switch \(on ? "on" : "off") \(lineDescription)")
        }
    }

    public func release() {
        if let request {
            _ = wc_gpio_request_set_value(request, 0)
            wc_gpio_request_release(request)
            self.request = nil
        }
        target = nil
    }
}
