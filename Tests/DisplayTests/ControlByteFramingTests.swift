import Display
import HAL
import Testing

/// A raw I2C transport that records every message (no emulator, no bus).
final class RecordingI2C: I2CTransport {
    let address: UInt8 = 0x3C
    let functionality: I2CFunctionality
    let maxMessageLength: Int
    var messages: [[UInt8]] = []
    var failAfter: Int?

    init(maxMessageLength: Int, functionality: I2CFunctionality = .plainI2C) {
        self.maxMessageLength = maxMessageLength
        self.functionality = functionality
    }

    func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError) {
        #expect(!message.isEmpty && message.count <= maxMessageLength)
        if let n = failAfter, messages.count == n {
            throw HALError(operation: "write", errno: 121, reason: "Remote I/O error")
        }
        messages.append(Array(message))
    }
}

@Suite("SSD13xx control-byte framing")
struct ControlByteFramingTests {
    @Test("a run fits one message: the control byte, then the bytes")
    func oneMessage() throws {
        let bus = RecordingI2C(maxMessageLength: 4096)
        let framing = ControlByteFraming(transport: bus)
        let frame = (0..<1024).map { UInt8(truncatingIfNeeded: $0 * 5) }
        try framing.write(.data, frame)
        try framing.write(.commands, [0xAE, 0xAF])
        #expect(bus.messages == [[0x40] + frame, [0x00, 0xAE, 0xAF]])
        #expect(framing.maxPayload == 4095)
        #expect(framing.transactions(payload: 1024) == 1)
    }

    @Test("SMBus-sized messages: 32 run bytes each, every one with its control byte")
    func smbusChunks() throws {
        let bus = RecordingI2C(maxMessageLength: 33, functionality: .smbusWriteI2CBlock)
        let framing = ControlByteFraming(transport: bus)
        let payload = (0..<100).map { UInt8($0) }
        try framing.write(.data, payload)
        #expect(bus.messages.map(\.count) == [33, 33, 33, 5])
        #expect(bus.messages.allSatisfy { $0[0] == 0x40 })
        #expect(bus.messages.flatMap { $0.dropFirst() } == payload)
        #expect(framing.transactions(payload: 100) == 4)
        #expect(framing.transactions(payload: 96) == 3)
    }

    @Test("an empty run sends nothing")
    func emptyRun() throws {
        let bus = RecordingI2C(maxMessageLength: 33)
        let framing = ControlByteFraming(transport: bus)
        try framing.write(.commands, [])
        #expect(bus.messages.isEmpty)
        #expect(framing.transactions(payload: 0) == 0)
    }

    @Test("a bus error stops the run at the failing message")
    func busError() {
        let bus = RecordingI2C(maxMessageLength: 11)
        bus.failAfter = 1
        let framing = ControlByteFraming(transport: bus)
        #expect(throws: HALError.self) { try framing.write(.data, [UInt8](repeating: 1, count: 30)) }
        #expect(bus.messages.count == 1)
    }

    @Test("one-off runs and the probe go through the same framing")
    func oneOff() throws {
        let bus = RecordingI2C(maxMessageLength: 4096)
        try bus.write(.commands, [0x81, 0x7F])
        try bus.probe()
        #expect(bus.messages == [[0x00, 0x81, 0x7F], [0x00, 0xE3]])
    }
}
