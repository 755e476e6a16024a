/// The watch's own battery as its gauge reports it.
public struct BatteryReading: Equatable, Sendable {
    /// State of charge, 0...100.
    public var percent: Int
    /// On external power (charging, or full and still plugged in).
    public var charging: Bool
    /// The cell's voltage, when the gauge reports it.
    public var millivolts: Int?

    public init(percent: Int, charging: Bool, millivolts: Int? = nil) {
        self.percent = min(max(percent, 0), 100)
        self.charging = charging
        self.millivolts = millivolts
    }
}

/// Something that reports the watch's battery: a Linux power supply
/// (`/sys/class/power_supply/NAME`, any fuel gauge or UPS HAT with a kernel
/// driver) or a fuel gauge read directly over I2C. Read now and then by the
/// battery monitor; a read may fail (a loose wire) and the next one is tried.
public protocol BatteryGauge: AnyObject {
    /// Where it reads from, for logs and `doctor` ("MAX17048 at 0x36 on /dev/i2c-1").
    var location: String { get }
    func read() throws(HALError) -> BatteryReading
}

/// The 16-bit registers of one I2C device, as SMBus word transfers: what a
/// fuel gauge needs. The Linux implementation talks to `/dev/i2c-N`; the
/// simulated board's to an emulated gauge.
public protocol I2CRegisters: AnyObject {
    /// "0x36 on /dev/i2c-1", for messages.
    var location: String { get }
    /// Reads a register; the value as the chip sends it, first byte high
    /// (big-endian, as MAX1704x and most gauges number their registers).
    func readRegister(_ register: UInt8) throws(HALError) -> UInt16
}
