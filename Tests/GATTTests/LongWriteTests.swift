import ATTCodec
import GATT
import HAL
import LinuxHAL
import Loop
import Testing

/// Long writes (Core Specification Vol 3 Part G 4.9.4): a value longer than
/// ATT_MTU − 3 goes as Prepare Write Requests plus Execute Write, on the
/// client; the server queues the parts (bounded) and applies them on Execute.
@Suite("GATT long writes (raw PDUs)")
struct LongWriteTests {
    /// 40 bytes: at MTU 23 a Prepare Write carries 18, so 18 + 18 + 4.
    static let value: [UInt8] = Array(0..<40)

    final class ClientFixture {
        let link: RawLink
        let bearer: ATTBearer
        let client: GATTClient
        let box = OutcomeBox()
        init() throws {
            link = try RawLink()
            bearer = ATTBearer(channel: link.watch, loop: link.loop)
            client = GATTClient(bearer: bearer, watching: [])
            try bearer.start()
        }
    }

    @Test func aValueLongerThanTheMTUGoesAsPrepareWritesAndExecute() throws {
        let f = try ClientFixture()
        _ = try Self.value.withUnsafeBytes { try f.client.write(handle: 0x35, value: $0, then: f.box.handler) }
        try f.link.run([
            .watch(pdu(0x16, 0x35, 0x00, 0x00, 0x00) + Array(Self.value[0..<18])),
            .peer(pdu(0x17, 0x35, 0x00, 0x00, 0x00) + Array(Self.value[0..<18])),
            .watch(pdu(0x16, 0x35, 0x00, 18, 0x00) + Array(Self.value[18..<36])),
            .peer(pdu(0x17, 0x35, 0x00, 18, 0x00) + Array(Self.value[18..<36])),
            .watch(pdu(0x16, 0x35, 0x00, 36, 0x00) + Array(Self.value[36..<40])),
            .peer(pdu(0x17, 0x35, 0x00, 36, 0x00) + Array(Self.value[36..<40])),
            .watch(pdu(0x18, 0x01)),
            .peer(pdu(0x19)),
        ])
        try f.link.run(until: { !f.box.outcomes.isEmpty })
        #expect(f.box.outcomes == [.response([0x19])])
    }

    @Test func aValueThatFitsIsAPlainWriteRequest() throws {
        let f = try ClientFixture()
        let short: [UInt8] = Array(0..<20)
        _ = try short.withUnsafeBytes { try f.client.write(handle: 0x35, value: $0, then: f.box.handler) }
        try f.link.run([.watch(pdu(0x12, 0x35, 0x00) + short), .peer(pdu(0x13))])
        try f.link.run(until: { !f.box.outcomes.isEmpty })
        #expect(f.box.outcomes == [.response([0x13])])
    }

    @Test func aRefusedPartCancelsTheRestAndTheServersQueue() throws {
        let f = try ClientFixture()
        _ = try Self.value.withUnsafeBytes { try f.client.write(handle: 0x35, value: $0, then: f.box.handler) }
        try f.link.run([
            .watch(pdu(0x16, 0x35, 0x00, 0x00, 0x00) + Array(Self.value[0..<18])),
            .peer(pdu(0x01, 0x16, 0x35, 0x00, 0x09)),  // Prepare Queue Full
            .watch(pdu(0x18, 0x00)),  // Execute Write, cancel: nothing else of the value goes out
            .peer(pdu(0x19)),
        ])
        try f.link.run(until: { !f.box.outcomes.isEmpty })
        #expect(f.box.outcomes == [.error(.prepareQueueFull, 0x35)])
        #expect(try f.link.settle() == nil)
        #expect(f.bearer.pendingRequestCount == 0)
    }

    @Test func aValueOver512BytesIsRefusedAtOnce() throws {
        let f = try ClientFixture()
        let huge = [UInt8](repeating: 0x41, count: 513)
        #expect(throws: ATTBearerError.self) {
            _ = try huge.withUnsafeBytes { try f.client.write(handle: 0x35, value: $0, then: f.box.handler) }
        }
        #expect(f.bearer.pendingRequestCount == 0)
    }

    final class ServerFixture {
        let link: RawLink
        let bearer: ATTBearer
        let server = GATTServer()
        var written: [[UInt8]] = []
        var handle: UInt16 = 0
        init() throws {
            link = try RawLink()
            bearer = ATTBearer(channel: link.watch, loop: link.loop)
            let service = try server.publish(GATTServiceDefinition(
                uuid: BluetoothUUID("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")!, characteristics: [
                    GATTCharacteristicDefinition(uuid: BluetoothUUID("9FBF120D-6301-42D9-8C58-25E699A21DBD")!, properties: [.write],
                        write: { [unowned self] value in
                            self.written.append(Array(value))
                            return nil
                        }),
                ]))
            handle = service.valueHandles[0]
            server.attach(to: bearer)
            try bearer.start()
        }
        var h: [UInt8] { [UInt8(handle & 0xFF), UInt8(handle >> 8)] }
    }

    @Test func theServerJoinsThePartsOnExecute() throws {
        let f = try ServerFixture()
        try f.link.run([
            .peer(pdu(0x16) + f.h + [0, 0] + [1, 2, 3]), .watch(pdu(0x17) + f.h + [0, 0] + [1, 2, 3]),
            .peer(pdu(0x16) + f.h + [3, 0] + [4, 5]), .watch(pdu(0x17) + f.h + [3, 0] + [4, 5]),
            .peer(pdu(0x18, 0x01)), .watch(pdu(0x19)),
        ])
        #expect(f.written == [[1, 2, 3, 4, 5]])
    }

    @Test func cancelDropsThePartsAndAGapIsAnInvalidOffset() throws {
        let f = try ServerFixture()
        try f.link.run([
            .peer(pdu(0x16) + f.h + [0, 0] + [1, 2, 3]), .watch(pdu(0x17) + f.h + [0, 0] + [1, 2, 3]),
            .peer(pdu(0x18, 0x00)), .watch(pdu(0x19)),
            .peer(pdu(0x16) + f.h + [0, 0] + [1]), .watch(pdu(0x17) + f.h + [0, 0] + [1]),
            .peer(pdu(0x16) + f.h + [5, 0] + [9]), .watch(pdu(0x17) + f.h + [5, 0] + [9]),
            .peer(pdu(0x18, 0x01)), .watch(pdu(0x01, 0x18) + f.h + [0x07]),
            // The failed execute emptied the queue: nothing is left to write.
            .peer(pdu(0x18, 0x01)), .watch(pdu(0x19)),
        ])
        #expect(f.written.isEmpty)
    }

    @Test func thePrepareQueueIsBounded() throws {
        let f = try ServerFixture()
        // 64 parts fit; the 65th is "Prepare Queue Full", and Execute still writes the 64.
        var steps: [RawLink.Step] = []
        for k in 0..<64 {
            steps.append(.peer(pdu(0x16) + f.h + [UInt8(k), 0] + [UInt8(k)]))
            steps.append(.watch(pdu(0x17) + f.h + [UInt8(k), 0] + [UInt8(k)]))
        }
        steps.append(.peer(pdu(0x16) + f.h + [64, 0] + [64]))
        steps.append(.watch(pdu(0x01, 0x16) + f.h + [0x09]))
        steps.append(.peer(pdu(0x18, 0x01)))
        steps.append(.watch(pdu(0x19)))
        try f.link.run(steps)
        #expect(f.written == [Array(0..<64)])
    }
}
