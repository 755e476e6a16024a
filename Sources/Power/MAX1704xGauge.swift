import HAL

/// A Maxim MAX17048/MAX17049 or MAX17043/MAX17044 fuel gauge, read directly
/// over I2C (address 0x36): the LiPo fuel-gauge boards makers put on a watch
/// (Adafruit 5580, SparkFun "LiPo Fuel Gauge", many ESP32 boards) when no
/// kernel driver is loaded for them.
///
/// Registers (datasheets, "Register Summary"), 16 bits, high byte first:
/// - VCELL 0x02: the cell voltage; MAX17048: 78.125 µV per bit, MAX17043:
///   the top 12 bits, 1.25 mV per bit;
/// - SOC 0x04: state of charge, the high byte in %, the low byte in 1/256 %;
/// - VERSION 0x08: 0x001x on a MAX17048/9 (read once, to tell a wrong chip
///   or an empty address early);
/// - CRATE 0x16 (MAX17048 only): the charge rate, signed, 0.208 %/hour per
///   bit; above +1 %/hour the cell is charging.
/// The MAX17043 has no CRATE: there, a state of charge that rose since the
/// last reading means charging.
public final class MAX1704xGauge: BatteryGauge {
    public enum Chip: String, Sendable, Equatable {
        case max17048, max17043

        var name: String { self == .max17048 ? "MAX17048" : "MAX17043" }
    }

    public enum Register {
        public static let vcell: UInt8 = 0x02
        public static let soc: UInt8 = 0x04
        public static let version: UInt8 = 0x08
        public static let crate: UInt8 = 0x16
    }

    /// CRATE above this many bits (≈ 1 %/hour) means charging.
    static let chargingRateBits: Int16 = 5

    public let chip: Chip
    public let location: String
    private let registers: any I2CRegisters
    /// The last state of charge in 1/256 %, for the MAX17043's charging guess.
    private var lastSOC: Int?

    /// Checks that the chip answers (its VERSION register) before use.
    public init(chip: Chip, registers: any I2CRegisters) throws(HALError) {
        self.chip = chip
        self.registers = registers
        location = chip.name + " at " + registers.location
        let version = try registers.readRegister(Register.version)
        if chip == .max17048 && version & 0xFFF0 != 0x0010 {
            throw HALError(
                operation: "identify the \(location)", errno: 0,
                reason: "VERSION reads 0x\(String(version, radix: 16)), not a MAX17048 (0x001x)",
                hint: "a MAX17043/MAX17044 is \"gauge\": \"max17043\"; another chip at this address needs its kernel driver and \"gauge\": \"power-supply\"")
        }
    }

    public func read() throws(HALError) -> BatteryReading {
        let soc = Int(try registers.readRegister(Register.soc))
        let vcell = Int(try registers.readRegister(Register.vcell))
        let millivolts: Int
        let charging: Bool
        switch chip {
        case .max17048:
            millivolts = vcell * 5 / 64  // 78.125 µV = 5/64 mV: no 32-bit overflow on armhf
            let rate = Int16(bitPattern: try registers.readRegister(Register.crate))
            charging = rate > Self.chargingRateBits
        case .max17043:
            millivolts = (vcell >> 4) * 125 / 100
            charging = lastSOC.map { soc > $0 } ?? false
        }
        lastSOC = soc
        // Rounded to whole percent; the MAX17048 may report a little over 100 when full.
        return BatteryReading(percent: (soc + 128) >> 8, charging: charging, millivolts: millivolts)
    }
}
