import CLinux
import HAL

/// One device's 16-bit registers on a Linux I2C bus, through i2c-dev and
/// libi2c's SMBus "read word data" (which the smallest adapters and the
/// kernel's i2c-stub support too). SMBus puts a word's low byte first on the
/// wire; fuel gauges send the high byte first, so the word is swapped back.
public final class I2CRegisterDevice: I2CRegisters {
    public let path: String
    public let address: UInt8
    public let location: String
    private let system: any I2CSystemCalls
    private let fd: Int32

    /// Opens `/dev/i2c-<bus>` and selects `address`. A kernel driver bound to
    /// the address (EBUSY) is reported with what to do instead.
    public init(bus: Int, address: UInt8, system: any I2CSystemCalls = LinuxI2CSystemCalls()) throws(HALError) {
        precondition(address >= 0x03 && address <= 0x77, "I2C address 0x\(String(address, radix: 16)) is reserved")
        path = I2CDevice.path(bus: bus)
        self.address = address
        self.system = system
        location = "0x" + String(address, radix: 16, uppercase: true) + " on " + path
        let fd: Int32
        do { fd = try system.open(path) } catch { throw I2CErrorHints.open(error, path: path) }
        do {
            try system.setAddress(fd, address)
        } catch {
            system.close(fd)
            if error.rawValue == EBUSY {
                throw error.halError(
                    "select \(location)",
                    hint: "a kernel driver already owns this fuel gauge (for example max17040_battery): read it through "
                        + "the kernel instead, with \"battery\": {\"gauge\": \"power-supply\"}")
            }
            throw I2CErrorHints.transfer(error, operation: "select \(location)", path: path, address: address)
        }
        self.fd = fd
    }

    deinit { system.close(fd) }

    public func readRegister(_ register: UInt8) throws(HALError) -> UInt16 {
        let word: UInt16
        do { word = try system.smbusReadWord(fd, command: register) } catch {
            throw HALError(operation: "read register 0x\(String(register, radix: 16)) of \(location)", errno: error.rawValue,
                           reason: error.description,
                           hint: "check the fuel gauge's wiring and address (`i2cdetect -y \(path.dropFirst(9))`)")
        }
        return word.byteSwapped
    }
}
