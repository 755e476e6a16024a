import HAL

/// The SSD13xx framing on I2C, written once: a run of command or data bytes
/// goes out as one or more raw messages, each `[control byte] [up to
/// maxPayload bytes of the run]`, one transaction each. The Linux bus and the
/// emulator are fed the same messages; with a 32-byte SMBus adapter the
/// control byte travels as the SMBus command byte.
///
/// `writeWindow` puts commands and display data in one transaction: each
/// command byte goes with its own control byte 0x80 (Co = 1: one byte, then
/// another control byte follows), then 0x40 (Co = 0, data) and the data to
/// the end of the message. That costs one byte per command byte and saves a
/// transaction (an address byte, a start and a stop, and on Linux an ioctl).
///
/// The message buffer is allocated in `init`; `write` allocates nothing.
public final class ControlByteFraming {
    public let transport: any I2CTransport
    /// Run bytes per transaction (after the control byte).
    public let maxPayload: Int
    private let message: UnsafeMutablePointer<UInt8>

    public init(transport: any I2CTransport) {
        precondition(transport.maxMessageLength >= 2, "an I2C transport must carry a control byte and at least one byte")
        self.transport = transport
        maxPayload = transport.maxMessageLength - 1
        message = .allocate(capacity: transport.maxMessageLength)
    }

    deinit { message.deallocate() }

    /// How many transactions a run of `count` bytes takes.
    @inlinable
    public func transactions(payload count: Int) -> Int {
        count == 0 ? 0 : (count + maxPayload - 1) / maxPayload
    }

    /// Sends a run of command or data bytes (nothing for an empty run).
    public func write(_ run: I2CRun, _ payload: UnsafeRawBufferPointer) throws(HALError) {
        var offset = 0
        while offset < payload.count {
            let n = min(maxPayload, payload.count - offset)
            message[0] = run.rawValue
            UnsafeMutableRawPointer(message + 1).copyMemory(from: payload.baseAddress! + offset, byteCount: n)
            try transport.writeMessage(UnsafeRawBufferPointer(start: message, count: n + 1))
            offset += n
        }
    }

    /// Bytes in the one message `writeWindow` makes of `commands` command
    /// bytes and `data` data bytes.
    @inlinable
    public static func windowMessageLength(commands: Int, data: Int) -> Int {
        2 * commands + (data > 0 ? 1 + data : 0)
    }

    /// Sends command bytes and then display data (at least one byte of
    /// either) as one transaction; the message must fit `maxMessageLength`.
    public func writeWindow(commands: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws(HALError) {
        let length = Self.windowMessageLength(commands: commands.count, data: data.count)
        precondition(length > 0 && length <= transport.maxMessageLength,
                     "a window of \(commands.count) command and \(data.count) data bytes does not fit one \(transport.maxMessageLength)-byte message")
        var k = 0
        for b in commands {
            message[k] = 0x80
            message[k + 1] = b
            k += 2
        }
        if !data.isEmpty {
            message[k] = I2CRun.data.rawValue
            UnsafeMutableRawPointer(message + k + 1).copyMemory(from: data.baseAddress!, byteCount: data.count)
            k += 1 + data.count
        }
        try transport.writeMessage(UnsafeRawBufferPointer(start: message, count: k))
    }

    /// Sends an array of bytes (the array is not copied).
    public func write(_ run: I2CRun, _ bytes: [UInt8]) throws(HALError) {
        let result: Result<Void, HALError> = bytes.withUnsafeBytes { raw in
            do throws(HALError) { try write(run, raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }
}

extension I2CTransport {
    /// Sends one run through a framing made for the call: for tests and
    /// one-off commands (it allocates; the driver keeps its own framing).
    public func write(_ run: I2CRun, _ bytes: [UInt8]) throws(HALError) {
        try ControlByteFraming(transport: self).write(run, bytes)
    }

    /// Checks that an SSD13xx answers, with a harmless command (0xE3, no operation).
    public func probe() throws(HALError) {
        try write(.commands, [0xE3])
    }
}
