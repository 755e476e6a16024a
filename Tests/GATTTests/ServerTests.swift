import ATTCodec
import GATT
import HAL
import LinuxHAL
import Loop
import PhoneServices
import SimBoard
import Testing

/// The watch's own GATT server, as the phone sees it, in raw PDUs at MTU 23.
/// Database: GAP 0x0001-0x0005 (name 0x0003, appearance 0x0005),
/// GATT 0x0006-0x0009 (Service Changed 0x0008, CCCD 0x0009),
/// WristCore 0x000A-0x000C (encrypted characteristic 0x000C),
/// Nordic UART 0x000D-0x0012 (RX 0x000F, TX 0x0011, its CCCD 0x0012).
@Suite("Watch GATT server")
struct ServerTests {
    final class Fixture {
        let link: RawLink
        let bearer: ATTBearer
        let server: GATTServer
        let handles: WatchGATTDatabase.Handles
        let security = ManualSecurity()
        /// What the phone wrote on the UART's RX.
        var uartWrites: [[UInt8]] = []
        init(name: String = "WristCore", uartRequiresEncryption: Bool = false) throws {
            link = try RawLink()
            bearer = ATTBearer(channel: link.watch, loop: link.loop)
            var received: ([UInt8]) -> Void = { _ in }
            (server, handles) = WatchGATTDatabase.makeServer(
                deviceName: name, security: security, firmwareRevision: "WC1", uartReceived: { received(Array($0)) },
                uartRequiresEncryption: uartRequiresEncryption)
            received = { [unowned self] in self.uartWrites.append($0) }
            server.attach(to: bearer)
            try bearer.start()
        }
    }

    static let wristCoreUUID = WatchGATTDatabase.wristCoreService.littleEndianBytes

