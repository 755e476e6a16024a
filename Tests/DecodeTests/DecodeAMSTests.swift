import AMS
import ATTCodec
import Decode
import HAL
import Testing

@testable import Decode

/// ASCII text as bytes.
private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

@Suite("Decode: AMS hex input")
struct DecodeAMSTests {
    // MARK: Entity Update notifications (the specification's examples and docs/ams.md)

    @Test("Entity Update: PlaybackInfo \"1,1.0,32.456\" decodes into state, rate and elapsed time")
    func playbackInfo() throws {
        let r = try AMSDecoding.entityUpdate([0x00, 0x01, 0x00] + utf8("1,1.0,32.456"))
        #expect(r.textLine == #"AMS Entity Update: Player PlaybackInfo="1,1.0,32.456" (playing, rate 1.0, elapsed 0:32.456)"#)
        #expect(r.jsonLine == #"{"layer":"ams","type":"entity_update","summary":"Entity Update: Player PlaybackInfo=\"1,1.0,32.456\" (playing, rate 1.0, elapsed 0:32.456)","entity":"player","entity_id":0,"attribute":"playback_info","attribute_id":1,"flags":[],"flags_raw":0,"truncated":false,"length":12,"value":"1,1.0,32.456","playback_state":"playing","playback_state_id":1,"playback_rate":"1.0","playback_rate_milli":1000,"elapsed":"0:32.456","elapsed_ms":32456}"#)
    }

    @Test("PlaybackInfo: paused, rewinding, partial and empty values", arguments: [
        ("0,0.0,125", "paused, rate 0.0, elapsed 2:05"),
        ("2,-1.5,3725.5", "rewinding, rate -1.5, elapsed 1:02:05.500"),
        ("3,2.25,", "fast forwarding, rate 2.25"),
        ("", "no player: nothing plays"),
        (",,", "no player: nothing plays"),
    ])
    func playbackInfoForms(text: String, meaning: String) throws {
        let r = try AMSDecoding.entityUpdate([0x00, 0x01, 0x00] + utf8(text))
        #expect(r.summary == "Entity Update: Player PlaybackInfo=\"\(text)\" (\(meaning))")
    }

    @Test("Entity Update: the specification's truncated title (flag set, text shown as it came, not parsed)")
    func truncatedTitle() throws {
        let r = try AMSDecoding.entityUpdate([0x02, 0x02, 0x01, 0x48, 0x65, 0x79, 0x20, 0x4A, 0x75, 0x64, 0x65])
        #expect(r.textLine == #"AMS Entity Update: Track Title="Hey Jude" (truncated: the whole value is read through Entity Attribute)"#)
        #expect(field(r, "truncated") == .bool(true))
        #expect(field(r, "flags") == .array([.string("truncated")]))
        #expect(field(r, "value") == .string("Hey Jude"))
        // A cut number is not read (it would be wrong, not malformed).
        let cut = try AMSDecoding.entityUpdate([0x02, 0x03, 0x01] + utf8("43"))
        #expect(field(cut, "duration_ms") == nil)
    }

