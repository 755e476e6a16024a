/// What an I2C adapter can do, from the kernel's `I2C_FUNCS` (a subset of the
/// `I2C_FUNC_*` bits, with the kernel's values).
public struct I2CFunctionality: OptionSet, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Plain I2C messages of any length (`I2C_FUNC_I2C`): one transaction per run.
    public static let plainI2C = I2CFunctionality(rawValue: 0x0000_0001)
    /// SMBus "I2C block write" (`I2C_FUNC_SMBUS_WRITE_I2C_BLOCK`): at most 32 bytes per transaction.
    public static let smbusWriteI2CBlock = I2CFunctionality(rawValue: 0x0800_0000)

    public var description: String {
        var parts: [String] = []
        if contains(.plainI2C) { parts.append("I2C") }
        if contains(.smbusWriteI2CBlock) { parts.append("SMBus I2C block write") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

/// The control byte that starts every transaction to an SSD1306-family
/// controller: it says whether the following bytes are commands or display data.
public enum I2CRun: UInt8, Sendable {
    /// Co = 0, D/C# = 0: every following byte is a command byte.
    case commands = 0x00
    /// Co = 0, D/C# = 1: every following byte goes to display RAM.
    case data = 0x40
}

/// The byte transport under a display driver: one device at one address on
/// one I2C bus. The LinuxHAL implementation talks to `/dev/i2c-N`; the
/// simulator's feeds an emulated controller.
///
/// `write` sends `payload` as one or more transactions, each
/// `[address+W] [control byte] [up to maxTransfer payload bytes]`, splitting
/// where the adapter requires it (32-byte SMBus block writes).
public protocol I2CTransport: AnyObject {
    /// The 7-bit device address (0x3C or 0x3D for these OLEDs).
    var address: UInt8 { get }
    /// What the adapter supports.
    var functionality: I2CFunctionality { get }
    /// The most payload bytes (after the control byte) one transaction carries.
    var maxTransfer: Int { get }
    /// Sends a run of command or data bytes. Must not allocate.
    func write(_ run: I2CRun, _ payload: UnsafeRawBufferPointer) throws(HALError)
}

extension I2CTransport {
    /// Sends an array of bytes (for tests and one-off commands; the array is
    /// not copied).
    public func write(_ run: I2CRun, _ bytes: [UInt8]) throws(HALError) {
        let result: Result<Void, HALError> = bytes.withUnsafeBytes { raw in
            do throws(HALError) { try write(run, raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }
}

/// How many transactions a run of `count` payload bytes takes at `maxTransfer`
/// bytes each, and the bytes on the wire (control bytes included, address
/// bytes excluded). Shared by transports so their accounting agrees.
public enum I2CChunking {
    @inlinable
    public static func transactions(payload count: Int, maxTransfer: Int) -> Int {
        count == 0 ? 0 : (count + maxTransfer - 1) / maxTransfer
    }

    /// Calls `body` with each chunk of `payload` (at most `maxTransfer` bytes).
    @inlinable
    public static func forEachChunk<E: Error>(_ payload: UnsafeRawBufferPointer, maxTransfer: Int,
                                              _ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        precondition(maxTransfer > 0)
        if payload.isEmpty { return }
        var offset = 0
        while offset < payload.count {
            let end = min(payload.count, offset + maxTransfer)
            try body(UnsafeRawBufferPointer(rebasing: payload[offset..<end]))
            offset = end
        }
    }
}
