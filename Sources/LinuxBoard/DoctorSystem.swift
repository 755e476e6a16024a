import BoardConfig
import HAL
import LinuxHAL

/// The machine as the doctor sees it.
public protocol DoctorSystem: AnyObject {
    func deviceAccess(_ path: String) -> SystemProbe.Access
    func exists(_ path: String) -> Bool
    /// nil when a device answered at `address` on the bus at `path`.
    func probeI2C(path: String, address: UInt8) -> HALError?
    func gpioLine(chip: String, line: LineSelector) -> GPIOLineStatus
    /// The GPIO chips there are ("gpiochip0 [pinctrl-bcm2835]"), in /dev order.
    func gpioChips() -> [String]
    /// The I2C buses there are ("/dev/i2c-1").
    func i2cBuses() -> [String]
    func bluetoothAdapter(hciIndex: Int) -> BluetoothAdapterStatus
    func isProcessRunning(_ command: String) -> Bool
    var isRoot: Bool { get }
    /// CapEff from /proc/self/status.
    var effectiveCapabilities: UInt64? { get }
    func isWritableDirectory(_ path: String) -> Bool
    /// Why files may not safely be written into `path` (group/world-writable,
    /// another user's), nil when fine.
    func stateDirectoryProblem(_ path: String) -> HALError?
    /// Creates, writes, fsyncs and removes a small file in `path` as this user; nil when that worked.
    func probeWrite(_ path: String) -> HALError?
    /// Bytes this user may still write on the filesystem holding `path`.
    func availableBytes(_ path: String) -> UInt64?
    /// Owner and mode of `path`, nil when missing.
    func owner(_ path: String) -> FileOwner?
    /// "wristcore (uid 999)".
    func userName(_ uid: UInt32) -> String
    /// One reading of the board's battery gauge, or why it failed.
    func readBattery(_ wiring: BatteryWiring) -> Result<BatteryReading, HALError>
    /// What a running watch wrote of itself (`RunningWatchStatus` at
    /// `path`): nil when there is no file, or why it could not be read.
    func runningWatch(_ path: String) -> Result<RunningWatchStatus.Report?, HALError>
    /// Whether process `pid` runs.
    func isRunning(pid: Int32) -> Bool
}

public enum GPIOLineStatus: Equatable, Sendable {
    case free(offset: Int, name: String, chip: String, label: String)
    case used(offset: Int, consumer: String, chip: String, label: String)
    case noSuchLine(chip: String, label: String)
    case chipError(HALError)
}

public enum BluetoothAdapterStatus: Equatable, Sendable {
    case noKernelSupport
    case missing
    case present(address: BluetoothAddress, lowEnergy: Bool)
    case unknown(String)
}
