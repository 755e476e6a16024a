import Glibc
import HAL
import LinuxHAL
import Loop
import Power
import SimBoard
import Testing

/// A MAX17043's registers (no CRATE, VERSION 0x0003), as the datasheet gives them.
final class MAX17043Registers: I2CRegisters {
    let location = "0x36 on a test bus"
    var soc: UInt16 = 0x3280  // 50.5 %
    var vcell: UInt16 = 0xC800  // 0xC80 = 3200 steps of 1.25 mV = 4.000 V
    func readRegister(_ register: UInt8) throws(HALError) -> UInt16 {
        switch register {
        case 0x02: return vcell
        case 0x04: return soc
        case 0x08: return 0x0003
        default: throw HALError(operation: "read 0x\(String(register, radix: 16))", errno: 6, reason: "no register")
        }
    }
}

@Suite struct MAX1704xGaugeTests {
    @Test func max17048ReadsChargeVoltageAndChargingFromItsRegisters() throws {
        let registers = EmulatedFuelGauge()
        let gauge = try MAX1704xGauge(chip: .max17048, registers: registers)
        registers.set(percent: 42, charging: false)
        var r = try gauge.read()
        #expect(r.percent == 42)
        #expect(!r.charging)
        // 3.3 V + 42 × 9 mV = 3.678 V, in 78.125 µV steps (rounded down to the step).
        #expect(r.millivolts == 3677 || r.millivolts == 3678)
        registers.set(percent: 43, charging: true)
        r = try gauge.read()
        #expect(r.percent == 43)
        #expect(r.charging)
        #expect(gauge.location == "MAX17048 at 0x36 on the emulated I2C bus")
    }

    @Test func max17048RefusesAChipWhoseVersionIsNotAMAX17048() {
        let registers = MAX17043Registers()
        #expect(throws: HALError.self) { try MAX1704xGauge(chip: .max17048, registers: registers) }
        do {
            _ = try MAX1704xGauge(chip: .max17048, registers: registers)
        } catch {
            #expect(error.description.contains("not a MAX17048"))
            #expect(error.description.contains("max17043"))
        }
    }

    @Test func max17043ScalesItsTwelveBitVoltageAndGuessesChargingFromARisingCharge() throws {
        let registers = MAX17043Registers()
        let gauge = try MAX1704xGauge(chip: .max17043, registers: registers)
        var r = try gauge.read()
        #expect(r.percent == 51)  // 50.5 % rounds up
        #expect(r.millivolts == 4000)
        #expect(!r.charging)  // no earlier reading
        registers.soc = 0x3300
        r = try gauge.read()
        #expect(r.charging)
        registers.soc = 0x3200
        r = try gauge.read()
        #expect(!r.charging)
    }

    @Test func aChargeOverAHundredPercentReadsAsAHundred() throws {
        let registers = MAX17043Registers()
        registers.soc = 0x6500  // 101 %
        let gauge = try MAX1704xGauge(chip: .max17043, registers: registers)
        #expect(try gauge.read().percent == 100)
    }
}

@Suite struct BatteryMonitorTests {
    @Test func readsAtStartThenEveryIntervalAndReportsAFailureOnceThenTheRecovery() {
        let loop = ManualLoop()
        let registers = EmulatedFuelGauge()
        let gauge = try! MAX1704xGauge(chip: .max17048, registers: registers)
        let monitor = BatteryMonitor(gauge: gauge, loop: loop, interval: .seconds(120))
        var readings: [Int] = []
        var failures: [Bool] = []
        monitor.readingHandler = { readings.append($0.percent) }
        monitor.failureHandler = { failures.append($0 != nil) }
        registers.set(percent: 80, charging: false)
        monitor.start()
        #expect(readings == [80])
        registers.set(percent: 79, charging: false)
        loop.advance(by: .seconds(119))
        #expect(readings == [80])
        loop.advance(by: .seconds(1))
        #expect(readings == [80, 79])
        // Three failed readings in a row: reported once.
        for _ in 0..<3 {
            registers.failNextRead = HALError(operation: "read", errno: 5, reason: "I/O error")
            loop.advance(by: .seconds(120))
        }
        #expect(failures == [true])
        #expect(monitor.failures == 3)
        loop.advance(by: .seconds(120))
        #expect(failures == [true, false])
        #expect(readings == [80, 79, 79])
        // A week on the manual clock: one reading per interval, no more.
        let before = registers.reads
        loop.advance(by: .seconds(7 * 24 * 3600))
        #expect(registers.reads - before == 3 * 7 * 24 * 30)  // three registers per reading
        monitor.stop()
        loop.advance(by: .seconds(3600))
        #expect(registers.reads - before == 3 * 7 * 24 * 30)
    }
}