    @Test("Entity Update: Volume in percent, Duration in m:ss, names, queue modes, reserved IDs and flags")
    func values() throws {
        #expect(try AMSDecoding.entityUpdate([0x00, 0x02, 0x00] + utf8("0.5")).summary == #"Entity Update: Player Volume="0.5" (50%)"#)
        #expect(try AMSDecoding.entityUpdate([0x00, 0x02, 0x00] + utf8("1.0")).summary == #"Entity Update: Player Volume="1.0" (100%)"#)
        #expect(field(try AMSDecoding.entityUpdate([0x00, 0x02, 0x00] + utf8("0.0625")), "volume_percent") == .integer(6))
        let duration = try AMSDecoding.entityUpdate([0x02, 0x03, 0x00] + utf8("213.42"))
        #expect(duration.summary == #"Entity Update: Track Duration="213.42" (3:33)"#)
        #expect(field(duration, "duration") == .string("3:33"))
        #expect(field(duration, "duration_ms") == .integer(213_420))
        #expect(try AMSDecoding.entityUpdate([0x02, 0x03, 0x00]).summary == #"Entity Update: Track Duration="" (no duration)"#)
        #expect(try AMSDecoding.entityUpdate([0x00, 0x00, 0x00] + utf8("Music")).summary == #"Entity Update: Player Name="Music""#)
        #expect(try AMSDecoding.entityUpdate([0x02, 0x00, 0x00] + utf8("Sigur Rós")).summary == #"Entity Update: Track Artist="Sigur Rós""#)
        #expect(try AMSDecoding.entityUpdate([0x01, 0x02, 0x00] + utf8("2")).summary == #"Entity Update: Queue ShuffleMode="2" (all)"#)
        #expect(try AMSDecoding.entityUpdate([0x01, 0x03, 0x00] + utf8("1")).summary == #"Entity Update: Queue RepeatMode="1" (one)"#)
        #expect(try AMSDecoding.entityUpdate([0x01, 0x00, 0x00] + utf8("4")).summary == #"Entity Update: Queue Index="4""#)
        let reserved = try AMSDecoding.entityUpdate([0x07, 0x09, 0x06, 0xFF])
        #expect(reserved.summary == "Entity Update: reserved entity 7 Attribute9=hex:ff, flags reserved bits 0x06")
        #expect(field(reserved, "entity") == .string("reserved"))
        #expect(field(reserved, "attribute") == .string("reserved"))
        #expect(field(reserved, "flags") == .array([.string("reserved")]))
        #expect(field(reserved, "value_hex") == .string("ff"))
        // Control characters in a title neither end the line nor reach the terminal.
        #expect(try AMSDecoding.entityUpdate([0x02, 0x02, 0x00] + utf8("a\nb\u{1b}[2J")).summary == #"Entity Update: Track Title="a\nb\u{1b}[2J""#)
    }

    // MARK: writes and the Remote Command notification

    @Test("Entity Update registration: the specification's Track example and the Player")
    func registration() throws {
        let track = try AMSDecoding.entityUpdateCommand([0x02, 0x00, 0x01, 0x02, 0x03])
        #expect(track.textLine == "AMS Entity Update: register Track: Artist, Album, Title, Duration")
        #expect(track.jsonLine == #"{"layer":"ams","type":"entity_update_command","summary":"Entity Update: register Track: Artist, Album, Title, Duration","entity":"track","entity_id":2,"attributes":[{"id":0,"name":"artist"},{"id":1,"name":"album"},{"id":2,"name":"title"},{"id":3,"name":"duration"}]}"#)
        #expect(try AMSDecoding.entityUpdateCommand(EntityUpdateCommand.player).summary == "Entity Update: register Player: Name, PlaybackInfo, Volume")
        #expect(try AMSDecoding.entityUpdateCommand([0x01, 0x00, 0x01, 0x02, 0x03]).summary == "Entity Update: register Queue: Index, Count, ShuffleMode, RepeatMode")
    }

    @Test("Entity Attribute: the write that selects an attribute")
    func entityAttribute() throws {
        let r = try AMSDecoding.entityAttributeCommand(EntityAttributeCommand(entity: 2, attribute: 2).bytes)
        #expect(r.textLine == "AMS Entity Attribute: select Track Title (the next read returns its whole value)")
        #expect(r.jsonLine == #"{"layer":"ams","type":"entity_attribute_command","summary":"Entity Attribute: select Track Title (the next read returns its whole value)","entity":"track","entity_id":2,"attribute":"title","attribute_id":2}"#)
        let value = try AMSDecoding.entityAttributeValue(entity: 2, attribute: 2, value: utf8("Hey Jude"), reads: 1)
        #expect(value.summary == #"Entity Attribute: Track Title="Hey Jude" (1 read)"#)
    }