    @Test func handlesAreWhereTheDocumentationSays() throws {
        let f = try Fixture()
        #expect(f.handles == WatchGATTDatabase.Handles(
            deviceName: 3, appearance: 5, serviceChanged: 8, pairing: 0x0C, uartRX: 0x0F, uartTX: 0x11))
    }

    @Test func primaryServiceDiscoveryByGroupType() throws {
        let f = try Fixture()
        try f.link.run([
            .peer(pdu(0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28)),
            .watch(pdu(0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x09, 0x00, 0x01, 0x18)),
            .peer(pdu(0x10, 0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x28)),
            .watch(pdu(0x11, 0x14, 0x0A, 0x00, 0x0C, 0x00) + Self.wristCoreUUID),
            .peer(pdu(0x10, 0x0D, 0x00, 0xFF, 0xFF, 0x00, 0x28)),
            .watch(pdu(0x11, 0x14, 0x0D, 0x00, 0x12, 0x00) + GadgetbridgeSession.uartService.littleEndianBytes),
            .peer(pdu(0x10, 0x13, 0x00, 0xFF, 0xFF, 0x00, 0x28)),
            .watch(pdu(0x01, 0x10, 0x13, 0x00, 0x0A)),
            // Only service types group.
            .peer(pdu(0x10, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28)),
            .watch(pdu(0x01, 0x10, 0x01, 0x00, 0x10)),
        ])
    }

    @Test func primaryServiceByUUIDAndCharacteristicsAndDescriptors() throws {
        let f = try Fixture()
        try f.link.run([
            .peer(pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x01, 0x18)),
            .watch(pdu(0x07, 0x06, 0x00, 0x09, 0x00)),
            .peer(pdu(0x08, 0x01, 0x00, 0x05, 0x00, 0x03, 0x28)),
            .watch(pdu(0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A)),
            .peer(pdu(0x04, 0x08, 0x00, 0x09, 0x00)),
            .watch(pdu(0x05, 0x01, 0x08, 0x00, 0x05, 0x2A, 0x09, 0x00, 0x02, 0x29)),
            .peer(pdu(0x04, 0x0B, 0x00, 0x0C, 0x00)),
            .watch(pdu(0x05, 0x01, 0x0B, 0x00, 0x03, 0x28)),  // stops before the 128-bit type
            .peer(pdu(0x04, 0x0C, 0x00, 0x0C, 0x00)),
            .watch(pdu(0x05, 0x02, 0x0C, 0x00) + WatchGATTDatabase.pairingCharacteristic.littleEndianBytes),
            .peer(pdu(0x04, 0x13, 0x00, 0xFF, 0xFF)),
            .watch(pdu(0x01, 0x04, 0x13, 0x00, 0x0A)),
        ])
    }

    /// `uartRequiresEncryption`: on an unencrypted link a Write Request is
    /// refused and a Write Command dropped; once encrypted, both are taken.
    @Test func anEncryptedOnlyUARTRefusesAStrangersWrites() throws {
        let f = try Fixture(uartRequiresEncryption: true)
        try f.link.run([
            .peer(pdu(0x12, 0x0F, 0x00) + Array("GB({".utf8)),
            .watch(pdu(0x01, 0x12, 0x0F, 0x00, 0x05)),  // Insufficient Authentication
            .peer(pdu(0x52, 0x0F, 0x00) + Array("x".utf8)),
            // A request after it: its answer means the command was handled.
            .peer(pdu(0x0A, 0x05, 0x00)), .watch(pdu(0x0B, 0xC0, 0x00)),
        ])
        f.security.complete(.encrypted)
        try f.link.run([
            .peer(pdu(0x52, 0x0F, 0x00) + Array("GB(".utf8)),
            .peer(pdu(0x12, 0x0F, 0x00) + Array("{})\n".utf8)),
            .watch(pdu(0x13)),
        ])
        #expect(f.uartWrites == [Array("GB(".utf8), Array("{})\n".utf8)])
    }

    /// Gadgetbridge's view: RX takes writes with and without response
    /// (unencrypted, as on a Bangle.js), TX notifies once its CCCD is on.
    @Test func theUARTTakesWritesAndNotifiesWhenSubscribed() throws {
        let f = try Fixture()
        let rx = GadgetbridgeSession.uartRX.littleEndianBytes, tx = GadgetbridgeSession.uartTX.littleEndianBytes
        try f.link.run([
            .peer(pdu(0x08, 0x0D, 0x00, 0x12, 0x00, 0x03, 0x28)),
            .watch(pdu(0x09, 0x15, 0x0E, 0x00, 0x0C, 0x0F, 0x00) + rx),
            .peer(pdu(0x08, 0x10, 0x00, 0x12, 0x00, 0x03, 0x28)),
            .watch(pdu(0x09, 0x15, 0x10, 0x00, 0x10, 0x11, 0x00) + tx),
            .peer(pdu(0x12, 0x0F, 0x00) + Array("GB({".utf8)),
            .watch(pdu(0x13)),
            .peer(pdu(0x52, 0x0F, 0x00) + Array("})\n".utf8)),
            .peer(pdu(0x12, 0x12, 0x00, 0x01, 0x00)),
            .watch(pdu(0x13)),
        ])
        #expect(f.uartWrites == [Array("GB({".utf8), Array("})\n".utf8)])
        #expect(f.server.clientConfiguration(of: f.handles.uartTX) == 1)
        #expect(Array("hi".utf8).withUnsafeBytes { f.server.notify(valueHandle: f.handles.uartTX, value: $0) })
        try f.link.run([.watch(pdu(0x1B, 0x11, 0x00) + Array("hi".utf8))])
    }

    @Test func gapValues() throws {
        let f = try Fixture()
        try f.link.run([
            .peer(pdu(0x0A, 0x03, 0x00)), .watch(pdu(0x0B) + Array("WristCore".utf8)),
            .peer(pdu(0x0A, 0x05, 0x00)), .watch(pdu(0x0B, 0xC0, 0x00)),  // Generic Watch
            .peer(pdu(0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x2A)), .watch(pdu(0x09, 0x0B, 0x03, 0x00) + Array("WristCore".utf8)),
        ])
    }

    @Test func longNameIsReadWithReadBlob() throws {
        let name = "WristCore watch on the bench #42"  // 32 bytes > MTU-1
        let f = try Fixture(name: name)
        let bytes = Array(name.utf8)
        try f.link.run([
            .peer(pdu(0x0A, 0x03, 0x00)), .watch(pdu(0x0B) + bytes[0..<22]),
            .peer(pdu(0x0C, 0x03, 0x00, 22, 0x00)), .watch(pdu(0x0D) + bytes[22...]),
            .peer(pdu(0x0C, 0x03, 0x00, 32, 0x00)), .watch(pdu(0x0D)),
            .peer(pdu(0x0C, 0x03, 0x00, 33, 0x00)), .watch(pdu(0x01, 0x0C, 0x03, 0x00, 0x07)),  // Invalid Offset
        ])
    }

    @Test func encryptedCharacteristicTriggersPairing() throws {
        let f = try Fixture()
        try f.link.run([
            .peer(pdu(0x0A, 0x0C, 0x00)), .watch(pdu(0x01, 0x0A, 0x0C, 0x00, 0x05)),  // Insufficient Authentication
            // iOS also discovers it by type: the first match is refused the same way.
            .peer(pdu(0x08, 0x0A, 0x00, 0x0C, 0x00) + WatchGATTDatabase.pairingCharacteristic.littleEndianBytes),
            .watch(pdu(0x01, 0x08, 0x0C, 0x00, 0x05)),
        ])
        f.security.complete(.encrypted)
        try f.link.run([.peer(pdu(0x0A, 0x0C, 0x00)), .watch(pdu(0x0B) + Array("WC1".utf8))])
    }

    @Test func everythingElseGetsTheRightErrorCode() throws {
        let f = try Fixture()
        try f.link.run([
            .peer(pdu(0x0A, 0x99, 0x00)), .watch(pdu(0x01, 0x0A, 0x99, 0x00, 0x01)),  // Invalid Handle
            .peer(pdu(0x0A, 0x00, 0x00)), .watch(pdu(0x01, 0x0A, 0x00, 0x00, 0x01)),
            .peer(pdu(0x12, 0x03, 0x00, 0x41)), .watch(pdu(0x01, 0x12, 0x03, 0x00, 0x03)),  // Write Not Permitted
            .peer(pdu(0x0A, 0x09, 0x00)), .watch(pdu(0x0B, 0x00, 0x00)),  // CCCD readable
            .peer(pdu(0x12, 0x09, 0x00, 0x01)), .watch(pdu(0x01, 0x12, 0x09, 0x00, 0x0D)),  // Invalid Attribute Value Length
            .peer(pdu(0x12, 0x09, 0x00, 0x01, 0x00)), .watch(pdu(0x01, 0x12, 0x09, 0x00, 0xFD)),  // notify on indicate-only
            .peer(pdu(0x12, 0x09, 0x00, 0x04, 0x00)), .watch(pdu(0x01, 0x12, 0x09, 0x00, 0x13)),  // reserved bits
            .peer(pdu(0x04, 0x05, 0x00, 0x04, 0x00)), .watch(pdu(0x01, 0x04, 0x05, 0x00, 0x01)),  // start > end
            .peer(pdu(0x04, 0x00, 0x00, 0x04, 0x00)), .watch(pdu(0x01, 0x04, 0x00, 0x00, 0x01)),  // start 0
            .peer(pdu(0x16, 0x03, 0x00, 0x00, 0x00, 0x41)), .watch(pdu(0x01, 0x16, 0x03, 0x00, 0x03)),  // Prepare Write: Write Not Permitted
            .peer(pdu(0x18, 0x01)), .watch(pdu(0x19)),  // Execute Write of an empty queue
            .peer(pdu(0x0E, 0x03, 0x00, 0x05, 0x00)), .watch(pdu(0x01, 0x0E, 0x00, 0x00, 0x06)),  // Read Multiple
            .peer(pdu(0x20, 0x03, 0x00, 0x05, 0x00)), .watch(pdu(0x01, 0x20, 0x00, 0x00, 0x06)),  // Read Multiple Variable
            .peer(pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x05, 0x18)), .watch(pdu(0x01, 0x06, 0x01, 0x00, 0x0A)),
            .peer(pdu(0x08, 0x01, 0x00, 0xFF, 0xFF, 0x2B, 0x2A)), .watch(pdu(0x01, 0x08, 0x01, 0x00, 0x0A)),
            .peer(pdu(0x52, 0x03, 0x00, 0x41)),  // Write Command to a read-only value: ignored, no answer
            .peer(pdu(0xD2, 0x03, 0x00, 0x41, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),  // signed: ignored
            .peer(pdu(0x0A, 0x03, 0x00)), .watch(pdu(0x0B) + Array("WristCore".utf8)),
        ])
    }

    @Test func serviceChangedIsIndicatedOnlyToASubscribedPeer() throws {
        let f = try Fixture()
        #expect(!f.server.serviceChanged(ATTHandleRange(start: 0x0D, end: 0xFFFF)))
        var subscriptions: [(UInt16, UInt16)] = []
        f.server.subscriptionHandler = { subscriptions.append(($0, $1)) }
        try f.link.run([.peer(pdu(0x12, 0x09, 0x00, 0x02, 0x00)), .watch(pdu(0x13))])
        #expect(subscriptions.count == 1 && subscriptions[0] == (8, 2))
        var confirmed = false
        #expect(f.server.serviceChanged(ATTHandleRange(start: 0x0D, end: 0xFFFF)) { confirmed = $0 == nil })
        try f.link.run([.watch(pdu(0x1D, 0x08, 0x00, 0x0D, 0x00, 0xFF, 0xFF)), .peer(pdu(0x1E))])
        try f.link.run(until: { confirmed })
        #expect(confirmed)
    }

    @Test func servicesCanBePublishedAndRemovedAtRunTime() throws {
        let server = GATTServer()
        let a = try server.publish(GATTServiceDefinition(uuid: .battery, characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: [50]),
        ]))
        #expect(a.range == ATTHandleRange(start: 1, end: 4))
        #expect(a.cccdHandles == [4])
        let b = try server.publish(GATTServiceDefinition(uuid: .deviceInformation, characteristics: []), at: 0x40)
        #expect(b.range == ATTHandleRange(start: 0x40, end: 0x40))
        #expect(throws: GATTServerError.noRoom(needed: 1)) {
            try server.publish(GATTServiceDefinition(uuid: .deviceInformation, characteristics: []), at: 0x03)
        }
        #expect(server.unpublish(serviceAt: 1) == a.range)
        let c = try server.publish(GATTServiceDefinition(uuid: .deviceInformation, characteristics: []))
        #expect(c.range.start == 1, "freed handles are reused")
    }
}
