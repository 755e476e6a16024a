import ANCS
import Notifications
import ATTCodec
import GATT
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import PhoneServices
import SimBoard
import Testing

/// The watch's GATT client against the simulated iPhone, through the real
/// EventLoop over a SEQPACKET socket pair.
final class PhoneLink {
    let loop: EpollLoop
    let clock: ManualClock?
    let link: SimulatedLink
    let phone: SimulatedPhone
    let bearer: ATTBearer
    let client: GATTClient
    let server: GATTServer
    var added: [GATTService] = []
    var removed: [GATTService] = []
    var failures: [GATTError] = []
    var ready = false
    var requestsSent = 0

    init(_ config: SimulatedPhone.Configuration = .init(), watchMTU: Int = ATT.maximumMTU, manualClock: Bool = false, startClient: Bool = true) throws {
        if manualClock {
            let c = ManualClock()
            clock = c
            loop = try EpollLoop(clock: .manual(c))
        } else {
            clock = nil
            loop = try EpollLoop()
        }
        link = SimulatedLink(timers: loop)
        let (w, p) = try SeqPacketChannel.pair()
        phone = SimulatedPhone(channel: p, loop: loop, security: link.phoneEnd, configuration: config)
        var bc = ATTBearer.Configuration()
        bc.localMTU = watchMTU
        bearer = ATTBearer(channel: w, loop: loop, security: link.watchEnd, configuration: bc)
        server = WatchGATTDatabase.makeServer(deviceName: "WristCore", security: link.watchEnd).0
        server.attach(to: bearer)
        client = GATTClient(bearer: bearer, watching: [.currentTimeService, .ancsService])
        client.eventHandler = { [unowned self] e in
            switch e {
            case .serviceAdded(let s): self.added.append(s)
            case .serviceRemoved(let s): self.removed.append(s)
            case .discoveryFailed(let err): self.failures.append(err)
            case .ready: self.ready = true
            case .closed: break
            }
        }
        bearer.traceHandler = { [unowned self] dir, p in
            if dir == .sent, let op = p.first, ATTOpcode.kind(ofRaw: op) == .request { self.requestsSent += 1 }
        }
        try phone.start()
        try bearer.start()
        if startClient { client.start() }
    }

    @discardableResult
    func run(until condition: () -> Bool, timeout: Duration = .seconds(3)) throws -> Bool {
        try loop.runUntil(timeout: timeout, condition)
    }

    func settle() throws { _ = try loop.runUntil(timeout: .milliseconds(50)) { false } }
}

@Suite("GATT client against the simulated iPhone")
struct SimulatedPhoneTests {
    @Test(arguments: [23, 185, 517])
    func fullDiscoveryOfTheIPhoneDatabase(mtu: Int) throws {
        var config = SimulatedPhone.Configuration()
        config.mtu = mtu
        let t = try PhoneLink(config)
        try t.run(until: { t.ready })
        #expect(t.failures.isEmpty)
        #expect(t.bearer.mtu == mtu)
        let h = t.phone.handles
        let ancsRange = try #require(h.ancs)
        #expect(ancsRange.start > 0x20, "ANCS is far from handle 1 on an iPhone")
        let ancs = try #require(t.client.service(.ancsService))
        #expect(ancs.range == ancsRange)
        #expect(ancs.characteristic(.ancsNotificationSource)?.valueHandle == h.notificationSource)
        #expect(ancs.characteristic(.ancsNotificationSource)?.cccdHandle == h.notificationSource + 1)
        #expect(ancs.characteristic(.ancsControlPoint)?.valueHandle == h.controlPoint)
        #expect(ancs.characteristic(.ancsControlPoint)?.cccdHandle == nil)
        #expect(ancs.characteristic(.ancsDataSource)?.valueHandle == h.dataSource)
        #expect(ancs.characteristic(.ancsDataSource)?.cccdHandle == h.dataSource + 1)
        let cts = try #require(t.client.service(.currentTimeService))
        #expect(cts.characteristic(.currentTime)?.valueHandle == h.currentTime)
        #expect(cts.characteristic(.localTimeInformation)?.valueHandle == h.localTimeInformation)
        #expect(t.client.serviceChangedHandle == h.serviceChanged)
        #expect(t.added.map(\.uuid) == [.currentTimeService, .ancsService])
        #expect(t.client.services.count == 3, "only watched services (and GATT) are kept")
        // The phone exchanged MTU and read our name meanwhile.
        try t.run(until: { t.phone.watchName != nil })
        #expect(t.phone.watchName == "WristCore")
        try t.run(until: { t.phone.log.contains("service changed subscribed") })
        // At MTU 23 each 128-bit characteristic needs its own Read By Type.
        // MTU exchange, 6 Find By Type Value, 6 or 8 Read By Type, 4 Find Information, the CCCD write.
        #expect(t.requestsSent == (mtu == 23 ? 20 : 18))
    }

    @Test func ancsAbsentAtConnectAppearsWithServiceChanged() throws {
        var config = SimulatedPhone.Configuration()
        config.ancsPublished = false
        let t = try PhoneLink(config)
        try t.run(until: { t.ready })
        #expect(t.client.service(.ancsService) == nil)
        #expect(t.added.map(\.uuid) == [.currentTimeService])
        try t.run(until: { t.phone.log.contains("service changed subscribed") })
        t.phone.perform(.publishANCS(at: 0x0060))
        try t.run(until: { t.added.count == 2 })
        let ancs = try #require(t.client.service(.ancsService))
        #expect(ancs.range.start == 0x0060)
        #expect(ancs.characteristic(.ancsDataSource)?.valueHandle == t.phone.handles.dataSource)
    }

