import AMS
import ATTCodec
import GATT
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import PhoneServices
import Testing

/// A phone that has only GATT and AMS, whose AMS characteristics record
/// every write and answer with what the test scripts: the PhoneSession's
/// ATT exchanges over a SEQPACKET socket pair, byte for byte.
final class AMSPeer {
    let loop: EpollLoop
    let bearer: ATTBearer
    let server: GATTServer
    let session: PhoneSession
    var events: [MediaEvent] = []
    /// (characteristic, bytes) of every write, in order.
    var writes: [(String, [UInt8])] = []
    /// The error the next Remote Command write gets.
    var remoteCommandError: ATTErrorCode?
    /// What a read of Entity Attribute returns.
    var entityAttributeValue: [UInt8] = []
    var entityAttributeReads = 0
    var amsRange: ATTHandleRange?
    var remoteCommand: UInt16 = 0
    var entityUpdate: UInt16 = 0

    /// - Parameter offering: which AMS characteristics the phone has (the specification allows any subset).
    init(mtu: Int = 23, publishAMS: Bool = true, offering: Set<String> = ["remote command", "entity update", "entity attribute"]) throws {
        loop = try EpollLoop()
        let (w, p) = try SeqPacketChannel.pair()
        var config = ATTBearer.Configuration()
        config.localMTU = mtu
        bearer = ATTBearer(channel: p, loop: loop, configuration: config)
        server = GATTServer()
        _ = try server.publishGenericAttributeService()
        var watchConfig = ATTBearer.Configuration()
        watchConfig.localMTU = mtu
        session = PhoneSession(channel: w, loop: loop, security: nil, bearerConfiguration: watchConfig)
        server.attach(to: bearer)
        if publishAMS { try publish(offering: offering) }
        session.eventHandler = { [unowned self] e in
            if case .media(let m) = e { self.events.append(m) }
        }
        try bearer.start()
        try session.start()
    }

    func publish(offering: Set<String> = ["remote command", "entity update", "entity attribute"]) throws {
        let all = [
            GATTCharacteristicDefinition(uuid: .amsRemoteCommand, properties: [.write, .notify], write: { [unowned self] v in
                self.writes.append(("remote command", Array(v)))
                return self.remoteCommandError
            }),
            GATTCharacteristicDefinition(uuid: .amsEntityUpdate, properties: [.write, .notify], write: { [unowned self] v in
                self.writes.append(("entity update", Array(v)))
                return nil
            }),
            GATTCharacteristicDefinition(
                uuid: .amsEntityAttribute, properties: [.read, .write],
                read: { [unowned self] in
                    self.entityAttributeReads += 1
                    return self.entityAttributeValue
                },
                write: { [unowned self] v in
                    self.writes.append(("entity attribute", Array(v)))
                    return nil
                }),
        ]
        let names = ["remote command", "entity update", "entity attribute"]
        let offered = zip(names, all).filter { offering.contains($0.0) }
        let s = try server.publish(GATTServiceDefinition(uuid: .amsService, characteristics: offered.map { $0.1 }))
        amsRange = s.range
        for (i, (name, _)) in offered.enumerated() {
            if name == "remote command" { remoteCommand = s.valueHandles[i] }
            if name == "entity update" { entityUpdate = s.valueHandles[i] }
        }
    }

    func notify(_ handle: UInt16, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { server.notify(valueHandle: handle, value: $0) }
    }

    func entityUpdate(_ e: UInt8, _ a: UInt8, _ text: String, truncated: Bool = false) {
        notify(entityUpdate, [e, a, truncated ? 1 : 0] + Array(text.utf8))
    }

    @discardableResult
    func run(until condition: () -> Bool, timeout: Duration = .seconds(3)) throws -> Bool {
        try loop.runUntil(timeout: timeout, condition)
    }

    var available: Bool { events.contains(.available) }
}

@Suite("AMS through PhoneSession, scripted over a socket pair")
struct MediaSessionTests {
    @Test func aPhoneWithRemoteCommandOnlyGetsButtons() throws {
        let p = try AMSPeer(offering: ["remote command"])
        try p.run(until: { p.available })
        #expect(p.writes.isEmpty, "nothing to register with")
        #expect(p.session.media.hasPlayer)
        #expect(p.session.sendRemoteCommand(.togglePlayPause))
        try p.run(until: { p.writes.last?.0 == "remote command" })
    }

    @Test func aPhoneWithEntityUpdateOnlyShowsNowPlaying() throws {
        let p = try AMSPeer(offering: ["entity update"])
        try p.run(until: { p.available })
        p.entityUpdate(2, 2, "Hey Jude")
        try p.run(until: { p.session.media.title.string == "Hey Jude" })
        #expect(!p.session.sendRemoteCommand(.togglePlayPause), "no Remote Command on this phone")
    }

