import HAL
import LinuxHAL
import SimBoard

/// A real button's line with software presses beside it: the GPIO line's
/// edges come through its descriptor, pushed ones through `edgesQueued`;
/// both are drained by the same `readEdge()`.
final class GPIOButtonWithSoftwarePresses: ButtonLine {
    let gpio: GPIOButtonLine
    let software: SimulatedButtonLine

    init(gpio: GPIOButtonLine, software: SimulatedButtonLine) {
        self.gpio = gpio
        self.software = software
    }

    var pollDescriptor: Int32 { gpio.pollDescriptor }
    var kernelDebounceActive: Bool { gpio.kernelDebounceActive }
    var edgesQueued: (() -> Void)? {
        get { software.edgesQueued }
        set { software.edgesQueued = newValue }
    }

    func readEdge() throws(HALError) -> LineEdge? {
        if let edge = try gpio.readEdge() { return edge }
        return try software.readEdge()
    }

    func isActive() throws(HALError) -> Bool {
        if try gpio.isActive() { return true }
        return try software.isActive()
    }

    func release() {
        gpio.release()
        software.release()
    }
}
