import Display
import Glibc
import Graphics
import HAL
import LinuxHAL
import SimBoard
import Testing

/// Scripted i2c-dev: records every call, fails where told.
final class FakeI2C: I2CSystemCalls {
    var openError: Int32?
    var funcs: UInt64 = 0x0000_0001 | 0x0800_0000
    var writeError: Int32?
    var calls: [String] = []
    var messages: [[UInt8]] = []
    var blocks: [(UInt8, [UInt8])] = []
    var closed: [Int32] = []

    func open(_ path: String) throws(Errno) -> Int32 {
        calls.append("open \(path)")
        if let e = openError { throw Errno(e) }
        return 42
    }
    func close(_ fd: Int32) { closed.append(fd) }
    func functionality(_ fd: Int32) throws(Errno) -> UInt64 { calls.append("funcs"); return funcs }
    func setAddress(_ fd: Int32, _ address: UInt8) throws(Errno) { calls.append("slave \(address)") }
    func writeMessage(_ fd: Int32, address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        if let e = writeError { throw Errno(e) }
        calls.append("rdwr \(address) \(bytes.count)")
        messages.append(Array(bytes))
    }
    func smbusWriteBlock(_ fd: Int32, command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        if let e = writeError { throw Errno(e) }
        #expect(bytes.count <= 32)
        blocks.append((command, Array(bytes)))
    }
}

@Suite("I2C transport")
struct I2CTransportTests {
    @Test("ENOENT says how to enable I2C on a Raspberry Pi")
    func missingBus() {
        let fake = FakeI2C()
        fake.openError = ENOENT
        do {
            _ = try I2CDevice(bus: 1, address: 0x3C, system: fake)
            Issue.record("opened a missing bus")
        } catch {
            #expect(error.errno == ENOENT)
            #expect(error.operation == "open /dev/i2c-1")
            #expect(error.hint?.contains("sudo raspi-config nonint do_i2c 0") == true)
            #expect(error.hint?.contains("dtparam=i2c_arm=on") == true)
            #expect(error.hint?.contains("/boot/firmware/config.txt") == true)
            #expect(error.description.contains("reboot"))
        }
    }

    @Test("EACCES names the i2c group and a udev rule")
    func permission() {
        let fake = FakeI2C()
        fake.openError = EACCES
        do {
            _ = try I2CDevice(bus: 1, address: 0x3C, system: fake)
            Issue.record("opened without permission")
        } catch {
            #expect(error.errno == EACCES)
            #expect(error.hint?.contains("usermod -aG i2c") == true)
            #expect(error.hint?.contains("udev") == true)
        }
    }

    @Test("no answer at the address: check the wiring and 0x3C vs 0x3D", arguments: [ENXIO, EREMOTEIO])
    func noAnswer(errno: Int32) throws {
        let fake = FakeI2C()
        let dev = try I2CDevice(bus: 1, address: 0x3C, system: fake)
        fake.writeError = errno
        do {
            try dev.write(.commands, [0xAE])
            Issue.record("write succeeded")
        } catch {
            #expect(error.errno == errno)
            #expect(error.operation == "write to 0x3C on /dev/i2c-1")
            #expect(error.hint?.contains("wiring") == true)
            #expect(error.hint?.contains("0x3C or 0x3D") == true)
            #expect(error.hint?.contains("i2cdetect -y 1") == true)
        }
    }

    @Test("the mapping names other failures too")
    func otherErrors() {
        let busy = I2CErrorHints.transfer(Errno(EBUSY), operation: "x", path: "/dev/i2c-1", address: 0x3D)
        #expect(busy.hint?.contains("dtoverlay=ssd1306") == true)
        let timeout = I2CErrorHints.transfer(Errno(ETIMEDOUT), operation: "x", path: "/dev/i2c-1", address: 0x3D)
        #expect(timeout.hint?.contains("pull-up") == true)
        let other = I2CErrorHints.transfer(Errno(ENXIO), operation: "x", path: "/dev/i2c-1", address: 0x3D)
        #expect(other.hint?.contains("0x3C") == true)
        let noAdapter = I2CErrorHints.open(Errno(ENODEV), path: "/dev/i2c-7")
        #expect(noAdapter.hint?.contains("number 7") == true)
    }

    @Test("an adapter with neither plain I2C nor block writes is refused with a reason")
    func noCapabilities() {
        let fake = FakeI2C()
        fake.funcs = 0
        #expect(throws: HALError.self) { try I2CDevice(bus: 3, address: 0x3C, system: fake) }
        #expect(fake.closed == [42])
    }

