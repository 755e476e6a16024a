import AMS
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import PhoneServices
import SimBoard
import Testing

/// The watch's PhoneSession against the simulated iPhone's Media Source,
/// through the real EventLoop over a SEQPACKET socket pair.
final class MediaEndToEnd {
    let loop: EpollLoop
    let phone: SimulatedPhone
    let session: PhoneSession
    var events: [MediaEvent] = []

    init(_ config: SimulatedPhone.Configuration = .init()) throws {
        loop = try EpollLoop()
        let link = SimulatedLink(timers: loop)
        let (w, p) = try SeqPacketChannel.pair()
        phone = SimulatedPhone(channel: p, loop: loop, security: link.phoneEnd, configuration: config)
        session = PhoneSession(channel: w, loop: loop, security: link.watchEnd)
        session.eventHandler = { [unowned self] e in
            if case .media(let m) = e { self.events.append(m) }
        }
        try phone.start()
        try session.start()
    }

    func run(until condition: () -> Bool) throws {
        let done = try loop.runUntil(timeout: .seconds(5), condition)
        #expect(done, "timed out; phone log: \(phone.log.suffix(8))")
    }

    var title: String { session.media.title.string }
}

@Suite("AMS end to end against the simulated iPhone")
struct SimulatedPhoneAMSTests {
    static let longTitle = AMSProvider.defaultQueue[1].title

    @Test func theWatchLearnsThePlayerAndTheTrack() throws {
        let t = try MediaEndToEnd()
        try t.run(until: { t.title == "Hey Jude" && t.session.media.durationMilliseconds != nil && t.session.media.volumePercent != nil })
        let m = t.session.media
        #expect(m.playerName.string == "Music")
        #expect(m.artist.string == "The Beatles" && m.album.string == "Past Masters")
        #expect(m.durationMilliseconds == 431_333)
        #expect(m.volumePercent == 50)
        #expect(m.playbackState == .paused)
        try t.run(until: { t.session.media.supportedCommands.contains(.nextTrack) })
        #expect(t.phone.log.contains("ams registered entity 0 attributes 0,1,2"))
        #expect(t.phone.log.contains("ams registered entity 2 attributes 0,1,2,3"))
    }

    @Test func aTruncatedTitleArrivesWholeThroughEntityAttribute() throws {
        var config = SimulatedPhone.Configuration()
        config.mtu = 23  // the default ATT MTU: a notification holds 17 bytes of value
        let t = try MediaEndToEnd(config)
        try t.run(until: { t.session.media.supportedCommands.contains(.nextTrack) && t.title == "Hey Jude" })
        t.phone.perform(.media(.next))
        try t.run(until: { t.title == Self.longTitle })
        #expect(!t.session.media.title.isTruncated)
        #expect(t.phone.log.contains { $0.hasPrefix("ams entity update 2 2 truncated at 17 of ") })
        #expect(t.phone.log.contains("ams entity attribute 2 2"))
        #expect(t.session.media.artist.string == "Sufjan Stevens")
    }

    @Test func remoteCommandsChangeThePhonesPlayer() throws {
        let t = try MediaEndToEnd()
        try t.run(until: { t.session.media.supportedCommands.contains(.togglePlayPause) && t.title == "Hey Jude" })
        #expect(t.session.sendRemoteCommand(.togglePlayPause))
        try t.run(until: { t.session.media.playbackState == .playing })
        #expect(t.phone.media.playing)
        #expect(t.session.media.playbackRateMilli == 1000)
        #expect(t.session.sendRemoteCommand(.nextTrack))
        try t.run(until: { t.title == Self.longTitle })
        #expect(t.session.sendRemoteCommand(.previousTrack))
        try t.run(until: { t.title == "Hey Jude" })
        #expect(t.session.sendRemoteCommand(.volumeUp))
        try t.run(until: { t.session.media.volumePercent == 56 })
        #expect(t.phone.media.commandsReceived == [2, 3, 4, 5])
        #expect(t.phone.log.contains("ams remote command toggle"))
    }

    @Test func amsGoingAwayAndComingBack() throws {
        let t = try MediaEndToEnd()
        try t.run(until: { t.title == "Hey Jude" })
        t.phone.run(try PhoneScript.parse("unpublish-ams"))
        try t.run(until: { t.events.last == .unavailable })
        #expect(!t.session.media.hasPlayer)
        t.phone.run(try PhoneScript.parse("publish-ams\nmedia next"))
        try t.run(until: { t.title == Self.longTitle })
    }

    @Test func scriptVerbsAreChecked() throws {
        #expect(throws: PhoneScriptError.self) { try PhoneScript.parse("media louder") }
        #expect(try PhoneScript.parse("media volume-up") == [.media(.volumeUp)])
    }
}
