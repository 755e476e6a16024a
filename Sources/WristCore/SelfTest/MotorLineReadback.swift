import HAL
import SimBoard

/// A motor line that can tell the level it drives, so `--quick` can read the
/// pulse back. The simulated line can; a libgpiod output request is not read
/// back (the wearer feels the pulse in the interactive test instead).
protocol MotorLineReadback: AnyObject {
    /// True while the line is driven active (motor on).
    var drivenActive: Bool { get }
}

extension SimulatedMotorLine: MotorLineReadback {
    var drivenActive: Bool { isActive }
}
