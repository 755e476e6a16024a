import HAL

/// The simulated board's motor: an output line that only remembers its level
/// and tells a listener (the harness streams it). Implements the same
/// `MotorLine` protocol as the libgpiod line.
public final class SimulatedMotorLine: MotorLine {
    public private(set) var isActive = false
    public private(set) var released = false
    /// Called on every level change.
    public var changeHandler: ((Bool) -> Void)?
    /// Makes the next `setActive(true)` fail (error-path tests).
    public var failNextActivation: HALError?

    public init() {}

    public func setActive(_ on: Bool) throws(HALError) {
        if released {
            throw HALError(operation: "drive the simulated motor", errno: 9, reason: "line released")
        }
        if on, let e = failNextActivation {
            failNextActivation = nil
            throw e
        }
        guard on != isActive else { return }
        isActive = on
        changeHandler?(on)
    }

    public func release() {
        if isActive {
            isActive = false
            changeHandler?(false)
        }
        released = true
    }
}