    @Test("plain I2C: one I2C_RDWR message per run, control byte first")
    func plain() throws {
        let fake = FakeI2C()
        let dev = try I2CDevice(bus: 1, address: 0x3C, system: fake)
        #expect(dev.mode == .plainI2C)
        #expect(dev.functionality.contains(.plainI2C))
        let frame = (0..<1024).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try dev.write(.data, frame)
        try dev.write(.commands, [0x21, 0x00, 0x7F])
        #expect(fake.messages == [[0x40] + frame, [0x00, 0x21, 0x00, 0x7F]])
        #expect(fake.calls.contains("rdwr 60 1025"))
        #expect(!fake.calls.contains { $0.hasPrefix("slave") })
        // A smaller message limit splits runs into that many bytes each (control byte included).
        let fake2 = FakeI2C()
        let small = try I2CDevice(bus: 1, address: 0x3D, maxMessageLength: 101, system: fake2)
        try small.write(.data, frame)
        #expect(fake2.messages.count == 11)
        #expect(fake2.messages.allSatisfy { $0[0] == 0x40 && $0.count <= 101 })
        #expect(fake2.messages.flatMap { $0.dropFirst() } == frame)
    }

    @Test("SMBus fallback: 32-byte block writes with the control byte as command, byte for byte")
    func smbusChunking() throws {
        let fake = FakeI2C()
        fake.funcs = 0x0800_0000   // I2C_FUNC_SMBUS_WRITE_I2C_BLOCK only
        let dev = try I2CDevice(bus: 1, address: 0x3C, system: fake)
        #expect(dev.mode == .smbusBlock)
        #expect(dev.maxMessageLength == 33)
        #expect(fake.calls.contains("slave 60"))
        let payload = (0..<100).map { UInt8($0) }
        try dev.write(.data, payload)
        #expect(fake.blocks.count == 4)
        #expect(fake.blocks.map(\.0) == [0x40, 0x40, 0x40, 0x40])
        #expect(fake.blocks.map(\.1.count) == [32, 32, 32, 4])
        #expect(fake.blocks[0].1 == Array(0..<32))
        #expect(fake.blocks[1].1 == Array(32..<64))
        #expect(fake.blocks[2].1 == Array(64..<96))
        #expect(fake.blocks[3].1 == [96, 97, 98, 99])
        try dev.write(.commands, [0xAE, 0xAF])
        #expect(fake.blocks[4].0 == 0x00 && fake.blocks[4].1 == [0xAE, 0xAF])
        // preferSMBus picks the fallback even when plain I2C exists.
        let both = FakeI2C()
        #expect(try I2CDevice(bus: 1, address: 0x3C, preferSMBus: true, system: both).mode == .smbusBlock)
    }

    @Test("the emulated SMBus adapter frames a full SSD1306 frame as 32 transactions of 33 bytes")
    func emulatedSMBusFrame() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64, smbusOnly: true)
        try rig.driver.initialize()
        _ = rig.take()
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb, full: true)
        let log = rig.take()
        #expect(log.count == 1 + 32)
        #expect(log[0] == [0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07])
        for k in 0..<32 {
            #expect(log[1 + k] == [0x40] + Array(rig.fb.storage[(32 * k)..<(32 * k + 32)]))
        }
        #expect(rig.driver.lastFlush.transactions == 33)
        #expect(rig.driver.lastFlush.busBytes == 7 + 32 * 33)
        #expect(rig.image == MonoImage(rig.fb))
    }

    @Test("on i2c-dev with I2C_FUNC_I2C a window is one I2C_RDWR message: the RAM clear 1,037 bytes, a full frame 1,025")
    func oneMessagePerWindowOnI2CDev() throws {
        let fake = FakeI2C()
        let dev = try I2CDevice(bus: 1, address: 0x3C, system: fake)
        let driver = OLEDDriver(spec: .ssd1306_128x64, transport: dev)
        #expect(driver.oneTransactionPerWindow)
        try driver.initialize()
        #expect(fake.calls.filter { $0.hasPrefix("rdwr") } == ["rdwr 60 26", "rdwr 60 1037", "rdwr 60 2"])
        let fb = Framebuffer(width: 128, height: 64)
        Scene.draw(fb)
        fake.calls.removeAll()
        fake.messages.removeAll()
        try driver.flush(fb, full: true)
        #expect(fake.calls == ["rdwr 60 1025"])
        #expect(fake.messages == [[0x40] + Array(fb.storage)])

        // The same driver on the SMBus fallback: unchanged, a command block and 32-byte data blocks.
        let smbus = FakeI2C()
        smbus.funcs = 0x0800_0000
        let slow = OLEDDriver(spec: .ssd1306_128x64, transport: try I2CDevice(bus: 1, address: 0x3C, system: smbus))
        #expect(!slow.oneTransactionPerWindow)
        try slow.initialize()
        smbus.blocks.removeAll()
        try slow.flush(fb, full: true)
        #expect(smbus.blocks.count == 1 + 32)
        #expect(smbus.blocks[0].0 == 0x00 && smbus.blocks[0].1 == [0x21, 0x00, 0x7F, 0x22, 0x00, 0x07])
        #expect(smbus.blocks.dropFirst().allSatisfy { $0.0 == 0x40 && $0.1.count == 32 })
    }

    @Test("the real i2c-dev reports a missing bus with the Raspberry Pi hint")
    func realMissingBus() {
        do {
            _ = try I2CDevice(path: "/dev/i2c-wristcore-test-missing", address: 0x3C)
            Issue.record("opened a bus that does not exist")
        } catch {
            #expect(error.errno == ENOENT)
            #expect(error.hint?.contains("raspi-config") == true)
        }
    }
}