/// A fresh directory under /tmp, removed at deinit.
final class ScratchDirectory {
    let path: String
    init() {
        var template = Array("/tmp/wristcore-power-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    deinit { _ = system("rm -rf '\(path)'") }
    func write(_ name: String, _ text: String) { try! FileBytes.write(Array(text.utf8), to: path + "/" + name) }
}

@Suite struct PowerSupplyBatteryTests {
    @Test func readsCapacityStatusAndVoltageAnewOnEveryReading() throws {
        let dir = ScratchDirectory()
        dir.write("capacity", "57\n")
        dir.write("status", "Discharging\n")
        dir.write("voltage_now", "3812000\n")
        let battery = try PowerSupplyBattery(directory: dir.path)
        #expect(try battery.read() == BatteryReading(percent: 57, charging: false, millivolts: 3812))
        // Rewritten in place (sysfs gives a fresh value on every read at offset 0).
        dir.write("capacity", "58\n")
        dir.write("status", "Charging\n")
        #expect(try battery.read() == BatteryReading(percent: 58, charging: true, millivolts: 3812))
        dir.write("status", "Full\n")
        #expect(try battery.read().charging)
        dir.write("status", "Not charging\n")
        #expect(try battery.read().charging)
    }

    @Test func aSupplyWithoutStatusOrVoltageStillReads() throws {
        let dir = ScratchDirectory()
        dir.write("capacity", "9")
        let battery = try PowerSupplyBattery(directory: dir.path)
        #expect(try battery.read() == BatteryReading(percent: 9, charging: false, millivolts: nil))
    }

    @Test func aMissingCapacityNamesTheFileAndWhereToLook() {
        let dir = ScratchDirectory()
        do {
            _ = try PowerSupplyBattery(directory: dir.path)
            Issue.record("opened a supply without capacity")
        } catch {
            #expect(error.operation == "open \(dir.path)/capacity")
            #expect(error.description.contains("/sys/class/power_supply"))
        }
    }

    @Test func aCapacityThatIsNotAPercentageIsAnErrorNotALevel() throws {
        let dir = ScratchDirectory()
        dir.write("capacity", "250\n")
        let battery = try PowerSupplyBattery(directory: dir.path)
        #expect(throws: HALError.self) { try battery.read() }
        dir.write("capacity", "abc\n")
        #expect(throws: HALError.self) { try battery.read() }
    }

    @Test func aCapacityThatIsNotARegularFileIsRefused() {
        let dir = ScratchDirectory()
        mkfifo(dir.path + "/capacity", 0o600)
        #expect(throws: HALError.self) { try PowerSupplyBattery(directory: dir.path) }
    }
}

/// i2c-dev calls that answer SMBus word reads as the kernel does (low byte first).
final class WordI2C: I2CSystemCalls {
    var words: [UInt8: UInt16] = [:]
    var addressError: Errno?
    func open(_ path: String) throws(Errno) -> Int32 { 99 }
    func close(_ fd: Int32) {}
    func functionality(_ fd: Int32) throws(Errno) -> UInt64 { 0 }
    func setAddress(_ fd: Int32, _ address: UInt8) throws(Errno) { if let e = addressError { throw e } }
    func writeMessage(_ fd: Int32, address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno) {}
    func smbusWriteBlock(_ fd: Int32, command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno) {}
    func smbusReadWord(_ fd: Int32, command: UInt8) throws(Errno) -> UInt16 {
        guard let w = words[command] else { throw Errno(EIO) }
        return w
    }
}

@Suite struct I2CRegisterDeviceTests {
    @Test func swapsTheSMBusWordToTheChipsHighByteFirst() throws {
        let calls = WordI2C()
        calls.words[0x04] = 0x802A  // on the wire 0x2A then 0x80: 42.5 %
        let device = try I2CRegisterDevice(bus: 1, address: 0x36, system: calls)
        #expect(try device.readRegister(0x04) == 0x2A80)
        #expect(device.location == "0x36 on /dev/i2c-1")
        #expect(throws: HALError.self) { try device.readRegister(0x02) }
    }

    @Test func anAddressAKernelDriverOwnsSaysToUseThePowerSupply() {
        let calls = WordI2C()
        calls.addressError = Errno(EBUSY)
        do {
            _ = try I2CRegisterDevice(bus: 1, address: 0x36, system: calls)
            Issue.record("opened a busy address")
        } catch {
            #expect(error.description.contains("power-supply"))
        }
    }
}
