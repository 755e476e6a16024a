import HAL

/// An `I2CTransport` with an emulated OLED at the other end: the simulator's
/// screen, the golden-byte tests' recorder and the benchmarks' bus counter.
///
/// It frames runs exactly as the Linux transport does (control byte + up to
/// `maxTransfer` bytes per transaction), so the emulator sees the real bus
/// traffic, including the 32-byte SMBus fallback.
public final class EmulatedI2CDisplay: I2CTransport {
    public let emulator: DisplayEmulator
    public let address: UInt8
    public let functionality: I2CFunctionality
    public let maxTransfer: Int

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

    private let frame: UnsafeMutablePointer<UInt8>

    /// - Parameters:
    ///   - smbusOnly: emulate an adapter without plain I2C (32-byte SMBus block writes).
    public init(panel: EmulatedPanel, address: UInt8 = 0x3C, smbusOnly: Bool = false, maxTransfer: Int = 4096) {
        emulator = DisplayEmulator(panel: panel)
        self.address = address
        if smbusOnly {
            functionality = .smbusWriteI2CBlock
            self.maxTransfer = 32
        } else {
            functionality = [.plainI2C, .smbusWriteI2CBlock]
            self.maxTransfer = maxTransfer
        }
        frame = .allocate(capacity: self.maxTransfer + 1)
    }

    deinit { frame.deallocate() }

    /// Clears the log and the counters (not the emulator).
    public func resetCounters() {
        log.removeAll(keepingCapacity: true)
        transactions = 0
        busBytes = 0
    }

    public func write(_ run: I2CRun, _ payload: UnsafeRawBufferPointer) throws(HALError) {
        if let e = failNextWrite {
            failNextWrite = nil
            throw e
        }
        try I2CChunking.forEachChunk(payload, maxTransfer: maxTransfer) { (chunk) throws(HALError) in
            frame[0] = run.rawValue
            UnsafeMutableRawPointer(frame + 1).copyMemory(from: chunk.baseAddress!, byteCount: chunk.count)
            let tx = UnsafeRawBufferPointer(start: frame, count: chunk.count + 1)
            transactions += 1
            busBytes += tx.count
            if recording { log.append(Array(tx)) }
            do throws(EmulatorFault) {
                try emulator.receive(tx)
            } catch {
                throw HALError(operation: "write to emulated \(emulator.panel) at 0x\(String(address, radix: 16, uppercase: true))",
                               errno: 0, reason: error.description,
                               hint: "the emulator rejected these bytes: a driver bug")
            }
        }
    }
}