    @Test func discoversAMSAndRegistersPlayerThenTrack() throws {
        let p = try AMSPeer()
        try p.run(until: { p.available })
        #expect(p.server.clientConfiguration(of: p.remoteCommand) == 1)
        #expect(p.server.clientConfiguration(of: p.entityUpdate) == 1)
        #expect(p.writes.map(\.0) == ["entity update", "entity update"])
        #expect(p.writes.map(\.1) == [[0x00, 0x00, 0x01, 0x02], [0x02, 0x00, 0x01, 0x02, 0x03]])
        #expect(p.session.mediaSession.service?.uuid == .amsService)
    }

    @Test func entityUpdatesReachTheMediaState() throws {
        let p = try AMSPeer()
        try p.run(until: { p.available })
        p.entityUpdate(0, 0, "Music")
        p.entityUpdate(0, 1, "1,1.0,12.5")
        p.entityUpdate(2, 0, "The Beatles")
        p.entityUpdate(2, 2, "Hey Jude")
        p.entityUpdate(2, 3, "431.333")
        try p.run(until: { p.session.media.durationMilliseconds != nil })
        let m = p.session.media
        #expect(m.playerName.string == "Music" && m.artist.string == "The Beatles" && m.title.string == "Hey Jude")
        #expect(m.playbackState == .playing && m.elapsedMilliseconds == 12_500)
        #expect(m.hasPlayer)
        #expect(p.events.contains(.changed(.track)) && p.events.contains(.changed(.playback)))
    }

    @Test func aTruncatedTitleIsWrittenThenReadWithReadBlob() throws {
        // MTU 23: the whole title needs a Read and several Read Blobs.
        let p = try AMSPeer(mtu: 23)
        try p.run(until: { p.available })
        let whole = "Come On! Feel the Illinoise! Part I: The World's Columbian Exposition"
        p.entityAttributeValue = Array(whole.utf8)
        p.entityUpdate(2, 2, String(whole.prefix(17)), truncated: true)
        try p.run(until: { p.session.media.title.string == whole })
        #expect(p.writes.last.map { $0.0 } == "entity attribute")
        #expect(p.writes.last.map { $0.1 } == [0x02, 0x02])
        #expect(p.entityAttributeReads == (whole.utf8.count + 21) / 22)
        #expect(!p.session.media.title.isTruncated)
    }

    @Test func remoteCommandNotificationThenSendRemoteCommand() throws {
        let p = try AMSPeer()
        try p.run(until: { p.available })
        #expect(p.session.sendRemoteCommand(.togglePlayPause), "the phone has not said what it supports: tried")
        try p.run(until: { p.writes.last?.0 == "remote command" })
        p.notify(p.remoteCommand, [0x00, 0x01, 0x02, 0x03, 0x04])
        try p.run(until: { p.session.media.supportedCommands.contains(.togglePlayPause) })
        #expect(p.events.contains(.changed(.commands)))
        #expect(p.session.sendRemoteCommand(.togglePlayPause))
        #expect(!p.session.sendRemoteCommand(.volumeUp), "not supported by the player")
        try p.run(until: { p.writes.last?.0 == "remote command" })
        #expect(p.writes.last.map { $0.1 } == [0x02])
    }

    @Test func aRefusedRemoteCommandIsReported() throws {
        let p = try AMSPeer()
        try p.run(until: { p.available })
        p.notify(p.remoteCommand, [0x03])
        try p.run(until: { p.session.media.supportedCommands.contains(.nextTrack) })
        p.remoteCommandError = ATTErrorCode(0xA1)
        #expect(p.session.sendRemoteCommand(.nextTrack))
        try p.run(until: { !p.events.filter { if case .commandFailed = $0 { true } else { false } }.isEmpty })
        #expect(p.events.last == .commandFailed(.nextTrack, .invalidCommand))
    }

    @Test func amsAppearingLaterAndGoingAwayThroughServiceChanged() throws {
        let p = try AMSPeer(publishAMS: false)
        try p.run(until: { p.session.client.serviceChangedHandle != nil && !p.session.client.isDiscovering })
        #expect(!p.session.sendRemoteCommand(.play))
        try p.run(until: { p.server.clientConfiguration(of: p.server.serviceChangedHandle) != 0 })
        try p.publish()
        _ = p.server.serviceChanged(p.amsRange!)
        try p.run(until: { p.available })
        p.entityUpdate(2, 2, "Hey Jude")
        try p.run(until: { p.session.media.title.string == "Hey Jude" })
        _ = p.server.unpublish(serviceAt: p.amsRange!.start)
        _ = p.server.serviceChanged(p.amsRange!)
        try p.run(until: { p.events.last == .unavailable })
        #expect(p.session.media == MediaState())
    }

    @Test func theLinkClosingResetsTheMedia() throws {
        let p = try AMSPeer()
        try p.run(until: { p.available })
        p.entityUpdate(2, 2, "Hey Jude")
        try p.run(until: { p.session.media.hasPlayer })
        p.bearer.close()
        try p.run(until: { p.events.last == .unavailable })
        #expect(!p.session.media.hasPlayer)
    }
}
