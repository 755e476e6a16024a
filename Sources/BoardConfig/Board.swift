import Graphics
import Display
import Haptics

/// What a board file describes: how the display, buttons, motor and Bluetooth
/// adapter of one watch are wired. Loaded and validated by `BoardLoader`.
public struct Board: Equatable, Sendable {
    public var name: String
    /// True for the simulated board: no device is opened.
    public var simulated: Bool
    public var display: DisplayWiring
    public var buttons: [ButtonWiring]
    public var motor: MotorWiring?
    /// The watch's battery, when it has a gauge the watch can read.
    public var battery: BatteryWiring?
    public var input: InputTiming
    public var bluetooth: BluetoothSettings
    /// Where it was loaded from ("built-in" for `--board sim` without a file).
    public var source: String
    /// Set the system clock from the phone's time while it is unsynchronised
    /// (a board without an RTC and without network; needs CAP_SYS_TIME).
    public var setSystemClock = false

    public func button(_ role: ButtonRole) -> ButtonWiring? { buttons.first { $0.role == role } }
}

public struct DisplayWiring: Equatable, Sendable {
    /// A family of the controller registry (`ControllerSpec.all`).
    public var controller: ControllerFamily
    public var bus: Int
    public var address: UInt8
    public var width: Int
    public var height: Int
    public var columnOffset: Int
    public var rotation: Int
    public var contrast: UInt8
    public var flip: Bool
    /// Display power: dim after this long without activity, off after that long.
    public var dimAfter: Duration = .seconds(15)
    public var offAfter: Duration = .seconds(30)
    /// The character device of the bus, e.g. /dev/i2c-1.
    public var devicePath: String { "/dev/i2c-\(bus)" }
}

public enum ButtonRole: String, CaseIterable, Sendable {
    case positive, negative, select, up, down, back
}

public enum LineBias: String, CaseIterable, Sendable {
    case pullUp = "pull-up", pullDown = "pull-down", disabled, asIs = "as-is"
}

/// A GPIO line: offset on its chip, or the name the kernel gives it.
public enum LineSelector: Equatable, Hashable, Sendable, CustomStringConvertible {
    case offset(Int)
    case name(String)
    public var description: String {
        switch self {
        case .offset(let o): "\(o)"
        case .name(let n): "\"\(n)\""
        }
    }
}

public struct ButtonWiring: Equatable, Sendable {
    public var role: ButtonRole
    /// A path (/dev/gpiochip0), name (gpiochip0) or label (pinctrl-rp1).
    public var chip: String
    public var line: LineSelector
    public var activeLow: Bool
    public var bias: LineBias
    /// Where it sits next to the panel (call and pairing labels are drawn
    /// over the button that performs them).
    public var position: ButtonCorner? = nil
}

public struct MotorWiring: Equatable, Sendable {
    public var chip: String
    public var line: LineSelector
    public var activeLow: Bool
    /// No vibration between these minutes of the day (may cross midnight).
    public var quietHours: (start: Int, end: Int)? = nil
    /// What vibrates how (the board file's `motor.vibrate`).
    public var policy: VibrationPolicy = .standard

    public static func == (a: Self, b: Self) -> Bool {
        a.chip == b.chip && a.line == b.line && a.activeLow == b.activeLow && a.quietHours?.start == b.quietHours?.start
            && a.quietHours?.end == b.quietHours?.end && a.policy == b.policy
    }
}

public struct InputTiming: Equatable, Sendable {
    public var debounce: Duration
    public var longPress: Duration
    public var doublePress: Duration
    public init(debounce: Duration, longPress: Duration, doublePress: Duration) {
        self.debounce = debounce
        self.longPress = longPress
        self.doublePress = doublePress
    }
    public static let defaults = InputTiming(debounce: .milliseconds(20), longPress: .milliseconds(600), doublePress: .milliseconds(300))
}

public struct BluetoothSettings: Equatable, Sendable {
    public var hciIndex: Int
    public var name: String
    /// How long the adapter may stay away (unplugged, powered off by another
    /// program) before the daemon exits for systemd to restart it.
    public var adapterLossTimeout: Duration = .seconds(120)
    /// The phone gone this long after the link was established: a short
    /// vibration and a notice (nil: never). `disconnectAlertSeconds`, default 10.
    public var disconnectAlert: Duration? = .seconds(10)
    /// Take the UART (Gadgetbridge, docs/android.md) only on an encrypted,
    /// bonded link: strangers in range cannot post notifications, and
    /// Gadgetbridge must "Pair". `uartRequiresEncryption`, default false.
    public var uartRequiresEncryption = false
    public static let defaults = BluetoothSettings(hciIndex: 0, name: "WristCore")
}

/// The watch's battery (`battery` in the board file): where its level is
/// read, and what the watch does when it runs low.
public struct BatteryWiring: Equatable, Sendable {
    public enum Gauge: Equatable, Sendable {
        /// Linux's power-supply class (`/sys/class/power_supply/NAME`): any
        /// fuel gauge or UPS HAT with a kernel driver. nil: the first supply
        /// of type Battery.
        case powerSupply(name: String?)
        /// A MAX17048/MAX17049 read directly over i2c-dev.
        case max17048(bus: Int, address: UInt8)
        /// A MAX17043/MAX17044 read directly over i2c-dev.
        case max17043(bus: Int, address: UInt8)
    }

    /// What the board file's `battery.gauge` names.
    public enum Kind: String, CaseIterable, Sendable {
        case powerSupply = "power-supply", max17048, max17043
    }

    public var gauge: Gauge
    /// At or below this (and not charging): a notice and a pulse, once.
    public var lowPercent = 15
    /// At or below this (and not charging): the watch powers the board off cleanly.
    public var criticalPercent = 5
    /// Power the board off at `criticalPercent` (`systemctl poweroff`);
    /// false: only say so (a bench supply, a board that cuts power itself).
    public var powerOffWhenCritical = true
    /// How often the gauge is read (`intervalSeconds`, default 120): the
    /// only wake-up a battery adds to an idle watch.
    public var interval: Duration = .seconds(120)

    public init(gauge: Gauge) { self.gauge = gauge }
}
