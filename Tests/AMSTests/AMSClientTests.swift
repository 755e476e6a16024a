import AMS
import HAL
import Testing

/// Records what the client asks for; answers are given by the test.
final class RecordingSink: AMSClientSink {
    enum Request: Equatable {
        case entityUpdate([UInt8]), entityAttribute([UInt8]), read(Int), remoteCommand([UInt8])
    }
    var requests: [Request] = []
    var events: [MediaEvent] = []
    var accept = true

    func amsWriteEntityUpdate(_ c: UnsafeRawBufferPointer) -> Bool { requests.append(.entityUpdate(Array(c))); return accept }
    func amsWriteEntityAttribute(_ c: UnsafeRawBufferPointer) -> Bool { requests.append(.entityAttribute(Array(c))); return accept }
    func amsReadEntityAttribute(limit: Int) -> Bool { requests.append(.read(limit)); return accept }
    func amsWriteRemoteCommand(_ c: UnsafeRawBufferPointer) -> Bool { requests.append(.remoteCommand(Array(c))); return accept }
    func amsEvent(_ e: MediaEvent) { events.append(e) }
}

@Suite struct AMSClientTests {
    let t0 = MonotonicInstant(nanoseconds: 5_000_000_000)

    func ready() -> (AMSClient, RecordingSink) {
        let c = AMSClient()
        let s = RecordingSink()
        c.sink = s
        c.sessionStarted(now: t0)
        c.entityUpdateWritten(attErrorCode: nil, now: t0)
        c.entityUpdateWritten(attErrorCode: nil, now: t0)
        return (c, s)
    }

    func update(_ c: AMSClient, _ bytes: [UInt8], at now: MonotonicInstant? = nil) {
        bytes.withUnsafeBytes { c.entityUpdateReceived($0, now: now ?? t0) }
    }

    func update(_ c: AMSClient, _ e: UInt8, _ a: UInt8, _ text: String, truncated: Bool = false, at now: MonotonicInstant? = nil) {
        update(c, [e, a, truncated ? 1 : 0] + Array(text.utf8), at: now)
    }

    @Test func registersPlayerThenTrackOneWriteAtATime() {
        let c = AMSClient()
        let s = RecordingSink()
        c.sink = s
        c.sessionStarted(now: t0)
        #expect(s.requests == [.entityUpdate([0, 0, 1, 2])])
        c.entityUpdateWritten(attErrorCode: nil, now: t0)
        #expect(s.requests == [.entityUpdate([0, 0, 1, 2]), .entityUpdate([2, 0, 1, 2, 3])])
        #expect(!c.isReady)
        c.entityUpdateWritten(attErrorCode: nil, now: t0)
        #expect(c.isReady)
        #expect(s.events == [.available])
    }

    @Test func aRefusedRegistrationMakesAMSUnavailable() {
        let c = AMSClient()
        let s = RecordingSink()
        c.sink = s
        c.sessionStarted(now: t0)
        c.entityUpdateWritten(attErrorCode: 0xA1, now: t0)
        #expect(s.events == [.unavailable])
        #expect(!c.sendRemoteCommand(.play))
    }

