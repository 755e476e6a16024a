import HAL

/// A MAX17048 fuel gauge at 0x36 on the simulated board's I2C bus, as
/// registers: the simulated board's battery runs the same `MAX1704xGauge`
/// code as a real one, and the harness (`battery`) or a test sets its charge.
public final class EmulatedFuelGauge: I2CRegisters {
    public let address: UInt8
    public let location: String
    /// State of charge in 1/256 %.
    public private(set) var stateOfCharge = 80 << 8
    /// The cell voltage in 78.125 µV steps (5/64 mV: 64 steps are 5 mV,
    /// which keeps the arithmetic in 32 bits on armhf).
    public private(set) var cellVoltage = 3_900 * 64 / 5
    /// CRATE: 0.208 %/hour per bit, signed.
    public private(set) var chargeRate: Int16 = -20
    /// Reads the gauge served.
    public private(set) var reads = 0
    /// When set, the next read fails with this error (and clears it).
    public var failNextRead: HALError?

    public init(address: UInt8 = 0x36, bus: String = "the emulated I2C bus") {
        self.address = address
        location = "0x" + String(address, radix: 16, uppercase: true) + " on " + bus
    }

    /// Sets the charge (0-100 %) and whether a charger is plugged in; the
    /// voltage follows a LiPo's curve roughly (3.3 V empty, 4.2 V full).
    public func set(percent: Int, charging: Bool) {
        let p = min(max(percent, 0), 100)
        stateOfCharge = p << 8
        cellVoltage = (3_300 + p * 9) * 64 / 5
        chargeRate = charging ? 100 : -20
    }

    public func readRegister(_ register: UInt8) throws(HALError) -> UInt16 {
        if let e = failNextRead {
            failNextRead = nil
            throw e
        }
        reads += 1
        switch register {
        case 0x02: return UInt16(truncatingIfNeeded: cellVoltage)
        case 0x04: return UInt16(truncatingIfNeeded: stateOfCharge)
        case 0x06: return 0  // MODE
        case 0x08: return 0x0012  // VERSION of a MAX17048
        case 0x0C: return 0x971C  // CONFIG's power-on value
        case 0x16: return UInt16(bitPattern: chargeRate)
        default:
            throw HALError(operation: "read register 0x\(String(register, radix: 16)) of \(location)", errno: 6,
                           reason: "No such device or address", hint: "the emulated MAX17048 has no such register")
        }
    }
}
