import HAL

/// The SSD13xx framing on I2C, written once: a run of command or data bytes
/// goes out as one or more raw messages, each `[control byte] [up to
/// maxPayload bytes of the run]`, one transaction each. The Linux bus and the
/// emulator are fed the same messages; with a 32-byte SMBus adapter the
/// control byte travels as the SMBus command byte.
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
