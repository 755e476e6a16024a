import HAL

/// An `I2CTransport` with an emulated OLED at the other end: the simulated
/// board's screen, the golden-byte tests' recorder and the benchmarks' bus
/// counter.
///
/// It takes raw I2C messages, as the Linux bus does, and hands each to the
/// emulator, which parses the control bytes itself; so the emulator sees the
/// real bus traffic, including the 33-byte messages of an SMBus-only adapter.
public final class EmulatedI2CDisplay: I2CTransport {
    public let emulator: DisplayEmulator
    public let address: UInt8
    public let functionality: I2CFunctionality
    public let maxMessageLength: Int

    /// Keep a copy of every transaction in `log` (tests; allocates).
    public var recording = false
    /// Every transaction (control byte first), when `recording`.
    public private(set) var log: [[UInt8]] = []
    /// Transactions sent.
    public private(set) var transactions = 0
    /// Bytes sent after the address byte (control bytes included).
    public private(set) var busBytes = 0
    /// When set, the next write fails with this error (and clears it): for
    /// testing what callers do when the bus fails.
    public var failNextWrite: HALError?

    /// - Parameters:
    ///   - smbusOnly: emulate an adapter without plain I2C (SMBus block
    ///     writes: a command byte and 32 data bytes per transaction).
    ///   - maxMessageLength: bytes per plain I2C transaction.
    public init(panel: EmulatedPanel, address: UInt8 = 0x3C, smbusOnly: Bool = false, maxMessageLength: Int = 4096) {
        emulator = DisplayEmulator(panel: panel)
        self.address = address
        if smbusOnly {
            functionality = .smbusWriteI2CBlock
            self.maxMessageLength = 33
        } else {
            functionality = [.plainI2C, .smbusWriteI2CBlock]
            self.maxMessageLength = maxMessageLength
        }
    }

    /// Clears the log and the counters (not the emulator).
    public func resetCounters() {
        log.removeAll(keepingCapacity: true)
        transactions = 0
        busBytes = 0
    }

    public func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError) {
        precondition(!message.isEmpty && message.count <= maxMessageLength,
                     "an I2C message of \(message.count) bytes (1...\(maxMessageLength) allowed)")
        if let e = failNextWrite {
            failNextWrite = nil
            throw e
        }
        transactions += 1
        busBytes += message.count
        if recording { log.append(Array(message)) }
        do throws(EmulatorFault) {
            try emulator.receive(message)
        } catch {
            throw HALError(operation: "write to emulated \(emulator.panel) at 0x\(String(address, radix: 16, uppercase: true))",
                           errno: 0, reason: error.description,
                           hint: "the emulator rejected these bytes: a driver bug")
        }
    }
}
