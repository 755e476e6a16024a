/// What an I2C adapter can do, from the kernel's `I2C_FUNCS` (a subset of the
/// `I2C_FUNC_*` bits, with the kernel's values).
public struct I2CFunctionality: OptionSet, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Plain I2C messages of any length (`I2C_FUNC_I2C`): one transaction per message.
    public static let plainI2C = I2CFunctionality(rawValue: 0x0000_0001)
    /// SMBus "I2C block write" (`I2C_FUNC_SMBUS_WRITE_I2C_BLOCK`): a command byte and at most 32 data bytes per transaction.
    public static let smbusWriteI2CBlock = I2CFunctionality(rawValue: 0x0800_0000)

    public var description: String {
        var parts: [String] = []
        if contains(.plainI2C) { parts.append("I2C") }
        if contains(.smbusWriteI2CBlock) { parts.append("SMBus I2C block write") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

/// One device at one address on one I2C bus, as raw write messages: each
/// `writeMessage` is exactly one transaction, `[address+W] [message bytes]`.
/// The LinuxHAL implementation talks to `/dev/i2c-N`; the simulator's feeds
/// an emulated controller. What the bytes mean (an SSD13xx's control byte,
/// how runs are split) is the driver's business (Display's
/// `ControlByteFraming`), so every transport sees the same messages.
///
/// An adapter with plain I2C sends a message as it is, up to
/// `maxMessageLength` bytes; one with only the SMBus "I2C block write" sends
/// its first byte as the command byte and the rest (at most 32 bytes) as data,
/// which is the same on the wire, so `maxMessageLength` is then 33.
public protocol I2CTransport: AnyObject {
    /// The 7-bit device address (0x3C or 0x3D for these OLEDs).
    var address: UInt8 { get }
    /// What the adapter supports.
    var functionality: I2CFunctionality { get }
    /// The most bytes one message carries (after the address byte).
    var maxMessageLength: Int { get }
    /// Sends one message (1...maxMessageLength bytes) as one write
    /// transaction. Must not allocate.
    func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError)
}