    @Test func entityUpdatesFillTheMediaState() {
        let (c, s) = ready()
        update(c, 0, 0, "Music")
        update(c, 0, 1, "1,1.0,32.456")
        update(c, 0, 2, "0.5")
        update(c, 2, 0, "The Beatles")
        update(c, 2, 1, "Past Masters")
        update(c, 2, 2, "Hey Jude")
        update(c, 2, 3, "431.333")
        let m = c.state
        #expect(m.playerName.string == "Music")
        #expect(m.playbackState == .playing && m.playbackRateMilli == 1000)
        #expect(m.elapsedMilliseconds == 32_456 && m.elapsedAt == t0)
        #expect(m.elapsedMilliseconds(at: t0 + .seconds(2)) == 34_456)
        #expect(m.volumePercent == 50)
        #expect(m.artist.string == "The Beatles" && m.album.string == "Past Masters" && m.title.string == "Hey Jude")
        #expect(m.durationMilliseconds == 431_333)
        #expect(s.events == [
            .available, .changed(.player), .changed(.playback), .changed(.volume),
            .changed(.track), .changed(.track), .changed(.track), .changed(.track),
        ])
    }

    @Test func badValuesAndUnknownIDsChangeNothing() {
        let (c, s) = ready()
        update(c, 0, 1, "1,fast,2")
        update(c, [0x02, 0x02])  // too short
        update(c, 1, 0, "3")  // Queue: not registered for
        update(c, 2, 9, "x")  // unknown attribute
        update(c, 7, 0, "x")  // unknown entity
        #expect(c.state == MediaState())
        #expect(c.malformedValues == 2)
        #expect(s.events == [.available])
    }

    @Test func anEmptyPlaybackInfoMeansNothingPlays() {
        let (c, s) = ready()
        defer { withExtendedLifetime(s) {} }
        update(c, 0, 1, "1,1.0,10")
        update(c, 0, 1, "")
        #expect(c.state.playbackState == .paused && c.state.playbackRateMilli == 0 && c.state.elapsedAt == nil)
    }

    @Test func aTruncatedTitleIsReadWholeThroughEntityAttribute() {
        let (c, s) = ready()
        s.requests.removeAll()
        update(c, 2, 2, "Come On! Feel the Illinoise! Part I", truncated: true)
        #expect(c.state.title.isTruncated)
        #expect(s.requests == [.entityAttribute([2, 2])])
        c.entityAttributeWritten(attErrorCode: nil, now: t0)
        #expect(s.requests.last == .read(AMSClient.readLimit))
        let whole = "Come On! Feel the Illinoise! Part I: The World's Columbian Exposition"
        Array(whole.utf8).withUnsafeBytes { c.entityAttributeRead($0, now: t0) }
        #expect(c.state.title.string == whole)
        #expect(!c.state.title.isTruncated)
        #expect(s.events.last == .changed(.track))
        #expect(c.pendingAttributeReads == 0)
    }

    @Test func oneEntityAttributeReadAtATimeAndTheNewestValueWins() {
        let (c, s) = ready()
        s.requests.removeAll()
        update(c, 2, 2, "Long title", truncated: true)
        update(c, 2, 0, "Long artist", truncated: true)
        update(c, 2, 0, "Long artist", truncated: true)  // queued once
        #expect(s.requests == [.entityAttribute([2, 2])])
        #expect(c.pendingAttributeReads == 2)
        c.entityAttributeWritten(attErrorCode: nil, now: t0)
        // The title changes (whole) while its read runs: the read's value is dropped.
        update(c, 2, 2, "Short")
        Array("Long title, old".utf8).withUnsafeBytes { c.entityAttributeRead($0, now: t0) }
        #expect(c.state.title.string == "Short")
        // Then the artist's turn.
        #expect(s.requests.suffix(2) == [.read(AMSClient.readLimit), .entityAttribute([2, 0])])
        c.entityAttributeWritten(attErrorCode: 0xA2, now: t0)  // absent: given up
        #expect(c.pendingAttributeReads == 0)
        #expect(c.state.artist.string == "Long artist" && c.state.artist.isTruncated)
    }

    @Test func aValueLongerThanMediaTextStaysMarkedCut() {
        let (c, s) = ready()
        defer { withExtendedLifetime(s) {} }
        update(c, 2, 2, "x", truncated: true)
        c.entityAttributeWritten(attErrorCode: nil, now: t0)
        [UInt8](repeating: 0x41, count: 129).withUnsafeBytes { c.entityAttributeRead($0, now: t0) }
        #expect(c.state.title.count == MediaText.capacity)
        #expect(c.state.title.isTruncated)
    }

    @Test func remoteCommandNotificationsSetTheSupportedCommands() {
        let (c, s) = ready()
        [UInt8]([0, 1, 2, 3, 4, 0x42]).withUnsafeBytes { c.remoteCommandReceived($0, now: t0) }
        #expect(c.state.supportedCommands.contains(.togglePlayPause))
        #expect(!c.state.supportedCommands.contains(.volumeUp))
        #expect(s.events.last == .changed(.commands))
        [UInt8]([0, 1, 2, 3, 4]).withUnsafeBytes { c.remoteCommandReceived($0, now: t0) }
        #expect(s.events.count == 2, "the same set again is no change")
    }

    @Test func remoteCommandsAreWrittenOnlyWhenSupportedAndFailuresComeBackInOrder() {
        let (c, s) = ready()
        #expect(c.sendRemoteCommand(.nextTrack), "the phone has not said what it supports: tried")
        c.remoteCommandWritten(attErrorCode: nil, now: t0)
        [UInt8]([2, 3]).withUnsafeBytes { c.remoteCommandReceived($0, now: t0) }
        s.requests.removeAll()
        #expect(c.sendRemoteCommand(.togglePlayPause))
        #expect(c.sendRemoteCommand(.nextTrack))
        #expect(!c.sendRemoteCommand(.volumeUp))
        #expect(s.requests == [.remoteCommand([0x02]), .remoteCommand([0x03])])
        #expect(c.remoteCommandsInFlight == 2)
        c.remoteCommandWritten(attErrorCode: nil, now: t0)
        c.remoteCommandWritten(attErrorCode: 0xA1, now: t0)
        #expect(s.events.last == .commandFailed(.nextTrack, .invalidCommand))
        s.accept = false
        #expect(!c.sendRemoteCommand(.nextTrack), "the ATT queue is full")
        #expect(c.remoteCommandsInFlight == 0)
    }

    @Test func theEndOfTheSessionResetsEverything() {
        let (c, s) = ready()
        update(c, 2, 2, "Hey Jude")
        c.sessionEnded()
        #expect(c.state == MediaState())
        #expect(s.events.last == .unavailable)
        update(c, 2, 2, "Ignored")
        #expect(c.state.title.isEmpty)
        c.sessionEnded()
        #expect(s.events.filter { $0 == .unavailable }.count == 1)
    }

    // MARK: - issue 28: any subset of the characteristics, commands before the list

    @Test func remoteCommandAloneGivesButtonsAtOnce() {
        let c = AMSClient()
        let s = RecordingSink()
        c.sink = s
        c.sessionStarted(now: t0, characteristics: [.remoteCommand])
        #expect(s.requests.isEmpty, "no Entity Update to register with")
        #expect(c.isReady && s.events == [.available])
        #expect(c.state.hasPlayer && c.state.remoteOnly)
        #expect(c.sendRemoteCommand(.togglePlayPause))
        #expect(s.requests == [.remoteCommand([0x02])])
    }

    @Test func entityUpdateWithoutRemoteCommandShowsAndSendsNothing() {
        let c = AMSClient()
        let s = RecordingSink()
        c.sink = s
        c.sessionStarted(now: t0, characteristics: [.entityUpdate])
        c.entityUpdateWritten(attErrorCode: nil, now: t0)
        c.entityUpdateWritten(attErrorCode: nil, now: t0)
        #expect(c.isReady && !c.state.remoteOnly)
        update(c, 2, 2, "Hey Jude", truncated: true)
        #expect(c.state.title.string == "Hey Jude")
        #expect(c.pendingAttributeReads == 1 && !s.requests.contains { if case .entityAttribute = $0 { true } else { false } },
                "no Entity Attribute: the cut title stays as it came")
        #expect(!c.sendRemoteCommand(.togglePlayPause))
        #expect(!s.requests.contains { if case .remoteCommand = $0 { true } else { false } })
    }

    @Test func onlyCommandsThePhoneSaidItLacksAreRefused() {
        let (c, s) = ready()
        #expect(c.state.mayTry(.volumeUp) && !c.state.supportedCommandsKnown)
        [UInt8]([]).withUnsafeBytes { c.remoteCommandReceived($0, now: t0) }
        #expect(c.state.supportedCommandsKnown, "an empty list is an answer")
        #expect(s.events.last == .changed(.commands))
        #expect(!c.sendRemoteCommand(.volumeUp))
    }
}
