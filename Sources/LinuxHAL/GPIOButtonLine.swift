import CGPIOD
import CLinux
import HAL

/// The bias (internal pull resistor) a button's input line is requested with.
public enum GPIOBias: Sendable, Equatable, CaseIterable {
    /// Leave whatever the firmware / device tree configured.
    case asIs
    case disabled
    case pullUp
    case pullDown

    var shimValue: Int32 {
        switch self {
        case .asIs: Int32(WC_BIAS_AS_IS.rawValue)
        case .disabled: Int32(WC_BIAS_DISABLED.rawValue)
        case .pullUp: Int32(WC_BIAS_PULL_UP.rawValue)
        case .pullDown: Int32(WC_BIAS_PULL_DOWN.rawValue)
        }
    }
}

/// A button on a GPIO input line (libgpiod, v1 or v2; see CGPIOD/shim.h):
/// both-edge events with bias and active-low, read without blocking.
///
/// The run loop watches `pollDescriptor` and drains `readEdge()` until it
/// returns nil. Edges carry the kernel's CLOCK_MONOTONIC timestamps (libgpiod
/// v2's default; uAPI v1 since Linux 5.7), so software debouncing judges
/// bounces by when they happened, not when they were read.
///
/// With libgpiod v2 a `debounce` period is handed to the kernel
/// (`kernelDebounce` tells whether it took); give the gesture recognizer zero
/// software debounce then. v1 has no kernel debounce.
public final class GPIOButtonLine: ButtonLine {
    /// The descriptor that becomes readable when edges are pending (-1 once released).
    public private(set) var pollDescriptor: Int32
    /// True when the kernel debounces this line (libgpiod v2 with a debounce period).
    public let kernelDebounce: Bool
    public var kernelDebounceActive: Bool { kernelDebounce }
    /// Never called: a GPIO line's edges arrive through `pollDescriptor`.
    public var edgesQueued: (() -> Void)?
    /// Where the line is, as the kernel names it (for logs and the doctor).
    public let chipName: String
    public let chipLabel: String
    public let offset: Int

    private var target: GPIOLineTarget?
    private var request: UnsafeMutablePointer<wc_gpio_request>?
    private let lineDescription: String

    /// Requests the line for both-edge events.
    /// - Parameters:
    ///   - chip: a path (/dev/gpiochip0), name (gpiochip0) or label (pinctrl-rp1).
    ///   - debounce: asked of the kernel where the library can (v2); nil or zero: none.
    ///   - consumer: the name `gpioinfo` shows as the line's user.
    public init(chip: String, line: GPIOLineID, activeLow: Bool, bias: GPIOBias = .asIs, debounce: Duration? = nil,
                consumer: String) throws(HALError) {
        let target = try GPIOLineTarget(chip: chip, line: line)
        let debounceMicroseconds = UInt(clamping: max(0, (debounce ?? .zero).nanosecondsClamped / 1_000))
        guard let request = consumer.withCString({
            wc_gpio_request_input(target.chip, target.offset, $0, activeLow, bias.shimValue, debounceMicroseconds)
        }) else {
            throw target.requestError(as: "input")
        }
        let fd = wc_gpio_request_fd(request)
        let flags = wc_fcntl(fd, F_GETFL)
        if fd < 0 || flags < 0 || wc_fcntl_int(fd, F_SETFL, flags | O_NONBLOCK) < 0 {
            let error = Errno.current.halError("make the event descriptor of \(target.lineDescription) non-blocking")
            wc_gpio_request_release(request)
            throw error
        }
        kernelDebounce = debounceMicroseconds > 0 && wc_gpio_request_debounce_us(target.chip, request) > 0
        pollDescriptor = fd
        chipName = target.chipName
        chipLabel = target.chipLabel
        offset = Int(target.offset)
        lineDescription = target.lineDescription
        self.request = request
        self.target = consume target
    }

    deinit { release() }

    public func readEdge() throws(HALError) -> LineEdge? {
        guard let request else { return nil }
        var rising = false
        var timestamp: UInt64 = 0
        while true {
            let r = wc_gpio_request_read_event(request, &rising, &timestamp)
            if r > 0 { return LineEdge(active: rising, timestamp: MonotonicInstant(nanoseconds: timestamp)) }
            if r == 0 { return nil }
            let e = Errno.current
            if e == .wouldBlock { return nil }
            if e == .interrupted { continue }
            throw e.halError("read an edge of \(lineDescription)")
        }
    }

    public func isActive() throws(HALError) -> Bool {
        guard let request else {
            throw HALError(operation: "read \(lineDescription)", errno: EBADF, reason: "the line was released")
        }
        let v = wc_gpio_request_get_value(request)
        if v < 0 { throw Errno.current.halError("read \(lineDescription)") }
        return v == 1
    }

    public func release() {
        if let request {
            wc_gpio_request_release(request)
            self.request = nil
        }
        target = nil
        pollDescriptor = -1
    }
}
