import CI2C
import CLinux
import HAL
import TextFormat

/// The system calls the I2C transport makes, behind a protocol so tests can
/// script failures (ENOENT, EACCES, ENXIO ...) without a bus.
public protocol I2CSystemCalls: AnyObject {
    /// open(path, O_RDWR | O_CLOEXEC); returns the descriptor.
    func open(_ path: String) throws(Errno) -> Int32
    func close(_ fd: Int32)
    /// ioctl(I2C_FUNCS).
    func functionality(_ fd: Int32) throws(Errno) -> UInt64
    /// ioctl(I2C_SLAVE, address): needed by the SMBus path.
    func setAddress(_ fd: Int32, _ address: UInt8) throws(Errno)
    /// One plain I2C write transaction (ioctl I2C_RDWR with one message).
    func writeMessage(_ fd: Int32, address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno)
    /// One SMBus "write I2C block data" transaction: command byte + up to 32 bytes (libi2c).
    func smbusWriteBlock(_ fd: Int32, command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno)
    /// One SMBus "read word data" transaction (libi2c): the word as SMBus
    /// orders it, first byte on the wire low.
    func smbusReadWord(_ fd: Int32, command: UInt8) throws(Errno) -> UInt16
}

extension I2CSystemCalls {
    /// Fakes that only write (the display's tests) need not read.
    public func smbusReadWord(_ fd: Int32, command: UInt8) throws(Errno) -> UInt16 { throw Errno(ENOSYS) }
}

/// The real calls: i2c-dev ioctls and libi2c.
public final class LinuxI2CSystemCalls: I2CSystemCalls {
    public init() {}

    public func open(_ path: String) throws(Errno) -> Int32 {
        try FileDescriptor.open(path, flags: O_RDWR).release()
    }

    public func close(_ fd: Int32) {
        FileDescriptor(adopting: fd).close()
    }

    public func functionality(_ fd: Int32) throws(Errno) -> UInt64 {
        var funcs: UInt = 0
        _ = try retryingOnInterrupt { wc_i2c_ioctl_ptr(fd, wc_i2c_funcs(), &funcs) }
        return UInt64(funcs)
    }

    public func setAddress(_ fd: Int32, _ address: UInt8) throws(Errno) {
        _ = try retryingOnInterrupt { wc_i2c_ioctl_ulong(fd, wc_i2c_slave(), UInt(address)) }
    }

    public func writeMessage(_ fd: Int32, address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        precondition(bytes.count <= Int(UInt16.max))
        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        _ = try retryingOnInterrupt { wc_i2c_write_message(fd, UInt16(address), p, UInt16(bytes.count)) }
    }

    public func smbusWriteBlock(_ fd: Int32, command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        precondition(bytes.count <= 32)
        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        _ = try retryingOnInterrupt { i2c_smbus_write_i2c_block_data(fd, command, UInt8(bytes.count), p) }
    }

    public func smbusReadWord(_ fd: Int32, command: UInt8) throws(Errno) -> UInt16 {
        UInt16(truncatingIfNeeded: try retryingOnInterrupt { i2c_smbus_read_word_data(fd, command) })
    }
}

/// Turns errno values from I2C calls into errors that say how to fix things.
public enum I2CErrorHints {
    /// A failure opening the bus device.
    public static func open(_ errno: Errno, path: String) -> HALError {
        let bus = busNumber(path)
        switch errno.rawValue {
        case ENOENT:
            return errno.halError("open \(path)", hint:
                "The I2C bus is not enabled. On a Raspberry Pi run `sudo raspi-config nonint do_i2c 0` "
                + "(or add `dtparam=i2c_arm=on` to /boot/firmware/config.txt), then reboot. "
                + "Elsewhere load the i2c-dev module (`sudo modprobe i2c-dev`) and check the bus number with `i2cdetect -l`")
        case EACCES, EPERM:
            return errno.halError("open \(path)", hint:
                "Permission denied: add your user to the i2c group (`sudo usermod -aG i2c $USER`, then log in again), "
                + "or add a udev rule such as `KERNEL==\"i2c-[0-9]*\", GROUP=\"i2c\", MODE=\"0660\"` "
                + "in /etc/udev/rules.d/99-i2c.rules")
        case ENXIO, ENODEV:
            return errno.halError("open \(path)", hint:
                "There is no I2C adapter \(bus.map { "number \($0)" } ?? "at this path"); list the buses with `i2cdetect -l`")
        default:
            return errno.halError("open \(path)")
        }
    }

    /// A failure talking to the device at `address`.
    public static func transfer(_ errno: Errno, operation: String, path: String, address: UInt8) -> HALError {
        let hex = "0x" + String(address, radix: 16, uppercase: true)
        let other = address == 0x3C ? "0x3D" : address == 0x3D ? "0x3C" : nil
        switch errno.rawValue {
        case ENXIO, EREMOTEIO, EIO:
            var hint = "Nothing answered at \(hex) on \(path): check the wiring (SDA to SDA, SCL to SCL, VCC to 3.3 V, GND to GND; "
                + "on a Raspberry Pi SDA is pin 3 and SCL pin 5)"
            if let other { hint += " and the address: these OLEDs answer at 0x3C or \(other) depending on the address jumper" }
            hint += ". `i2cdetect -y \(busNumber(path).map(String.init) ?? "1")` shows which addresses answer"
            return errno.halError(operation, hint: hint)
        case ETIMEDOUT:
            return errno.halError(operation, hint:
                "The bus timed out: SDA and SCL may be swapped, or the module has no pull-up resistors, or the bus is held low by another device")
        case EBUSY:
            return errno.halError(operation, hint:
                "A kernel driver already owns \(hex) (for example the ssd1306 framebuffer overlay): remove `dtoverlay=ssd1306` from config.txt")
        case EOPNOTSUPP, ENOTTY:
            return errno.halError(operation, hint: "\(path) does not support this kind of transfer")
        default:
            return errno.halError(operation)
        }
    }