@Suite("Flush strategy")
struct FlushTests {
    @Test("only changed bytes go on the bus; redrawing the same picture sends nothing")
    func onlyChanges() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64)
        try rig.driver.initialize()
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        _ = rig.take()
        Scene.draw(rig.fb)   // same picture, everything marked dirty
        let stats = try rig.driver.flush(rig.fb)
        #expect(stats.transactions == 0 && rig.take().isEmpty)
        #expect(!rig.fb.isDirty)
    }

    @Test("a clock-sized change sends one or two pages, far less than a full frame")
    func clockTick() throws {
        let rig = Rig(.sh1106_128x64, panel: .sh1106_128x64)
        try rig.driver.initialize()
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        rig.fb.fill(Rect(x: 90, y: 50, width: 30, height: 12), .invert)   // rows 50...61: pages 6 and 7
        let stats = try rig.driver.flush(rig.fb)
        #expect(stats.pages == 2)
        #expect(stats.busBytes < 80)
        #expect(rig.image == MonoImage(rig.fb))
    }

    @Test("adjacent dirty pages merge into one window when that is cheaper")
    func merging() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64)
        try rig.driver.initialize()
        _ = rig.take()
        rig.fb.fill(Rect(x: 10, y: 0, width: 20, height: 24))   // pages 0-2, same columns
        rig.fb.fill(Rect(x: 100, y: 56, width: 2, height: 8))   // page 7, far away
        let stats = try rig.driver.flush(rig.fb)
        #expect(stats.windows == 2)
        let log = rig.take()
        #expect(log.count == 2, "one transaction per window")
        #expect(Array(log[0].prefix(13)) == [0x80, 0x21, 0x80, 10, 0x80, 29, 0x80, 0x22, 0x80, 0, 0x80, 2, 0x40])
        #expect(log[0].count == 13 + 3 * 20)
        #expect(Array(log[1].prefix(13)) == [0x80, 0x21, 0x80, 100, 0x80, 101, 0x80, 0x22, 0x80, 7, 0x80, 7, 0x40])
        #expect(rig.image == MonoImage(rig.fb))
    }

    @Test("after a bus error the next flush resends the whole frame")
    func recovery() throws {
        let rig = Rig(.ssd1306_128x64, panel: .ssd1306_128x64)
        try rig.driver.initialize()
        rig.fb.setPixel(x: 1, y: 1)
        rig.bus.failNextWrite = HALError(operation: "write", errno: EREMOTEIO, reason: "Remote I/O error")
        #expect(throws: HALError.self) { try rig.driver.flush(rig.fb) }
        #expect(rig.fb.isDirty)
        _ = rig.take()
        let stats = try rig.driver.flush(rig.fb)
        #expect(stats.dataBytes == 1024)
        #expect(rig.image == MonoImage(rig.fb))
    }

    @Test("changing the rotation rewrites the frame with the new remap")
    func rotationChange() throws {
        let rig = Rig(.ssd1309_128x64, panel: .ssd1309_128x64)
        try rig.driver.initialize()
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        _ = rig.take()
        rig.fb.rotation = .r180
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        let log = rig.take()
        #expect(log[0] == [0x00, 0xA0, 0xC0])
        #expect(rig.image.viewed(as: .r180) == MonoImage(rig.fb))
        rig.fb.rotation = .r90
        Scene.draw(rig.fb)
        try rig.driver.flush(rig.fb)
        #expect(rig.take()[0] == [0x00, 0xA1, 0xC8])
        #expect(rig.image.viewed(as: .r90) == MonoImage(rig.fb))
    }
}