    @Test func ancsRemovedThenReaddedAtNewHandlesMidSession() throws {
        let t = try PhoneLink()
        try t.run(until: { t.ready })
        try t.run(until: { t.phone.log.contains("service changed subscribed") })
        let before = try #require(t.client.service(.ancsService))
        t.phone.perform(.unpublishANCS)
        try t.run(until: { t.removed.count == 1 })
        #expect(t.removed == [before])
        #expect(t.client.service(.ancsService) == nil)
        #expect(t.client.service(.currentTimeService) != nil, "services outside the range stay")
        t.phone.perform(.publishANCS(at: 0x0100))
        try t.run(until: { t.added.count == 3 })
        let after = try #require(t.client.service(.ancsService))
        #expect(after.range.start == 0x0100)
        #expect(after.range != before.range)
        #expect(after.characteristic(.ancsNotificationSource)?.valueHandle == t.phone.handles.notificationSource)
    }

    @Test func subscribingToEncryptedANCSPairsAndRetries() throws {
        var config = SimulatedPhone.Configuration()
        config.requireEncryption = true
        let t = try PhoneLink(config)
        try t.run(until: { t.ready })
        let ns = try #require(t.client.service(.ancsService)?.characteristic(.ancsNotificationSource))
        var result: GATTError?? = .none
        var received: [[UInt8]] = []
        t.client.subscribe(ns, handler: { received.append(Array($0)) }) { result = .some($0) }
        try t.run(until: { result != nil })
        #expect(result == .some(nil), "the subscription succeeds after pairing")
        #expect(t.link.level == .encrypted)
        #expect(t.link.pairingRequests == 1)
        #expect(t.bearer.statistics.securityRetries == 1)
        #expect(t.phone.ancsSessionActive)
        t.phone.perform(.add(SimulatedNotification(uid: 7, category: .social, title: "Anna")))
        try t.run(until: { received.count == 1 })
        #expect(received == [[0, 0x10, 4, 1, 7, 0, 0, 0]])
    }

    @Test func pairingRefusedSurfacesInsufficientAuthentication() throws {
        var config = SimulatedPhone.Configuration()
        config.requireEncryption = true
        let t = try PhoneLink(config)
        t.link.pairingSucceeds = false
        try t.run(until: { t.ready })
        let ns = try #require(t.client.service(.ancsService)?.characteristic(.ancsNotificationSource))
        var result: GATTError?? = .none
        t.client.subscribe(ns, handler: { _ in }) { result = .some($0) }
        try t.run(until: { result != nil })
        #expect(result == .some(.att(.insufficientAuthentication, handle: ns.cccdHandle!)))
        #expect(!t.phone.ancsSessionActive)
    }

    @Test func phoneInitiatedPairingThroughTheWatchsEncryptedCharacteristic() throws {
        let t = try PhoneLink()
        try t.run(until: { t.ready })
        t.phone.perform(.pair)
        try t.run(until: { t.phone.log.contains { $0.hasPrefix("paired") } })
        #expect(t.link.level == .encrypted)
        #expect(t.phone.log.contains("paired (level encrypted)"))
    }

    @Test func currentTimeIsReadSubscribedAndUpdated() throws {
        let t = try PhoneLink()
        let cts = CurrentTimeClient(client: t.client, clock: t.loop)
        var times: [CurrentTime] = []
        cts.timeHandler = { times.append($0.time) }
        t.client.eventHandler = { e in if case .serviceAdded(let s) = e { cts.serviceAdded(s) } }
        try t.run(until: { times.count == 1 && cts.localTimeInformation != nil })
        #expect(times.first == CurrentTime(year: 2024, month: 5, day: 1, hours: 12, minutes: 0, seconds: 0, dayOfWeek: 3))
        #expect(cts.localTimeInformation == LocalTimeInformation(timeZoneQuarterHours: 4, dstQuarterHours: 4))
        #expect(cts.localTimeInformation?.utcOffsetSeconds == 7200)
        try t.run(until: { t.phone.log.contains("current time subscribed") })
        let new = CurrentTime(year: 2024, month: 12, day: 31, hours: 23, minutes: 59, seconds: 58, dayOfWeek: 2, adjustReason: .manualTimeUpdate)
        t.phone.perform(.setTime(new))
        try t.run(until: { times.count == 2 })
        #expect(times.last == new)
        let clock = try #require(cts.phoneClock)
        #expect(clock.localTime(at: clock.receivedAt.advanced(by: .seconds(3))) == CurrentTime(year: 2025, month: 1, day: 1, hours: 0, minutes: 0, seconds: 1, dayOfWeek: 3))
    }

    @Test func phoneDisconnectClosesTheWatchBearer() throws {
        let t = try PhoneLink()
        try t.run(until: { t.ready })
        var closed: ATTBearerError?
        t.client.eventHandler = { if case .closed(let r) = $0 { closed = r } }
        t.phone.perform(.disconnect)
        try t.run(until: { closed != nil })
        #expect(closed == .linkClosed)
    }
}
