import ATTCodec
import GATT
import PhoneServices
import HAL
import LinuxHAL
import Loop
import Testing

/// The GATT client against a scripted phone, BlueZ test-gatt style, at MTU 23.
/// Phone database: GATT 0x0006-0x0009 (Service Changed 0x0008, CCCD 0x0009),
/// Current Time 0x0020-0x0025 (Current Time 0x0022 + CCCD 0x0023, Local Time
/// Information 0x0025), ANCS 0x0030-0x0039 (Notification Source 0x0032 + CCCD
/// 0x0033, Control Point 0x0035, Data Source 0x0038 + CCCD 0x0039).
@Suite("GATT client discovery (raw PDUs)")
struct ClientDiscoveryTests {
    static let ancs = BluetoothUUID.ancsService.littleEndianBytes
    static let ns = BluetoothUUID.ancsNotificationSource.littleEndianBytes
    static let cp = BluetoothUUID.ancsControlPoint.littleEndianBytes
    static let ds = BluetoothUUID.ancsDataSource.littleEndianBytes

    /// (request the watch sends, response the phone gives), in order.
    static let discovery: [([UInt8], [UInt8])] = [
        (pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x01, 0x18), pdu(0x07, 0x06, 0x00, 0x09, 0x00)),
        (pdu(0x06, 0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x01, 0x18), pdu(0x01, 0x06, 0x0A, 0x00, 0x0A)),
        (pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x05, 0x18), pdu(0x07, 0x20, 0x00, 0x25, 0x00)),
        (pdu(0x06, 0x26, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x05, 0x18), pdu(0x01, 0x06, 0x26, 0x00, 0x0A)),
        (pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28) + ancs, pdu(0x07, 0x30, 0x00, 0x39, 0x00)),
        (pdu(0x06, 0x3A, 0x00, 0xFF, 0xFF, 0x00, 0x28) + ancs, pdu(0x01, 0x06, 0x3A, 0x00, 0x0A)),
        (pdu(0x08, 0x06, 0x00, 0x09, 0x00, 0x03, 0x28), pdu(0x09, 0x07, 0x07, 0x00, 0x20, 0x08, 0x00, 0x05, 0x2A)),
        (pdu(0x08, 0x08, 0x00, 0x09, 0x00, 0x03, 0x28), pdu(0x01, 0x08, 0x08, 0x00, 0x0A)),
        (
            pdu(0x08, 0x20, 0x00, 0x25, 0x00, 0x03, 0x28),
            pdu(0x09, 0x07, 0x21, 0x00, 0x12, 0x22, 0x00, 0x2B, 0x2A, 0x24, 0x00, 0x02, 0x25, 0x00, 0x0F, 0x2A)
        ),
        (pdu(0x08, 0x25, 0x00, 0x25, 0x00, 0x03, 0x28), pdu(0x01, 0x08, 0x25, 0x00, 0x0A)),
        (pdu(0x08, 0x30, 0x00, 0x39, 0x00, 0x03, 0x28), pdu(0x09, 0x15, 0x31, 0x00, 0x10, 0x32, 0x00) + ns),
        (pdu(0x08, 0x32, 0x00, 0x39, 0x00, 0x03, 0x28), pdu(0x09, 0x15, 0x34, 0x00, 0x88, 0x35, 0x00) + cp),
        (pdu(0x08, 0x35, 0x00, 0x39, 0x00, 0x03, 0x28), pdu(0x09, 0x15, 0x37, 0x00, 0x10, 0x38, 0x00) + ds),
        (pdu(0x08, 0x38, 0x00, 0x39, 0x00, 0x03, 0x28), pdu(0x01, 0x08, 0x38, 0x00, 0x0A)),
        (pdu(0x04, 0x09, 0x00, 0x09, 0x00), pdu(0x05, 0x01, 0x09, 0x00, 0x02, 0x29)),
        (pdu(0x04, 0x23, 0x00, 0x23, 0x00), pdu(0x05, 0x01, 0x23, 0x00, 0x02, 0x29)),
        (pdu(0x04, 0x33, 0x00, 0x33, 0x00), pdu(0x05, 0x01, 0x33, 0x00, 0x02, 0x29)),
        (pdu(0x04, 0x39, 0x00, 0x39, 0x00), pdu(0x05, 0x01, 0x39, 0x00, 0x02, 0x29)),
    ]

    final class Fixture {
        let link: RawLink
        let bearer: ATTBearer
        let client: GATTClient
        var added: [GATTService] = []
        var removed: [GATTService] = []
        var failures: [GATTError] = []
        var ready = 0
        init(manualClock: Bool = false) throws {
            link = try RawLink(manualClock: manualClock)
            bearer = ATTBearer(channel: link.watch, loop: link.loop)
            client = GATTClient(bearer: bearer, watching: [.currentTimeService, .ancsService])
            client.eventHandler = { [unowned self] e in
                switch e {
                case .serviceAdded(let s): self.added.append(s)
                case .serviceRemoved(let s): self.removed.append(s)
                case .discoveryFailed(let err): self.failures.append(err)
                case .ready: self.ready += 1
                case .closed: break
                }
            }
            try bearer.start()
            client.start()
            try link.run([.watch(pdu(0x02, 0x05, 0x02)), .peer(pdu(0x03, 0x17, 0x00))])
        }
    }

    static let expectedANCS = GATTService(
        uuid: .ancsService, range: ATTHandleRange(start: 0x30, end: 0x39),
        characteristics: [
            GATTCharacteristic(uuid: .ancsNotificationSource, declarationHandle: 0x31, valueHandle: 0x32, properties: [.notify], endHandle: 0x33, cccdHandle: 0x33),
            GATTCharacteristic(uuid: .ancsControlPoint, declarationHandle: 0x34, valueHandle: 0x35, properties: [.write, .extendedProperties], endHandle: 0x36),
            GATTCharacteristic(uuid: .ancsDataSource, declarationHandle: 0x37, valueHandle: 0x38, properties: [.notify], endHandle: 0x39, cccdHandle: 0x39),
        ])
    static let expectedCTS = GATTService(
        uuid: .currentTimeService, range: ATTHandleRange(start: 0x20, end: 0x25),
        characteristics: [
            GATTCharacteristic(uuid: .currentTime, declarationHandle: 0x21, valueHandle: 0x22, properties: [.read, .notify], endHandle: 0x23, cccdHandle: 0x23),
            GATTCharacteristic(uuid: .localTimeInformation, declarationHandle: 0x24, valueHandle: 0x25, properties: [.read], endHandle: 0x25),
        ])

    @Test func fullDiscoveryAtMTU23() throws {
        let f = try Fixture()
        for (request, response) in Self.discovery {
            try f.link.run([.watch(request), .peer(response)])
        }
        // Then the client subscribes to Service Changed indications.
        try f.link.run([.watch(pdu(0x12, 0x09, 0x00, 0x02, 0x00)), .peer(pdu(0x13))])
        try f.link.run(until: { f.ready == 1 })
        #expect(f.added == [Self.expectedCTS, Self.expectedANCS])
        #expect(f.failures.isEmpty)
        #expect(f.client.serviceChangedHandle == 0x08)
        #expect(f.client.service(.ancsService) == Self.expectedANCS)
        #expect(try f.link.settle() == nil)
    }

    /// Every step of the discovery answered with an error instead: the client
    /// reports the failure, says it is ready, and sends nothing more.
    @Test(arguments: 0..<18)
    func errorResponseAtEveryStep(_ step: Int) throws {
        let f = try Fixture()
        for (request, response) in Self.discovery[..<step] {
            try f.link.run([.watch(request), .peer(response)])
        }
        let request = Self.discovery[step].0
        let handle = Array(request[1...2])
        try f.link.run([.watch(request), .peer(pdu(0x01, request[0]) + handle + pdu(0x0E))])
        try f.link.run(until: { f.ready == 1 })
        #expect(f.failures == [.att(.unlikelyError, handle: UInt16(handle[0]) | UInt16(handle[1]) << 8)])
        #expect(f.added.isEmpty)
        #expect(try f.link.settle() == nil)
    }

    @Test func rejectedMTUExchangeLeavesMTUAt23AndDiscoveryGoesOn() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        let client = GATTClient(bearer: bearer, watching: [.ancsService])
        try bearer.start()
        client.start()
        try link.run([
            .watch(pdu(0x02, 0x05, 0x02)), .peer(pdu(0x01, 0x02, 0x00, 0x00, 0x06)),
            .watch(Self.discovery[0].0),
        ])
        #expect(bearer.mtu == 23)
    }

    @Test func discoveryStopsWhenThePeerMakesNoProgress() throws {
        let f = try Fixture()
        try f.link.run([
            .watch(Self.discovery[0].0), .peer(Self.discovery[0].1),
            .watch(Self.discovery[1].0),
            // A broken server answering a service below the requested start.
            .peer(pdu(0x07, 0x06, 0x00, 0x09, 0x00)),
        ])
        try f.link.run(until: { f.ready == 1 })
        if case .invalidResponse = f.failures.first {} else { Issue.record("expected invalidResponse, got \(f.failures)") }
    }

    @Test func serviceChangedRemovesAndRediscoversTheRange() throws {
        let f = try Fixture()
        for (request, response) in Self.discovery { try f.link.run([.watch(request), .peer(response)]) }
        try f.link.run([.watch(pdu(0x12, 0x09, 0x00, 0x02, 0x00)), .peer(pdu(0x13))])
        try f.link.run(until: { f.ready == 1 })
        var notified: [[UInt8]] = []
        f.client.setNotificationHandler(valueHandle: 0x32) { notified.append(Array($0)) }
        // ANCS removed: the indication is confirmed, ANCS reported gone, the range searched again.
        try f.link.run([
            .peer(pdu(0x1D, 0x08, 0x00, 0x30, 0x00, 0x39, 0x00)),
            .watch(pdu(0x1E)),
            .watch(pdu(0x06, 0x30, 0x00, 0x39, 0x00, 0x00, 0x28, 0x05, 0x18)), .peer(pdu(0x01, 0x06, 0x30, 0x00, 0x0A)),
            .watch(pdu(0x06, 0x30, 0x00, 0x39, 0x00, 0x00, 0x28) + Self.ancs), .peer(pdu(0x01, 0x06, 0x30, 0x00, 0x0A)),
        ])
        try f.link.run(until: { !f.client.isDiscovering })
        #expect(f.removed == [Self.expectedANCS])
        #expect(f.client.service(.ancsService) == nil)
        // Routes into the removed range are gone.
        try f.link.send(pdu(0x1B, 0x32, 0x00, 0x01))
        #expect(try f.link.settle() == nil)
        #expect(notified.isEmpty)
        // ANCS comes back at 0x0050-0x0059.
        try f.link.run([
            .peer(pdu(0x1D, 0x08, 0x00, 0x50, 0x00, 0x59, 0x00)),
            .watch(pdu(0x1E)),
            .watch(pdu(0x06, 0x50, 0x00, 0x59, 0x00, 0x00, 0x28, 0x05, 0x18)), .peer(pdu(0x01, 0x06, 0x50, 0x00, 0x0A)),
            .watch(pdu(0x06, 0x50, 0x00, 0x59, 0x00, 0x00, 0x28) + Self.ancs), .peer(pdu(0x07, 0x50, 0x00, 0x59, 0x00)),
            .watch(pdu(0x08, 0x50, 0x00, 0x59, 0x00, 0x03, 0x28)), .peer(pdu(0x09, 0x15, 0x51, 0x00, 0x10, 0x52, 0x00) + Self.ns),
            .watch(pdu(0x08, 0x52, 0x00, 0x59, 0x00, 0x03, 0x28)), .peer(pdu(0x09, 0x15, 0x54, 0x00, 0x88, 0x55, 0x00) + Self.cp),
            .watch(pdu(0x08, 0x55, 0x00, 0x59, 0x00, 0x03, 0x28)), .peer(pdu(0x09, 0x15, 0x57, 0x00, 0x10, 0x58, 0x00) + Self.ds),
            .watch(pdu(0x08, 0x58, 0x00, 0x59, 0x00, 0x03, 0x28)), .peer(pdu(0x01, 0x08, 0x58, 0x00, 0x0A)),
            .watch(pdu(0x04, 0x53, 0x00, 0x53, 0x00)), .peer(pdu(0x05, 0x01, 0x53, 0x00, 0x02, 0x29)),
            .watch(pdu(0x04, 0x59, 0x00, 0x59, 0x00)), .peer(pdu(0x05, 0x01, 0x59, 0x00, 0x02, 0x29)),
        ])
        try f.link.run(until: { f.added.count == 3 })
        let ancs = try #require(f.client.service(.ancsService))
        #expect(ancs.range == ATTHandleRange(start: 0x50, end: 0x59))
        #expect(ancs.characteristic(.ancsNotificationSource)?.cccdHandle == 0x53)
        #expect(ancs.characteristic(.ancsDataSource)?.valueHandle == 0x58)
        #expect(f.ready == 1)
    }

    @Test func serviceChangedDuringDiscoveryIsHandledAfterIt() throws {
        let f = try Fixture()
        for (request, response) in Self.discovery[..<4] { try f.link.run([.watch(request), .peer(response)]) }
        try f.link.run([
            .watch(Self.discovery[4].0),
            .peer(pdu(0x1D, 0x08, 0x00, 0x30, 0x00, 0x39, 0x00)),  // arrives mid-discovery
            .watch(pdu(0x1E)),
            .peer(Self.discovery[4].1),
        ])
        for (request, response) in Self.discovery[5...] { try f.link.run([.watch(request), .peer(response)]) }
        try f.link.run([.watch(pdu(0x12, 0x09, 0x00, 0x02, 0x00)), .peer(pdu(0x13))])
        // Then the pending change is processed: ANCS removed and searched for again.
        try f.link.run([
            .watch(pdu(0x06, 0x30, 0x00, 0x39, 0x00, 0x00, 0x28, 0x05, 0x18)), .peer(pdu(0x01, 0x06, 0x30, 0x00, 0x0A)),
            .watch(pdu(0x06, 0x30, 0x00, 0x39, 0x00, 0x00, 0x28) + Self.ancs), .peer(pdu(0x01, 0x06, 0x30, 0x00, 0x0A)),
        ])
        try f.link.run(until: { !f.client.isDiscovering && f.removed.count == 1 })
        #expect(f.removed.map(\.uuid) == [.ancsService])
        #expect(f.client.service(.ancsService) == nil)
    }
}