    @Test("Remote Command: every RemoteCommandID by name, encoded by the watch's own encoder")
    func remoteCommands() throws {
        var names: [String] = []
        for id in RemoteCommandID.allCases {
            var byte: [UInt8] = [0xFF]
            _ = byte.withUnsafeMutableBytes { RemoteCommand.encode(id, into: $0) }
            let r = try AMSDecoding.remoteCommand(byte)
            #expect(field(r, "command_id") == .integer(Int64(id.rawValue)))
            names.append(r.summary)
        }
        #expect(names.first == "Remote Command: play")
        #expect(names[2] == "Remote Command: toggle play/pause")
        #expect(names.last == "Remote Command: bookmark track")
        #expect(try AMSDecoding.remoteCommand([0x02]).jsonLine == #"{"layer":"ams","type":"remote_command","summary":"Remote Command: toggle play/pause","command":"toggle_play_pause","command_id":2}"#)
        #expect(try AMSDecoding.remoteCommand([0x20]).summary == "Remote Command: reserved command 32")
    }

    @Test("Remote Command notification: the supported commands (docs/ams.md's example), reserved IDs, none")
    func supported() {
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes {
            RemoteCommand.encodeSupported([.init(.play), .init(.pause), .init(.togglePlayPause), .init(.nextTrack), .init(.previousTrack), .init(.volumeUp), .init(.volumeDown)], into: $0)
        }
        let r = AMSDecoding.remoteCommandNotification(Array(buffer[..<n!]))
        #expect(r.textLine == "AMS Remote Command: the player supports play, pause, toggle play/pause, next track, previous track, volume up, volume down")
        #expect(r.jsonLine == #"{"layer":"ams","type":"remote_command_supported","summary":"Remote Command: the player supports play, pause, toggle play/pause, next track, previous track, volume up, volume down","commands":["play","pause","toggle_play_pause","next_track","previous_track","volume_up","volume_down"],"command_ids":[0,1,2,3,4,5,6]}"#)
        #expect(AMSDecoding.remoteCommandNotification([0x1F]).summary == "Remote Command: the player supports reserved command 31")
        #expect(AMSDecoding.remoteCommandNotification([]).summary == "Remote Command: the player supports no commands")
    }

    @Test("AMS errors 0xA0–0xA2 are named by what they refused; other codes are left to the ATT line")
    func errors() {
        #expect(AMSDecoding.errorRecord(.remoteCommand(3), code: 0xA0)?.summary == "Remote Command: the phone refused next track: invalid state (0xA0)")
        #expect(AMSDecoding.errorRecord(.entityUpdate(entity: 2), code: 0xA1)?.summary == "Entity Update: the phone refused the registration of Track: invalid command (0xA1)")
        let absent = AMSDecoding.errorRecord(.entityAttribute(entity: 1, attribute: 0, read: false), code: 0xA2)
        #expect(absent?.jsonLine == #"{"layer":"ams","type":"entity_attribute_error","summary":"Entity Attribute: the phone refused the selection of Queue Index: absent attribute (0xA2)","entity":"queue","entity_id":1,"attribute":"index","attribute_id":0,"request":"write","error":162,"error_name":"AMS Absent Attribute"}"#)
        #expect(AMSDecoding.errorRecord(.remoteCommand(nil), code: 0x05) == nil)
    }

    // MARK: bad input

