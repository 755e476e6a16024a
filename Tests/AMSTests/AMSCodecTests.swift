import AMS
import Testing

private func parse<T>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    try bytes.withUnsafeBytes { try body($0) }
}

private func text<T>(_ s: String, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    try parse(Array(s.utf8), body)
}

@Suite struct AMSCodecTests {
    // MARK: Entity Update registration (the spec's example)

    @Test func subscribeToTrackArtistAlbumTitleDuration() {
        #expect(EntityUpdateCommand.track == [0x02, 0x00, 0x01, 0x02, 0x03])
        #expect(EntityUpdateCommand.player == [0x00, 0x00, 0x01, 0x02])
        var buffer = [UInt8](repeating: 0xEE, count: 4)
        // Does not fit a 4-byte buffer: nothing claimed written.
        let n = buffer.withUnsafeMutableBytes { buf in
            [UInt8]([0, 1, 2, 3]).withUnsafeBytes { EntityUpdateCommand.encode(entity: .track, attributes: $0, into: buf) }
        }
        #expect(n == nil)
        #expect(EntityUpdateCommand.bytes(entity: .player, attributes: []) == [])
    }

    // MARK: Entity Update notification

    @Test func entityUpdateHeyJudeTruncated() throws {
        // The spec's example: Track, Title, truncated, "Hey Jude".
        let bytes: [UInt8] = [0x02, 0x02, 0x01] + Array("Hey Jude".utf8)
        try parse(bytes) { raw in
            let u = try EntityUpdateNotification(parsing: raw)
            #expect(u.entityID == .track)
            #expect(u.attributeIDRaw == TrackAttributeID.title.rawValue)
            #expect(u.isTruncated)
            #expect(Array(u.value) == Array("Hey Jude".utf8))
        }
    }

    @Test func entityUpdateKeepsUnknownIDsAndFlags() throws {
        try parse([0x07, 0x09, 0x82]) { raw in
            let u = try EntityUpdateNotification(parsing: raw)
            #expect(u.entityID == nil)
            #expect(u.entityIDRaw == 7)
            #expect(u.attributeIDRaw == 9)
            #expect(u.flags.rawValue == 0x82)
            #expect(!u.isTruncated)
            #expect(u.value.isEmpty)
        }
    }

