import BoardConfig
import LinuxHAL

/// The board file's line names and biases in LinuxHAL's terms.
extension LineSelector {
    /// The same line in the HAL's terms.
    public var gpioLineID: GPIOLineID {
        switch self {
        case .offset(let o): .offset(o)
        case .name(let n): .name(n)
        }
    }
}

extension LineBias {
    var gpioBias: GPIOBias {
        switch self {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .disabled: .disabled
        case .asIs: .asIs
        }
    }
}