    static let badInput: [(String, [UInt8], String)] = [
        ("entity-update", [0x00, 0x01], "byte 2: an Entity Update notification starts with EntityID, AttributeID and EntityUpdateFlags (3 bytes), got 2"),
        ("entity-update", [], "byte 0: an Entity Update notification starts with EntityID, AttributeID and EntityUpdateFlags (3 bytes), got 0"),
        ("entity-update", [0x00, 0x01, 0x00] + Array("1,fast,3".utf8),
         #"byte 5: PlaybackInfo "1,fast,3": rate: not a decimal number (the value is "state,rate,elapsed seconds", for example "1,1.0,32.456")"#),
        ("entity-update", [0x00, 0x01, 0x00] + Array("1,1.0,-2".utf8),
         #"byte 9: PlaybackInfo "1,1.0,-2": elapsed: out of range (the value is "state,rate,elapsed seconds", for example "1,1.0,32.456")"#),
        ("entity-update", [0x00, 0x01, 0x00] + Array("7,1.0,2".utf8),
         #"byte 3: PlaybackInfo "7,1.0,2": state: 7 is not a PlaybackState (0 paused, 1 playing, 2 rewinding, 3 fast forwarding) (the value is "state,rate,elapsed seconds", for example "1,1.0,32.456")"#),
        ("entity-update", [0x00, 0x01, 0x00] + Array("1,1,2,3".utf8),
         #"byte 8: PlaybackInfo "1,1,2,3": PlaybackInfo has 4 fields, expected 3 (the value is "state,rate,elapsed seconds", for example "1,1.0,32.456")"#),
        ("entity-update", [0x00, 0x02, 0x00] + Array("1.5".utf8), #"byte 3: Volume "1.5": volume: out of range (0.0 to 1.0)"#),
        ("entity-update", [0x02, 0x03, 0x00] + Array("3:33".utf8), #"byte 3: Duration "3:33": duration: not a decimal number (seconds, for example "213.42")"#),
        ("entity-update-command", [], "byte 0: an Entity Update registration is an EntityID followed by AttributeIDs, got no bytes"),
        ("entity-update-command", [0x02], "byte 1: an Entity Update registration names at least one AttributeID after the EntityID (the phone answers Invalid Command), got 1 byte"),
        ("entity-attribute", [0x02], "byte 1: an Entity Attribute command is 2 bytes (EntityID, AttributeID), got 1"),
        ("entity-attribute", [0x02, 0x02, 0x00], "byte 2: an Entity Attribute command is 2 bytes (EntityID, AttributeID), got 3"),
        ("remote-command", [], "byte 0: a Remote Command is 1 byte (the RemoteCommandID), got 0"),
        ("remote-command", [0x02, 0x03], "byte 1: a Remote Command is 1 byte (the RemoteCommandID), got 2"),
    ]

    static func decode(_ kind: String, _ bytes: [UInt8]) throws(DecodeError) -> DecodedRecord {
        switch kind {
        case "entity-update": try AMSDecoding.entityUpdate(bytes)
        case "entity-update-command": try AMSDecoding.entityUpdateCommand(bytes)
        case "entity-attribute": try AMSDecoding.entityAttributeCommand(bytes)
        default: try AMSDecoding.remoteCommand(bytes)
        }
    }

    @Test("bad AMS input: a message with the byte offset", arguments: badInput)
    func bad(kind: String, bytes: [UInt8], message: String) {
        #expect(throws: DecodeError.self) { try Self.decode(kind, bytes) }
        do { _ = try Self.decode(kind, bytes) } catch { #expect(error.description == message) }
    }

    @Test("random bytes never crash the AMS decoders: a record or an error with an offset inside the input")
    func randomBytes() {
        var rng = SplitMix(seed: 17)
        for _ in 0..<3000 {
            let count = Int(rng.next() % 24)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            // Mostly-valid headers and decimal text, so the value parsers are reached.
            if count >= 3, rng.next() % 2 == 0 {
                bytes[0] = UInt8(rng.next() % 3)
                bytes[1] = UInt8(rng.next() % 4)
                bytes[2] = UInt8(rng.next() % 2)
                let alphabet = Array("0123456789.,- ".utf8)
                for i in 3..<count { bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            }
            for kind in ["entity-update", "entity-update-command", "entity-attribute", "remote-command"] {
                do { _ = try Self.decode(kind, bytes) } catch {
                    guard case .byte(let o) = error.location else { Issue.record("no offset: \(error)"); continue }
                    #expect(o >= 0 && o <= bytes.count, "\(kind) \(bytes): \(error)")
                }
            }
            _ = AMSDecoding.remoteCommandNotification(bytes)
        }
    }
}

/// A small deterministic generator for the random-input test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