    static func busNumber(_ path: String) -> Int? {
        guard let dash = path.lastIndex(of: "-") else { return nil }
        return IntegerText.int(path[path.index(after: dash)...])
    }
}

/// One device on a Linux I2C bus (`/dev/i2c-N` through i2c-dev), as raw
/// write messages: each `writeMessage` is one transaction.
///
/// Plain I2C adapters get each message as one `I2C_RDWR` message of up to
/// `maxMessageLength` bytes (4096 by default: a full 1024-byte frame with its
/// control byte and the window commands before it, 1,037 bytes, is one
/// transaction; the driver needs 1,039 for its one-transaction windows).
/// Adapters without `I2C_FUNC_I2C` fall back to SMBus "I2C block write": the
/// message's first byte is the SMBus command byte and at most 32 data bytes
/// follow, the same bytes on the wire.
public final class I2CDevice: I2CTransport {
    public enum Mode: Sendable, Equatable {
        /// I2C_RDWR messages of up to `maxMessageLength` bytes.
        case plainI2C
        /// SMBus I2C block writes: a command byte and 32 data bytes.
        case smbusBlock
    }

    public let path: String
    public let address: UInt8
    public let functionality: I2CFunctionality
    public let mode: Mode
    public let maxMessageLength: Int
    private let system: any I2CSystemCalls
    private var fd: Int32

    /// The bus device for bus number `bus`.
    public static func path(bus: Int) -> String { "/dev/i2c-\(bus)" }

    /// The most bytes an SMBus I2C block write carries: the command byte and 32 data bytes.
    public static let smbusBlockMessageLength = 33

    /// Opens the bus and reads the adapter's functionality.
    /// - Parameters:
    ///   - maxMessageLength: bytes per plain I2C transaction (the kernel allows up to 8192).
    ///   - preferSMBus: use SMBus block writes even when plain I2C is available.
    public init(path: String, address: UInt8, maxMessageLength: Int = 4096, preferSMBus: Bool = false,
                system: any I2CSystemCalls = LinuxI2CSystemCalls()) throws(HALError) {
        precondition(maxMessageLength >= 2 && maxMessageLength <= 8192)
        precondition(address >= 0x03 && address <= 0x77, "I2C address 0x\(String(address, radix: 16)) is reserved")
        self.path = path
        self.address = address
        self.system = system
        let fd: Int32
        do {
            fd = try system.open(path)
        } catch {
            throw I2CErrorHints.open(error, path: path)
        }
        let raw: UInt64
        do {
            raw = try system.functionality(fd)
        } catch {
            system.close(fd)
            throw I2CErrorHints.transfer(error, operation: "read the adapter functionality (I2C_FUNCS) of \(path)", path: path, address: address)
        }
        let funcs = I2CFunctionality(rawValue: raw)
        let mode: Mode
        if funcs.contains(.plainI2C) && !(preferSMBus && funcs.contains(.smbusWriteI2CBlock)) {
            mode = .plainI2C
        } else if funcs.contains(.smbusWriteI2CBlock) {
            mode = .smbusBlock
        } else {
            system.close(fd)
            throw HALError(operation: "open \(path)", errno: 0,
                           reason: "the adapter supports neither plain I2C nor SMBus block writes (functionality 0x\(String(raw, radix: 16)))",
                           hint: "use a hardware I2C bus (on a Raspberry Pi, /dev/i2c-1 on pins 3 and 5)")
        }
        if mode == .smbusBlock {
            do {
                try system.setAddress(fd, address)
            } catch {
                system.close(fd)
                throw I2CErrorHints.transfer(error, operation: "select address 0x\(String(address, radix: 16, uppercase: true)) on \(path)",
                                             path: path, address: address)
            }
        }
        self.fd = fd
        self.functionality = funcs
        self.mode = mode
        self.maxMessageLength = mode == .smbusBlock ? Self.smbusBlockMessageLength : maxMessageLength
    }

    /// Opens `/dev/i2c-<bus>`.
    public convenience init(bus: Int, address: UInt8, maxMessageLength: Int = 4096, preferSMBus: Bool = false,
                            system: any I2CSystemCalls = LinuxI2CSystemCalls()) throws(HALError) {
        try self.init(path: I2CDevice.path(bus: bus), address: address, maxMessageLength: maxMessageLength,
                      preferSMBus: preferSMBus, system: system)
    }

    deinit {
        if fd >= 0 { system.close(fd) }
    }

    /// Closes the bus now (also done when the device goes away).
    public func close() {
        if fd >= 0 { system.close(fd); fd = -1 }
    }

    public func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError) {
        precondition(fd >= 0, "I2CDevice used after close()")
        precondition(!message.isEmpty && message.count <= maxMessageLength,
                     "an I2C message of \(message.count) bytes (1...\(maxMessageLength) allowed)")
        do throws(Errno) {
            switch mode {
            case .plainI2C:
                try system.writeMessage(fd, address: address, message)
            case .smbusBlock:
                try system.smbusWriteBlock(fd, command: message[0], UnsafeRawBufferPointer(rebasing: message[1...]))
            }
        } catch {
            throw I2CErrorHints.transfer(error, operation: "write to 0x\(String(address, radix: 16, uppercase: true)) on \(path)",
                                         path: path, address: address)
        }
    }
}