    @Test(arguments: [0, 1, 2])
    func entityUpdateShorterThanThreeBytesIsRejected(count: Int) {
        let bytes = [UInt8](repeating: 0, count: count)
        #expect(throws: AMSParseError.entityUpdateTooShort(count)) {
            try parse(bytes) { _ = try EntityUpdateNotification(parsing: $0) }
        }
    }

    @Test func entityUpdateEncoderSetsTheTruncatedFlag() {
        var out = [UInt8](repeating: 0, count: 8)
        let value = Array("Hey Jude".utf8)
        let n = out.withUnsafeMutableBytes { buf in
            value.withUnsafeBytes { EntityUpdateNotification.encode(entity: 2, attribute: 2, value: $0, into: buf) }
        }
        #expect(n == 8)
        #expect(out == [0x02, 0x02, 0x01] + Array("Hey J".utf8))
    }

    // MARK: Entity Attribute and Remote Command

    @Test func entityAttributeWrite() {
        #expect(EntityAttributeCommand(entity: 2, attribute: 2).bytes == [0x02, 0x02])
        var out = [UInt8](repeating: 0, count: 1)
        #expect(out.withUnsafeMutableBytes { EntityAttributeCommand(entity: 0, attribute: 0).encode(into: $0) } == nil)
        #expect(parse([0x00, 0x01]) { EntityAttributeCommand(parsing: $0) } == EntityAttributeCommand(entity: 0, attribute: 1))
        #expect(parse([0x00]) { EntityAttributeCommand(parsing: $0) } == nil)
    }

    @Test func remoteCommandWriteIsOneByte() {
        for id in RemoteCommandID.allCases {
            var out: [UInt8] = [0xFF, 0xFF]
            let n = out.withUnsafeMutableBytes { RemoteCommand.encode(id, into: $0) }
            #expect(n == 1)
            #expect(out[0] == id.rawValue)
        }
        var none: [UInt8] = []
        #expect(none.withUnsafeMutableBytes { RemoteCommand.encode(.play, into: $0) } == nil)
    }

    @Test func remoteCommandNotificationListsSupportedIDsAndIgnoresUnknownOnes() {
        let set = parse([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x20, 0xFF]) { RemoteCommand.supportedCommands(parsing: $0) }
        #expect(set.contains(.play) && set.contains(.togglePlayPause) && set.contains(.volumeDown))
        #expect(!set.contains(.skipForward))
        #expect(set.rawValue == 0x7F)
        #expect(parse([]) { RemoteCommand.supportedCommands(parsing: $0) } == RemoteCommands())
        var out = [UInt8](repeating: 0, count: 14)
        let n = out.withUnsafeMutableBytes { RemoteCommand.encodeSupported(set, into: $0) }
        #expect(Array(out[0..<n!]) == [0, 1, 2, 3, 4, 5, 6])
    }

    // MARK: PlaybackInfo, Volume, Duration

    @Test func playbackInfoFromTheSpec() throws {
        let info = try PlaybackInfo(parsing: "1,1.0,32.456")
        #expect(info == PlaybackInfo(state: .playing, rateMilli: 1000, elapsedMilliseconds: 32_456))
        #expect(try PlaybackInfo(parsing: "0,0.0,0.000") == PlaybackInfo(state: .paused, rateMilli: 0, elapsedMilliseconds: 0))
        #expect(try PlaybackInfo(parsing: "2,-2.5,7") == PlaybackInfo(state: .rewinding, rateMilli: -2500, elapsedMilliseconds: 7000))
        // Rounds on the first dropped digit.
        #expect(try PlaybackInfo(parsing: "3,1.0,1.23456").elapsedMilliseconds == 1235)
    }

    @Test func playbackInfoToleratesEmptyFields() throws {
        #expect(try PlaybackInfo(parsing: "") == PlaybackInfo())
        #expect(try PlaybackInfo(parsing: ",,") == PlaybackInfo())
        #expect(try PlaybackInfo(parsing: "1,,") == PlaybackInfo(state: .playing))
        #expect(try PlaybackInfo(parsing: "1") == PlaybackInfo(state: .playing))
        #expect(try PlaybackInfo(parsing: ",1.0, 12.5 ") == PlaybackInfo(rateMilli: 1000, elapsedMilliseconds: 12_500))
    }

    @Test func playbackInfoGarbageIsAnError() {
        #expect(throws: AMSParseError.notANumber(field: .rate)) { try PlaybackInfo(parsing: "1,fast,3") }
        #expect(throws: AMSParseError.notANumber(field: .elapsed)) { try PlaybackInfo(parsing: "1,1.0,3.2.1") }
        #expect(throws: AMSParseError.notANumber(field: .state)) { try PlaybackInfo(parsing: "-,1,1") }
        #expect(throws: AMSParseError.notANumber(field: .elapsed)) { try PlaybackInfo(parsing: "1,1,.") }
        #expect(throws: AMSParseError.unknownPlaybackState(9)) { try PlaybackInfo(parsing: "9,1,1") }
        #expect(throws: AMSParseError.tooManyFields(5)) { try PlaybackInfo(parsing: "1,1,1,1,1") }
        #expect(throws: AMSParseError.numberTooLong(field: .elapsed)) { try PlaybackInfo(parsing: "1,1,99999999999999999999999") }
        #expect(throws: AMSParseError.outOfRange(field: .elapsed)) { try PlaybackInfo(parsing: "1,1,-4") }
    }

    @Test func volumeIsAPercentage() throws {
        #expect(try text("0.0") { try VolumeValue.percent(parsing: $0) } == 0)
        #expect(try text("1.0") { try VolumeValue.percent(parsing: $0) } == 100)
        #expect(try text("0.5625") { try VolumeValue.percent(parsing: $0) } == 56)
        #expect(try text("0.5650") { try VolumeValue.percent(parsing: $0) } == 57)
        #expect(try text("1") { try VolumeValue.percent(parsing: $0) } == 100)
        #expect(try text("") { try VolumeValue.percent(parsing: $0) } == nil)
        #expect(throws: AMSParseError.outOfRange(field: .volume)) { try text("1.5") { try VolumeValue.percent(parsing: $0) } }
        #expect(throws: AMSParseError.notANumber(field: .volume)) { try text("loud") { try VolumeValue.percent(parsing: $0) } }
    }

    @Test func durationIsMilliseconds() throws {
        #expect(try text("213.42") { try DurationValue.milliseconds(parsing: $0) } == 213_420)
        #expect(try text("431") { try DurationValue.milliseconds(parsing: $0) } == 431_000)
        #expect(try text("0.0005") { try DurationValue.milliseconds(parsing: $0) } == 1)
        #expect(try text("") { try DurationValue.milliseconds(parsing: $0) } == nil)
        #expect(throws: AMSParseError.outOfRange(field: .duration)) { try text("-1") { try DurationValue.milliseconds(parsing: $0) } }
        #expect(throws: AMSParseError.notANumber(field: .duration)) { try text("3:35") { try DurationValue.milliseconds(parsing: $0) } }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect("\(AMSParseError.entityUpdateTooShort(2))" == "Entity Update value has 2 bytes, expected at least 3")
        #expect("\(AMSParseError.notANumber(field: .rate))" == "rate: not a decimal number")
    }
}
