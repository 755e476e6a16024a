import AMS
import ATTCodec
import Decode
import HAL
import Testing

@testable import Decode

/// The watch's side of an AMS session at ATT_MTU 23, as `btmon -w` on the
/// watch records it: discovery of AMS, the two subscriptions, the supported
/// commands, both registrations and the values they bring, a title cut by
/// the notification and read whole (Read, two Read Blobs), a read the watch
/// stopped early, Remote Commands accepted and refused, a refused Entity
/// Attribute selection, a malformed Entity Update, the link closing.
enum AMSTestCapture {
    typealias Item = TestCapture.Item

    static let ams = HCIFrames.uuid128("89D3502B-0F36-433A-8EF4-C502AD55F8DC")
    static let remoteCommand = HCIFrames.uuid128("9B3C81D8-57B1-4A8A-B8DF-0E56F7CA51C2")
    static let entityUpdate = HCIFrames.uuid128("2F7CABCE-808D-411F-9A0C-BB92BA96C102")
    static let entityAttribute = HCIFrames.uuid128("C6B2F38C-23AB-46D8-A6AB-A3A870BBD5D7")

    /// Value handles: Remote Command 0x0052, Entity Update 0x0055, Entity Attribute 0x0058.
    static let title = Array("Come On! Feel the Illinoise! Part I: The World's Fair".utf8)

    static func watch(_ pdu: [UInt8]) -> Item { .att(watchSends: true, pdu) }
    static func phone(_ pdu: [UInt8]) -> Item { .att(watchSends: false, pdu) }
    static func update(_ entity: UInt8, _ attribute: UInt8, _ value: String, truncated: Bool = false) -> Item {
        phone([0x1B, 0x55, 0x00, entity, attribute, truncated ? 1 : 0] + Array(value.utf8))
    }

    static var items: [Item] {
        [
            TestCapture.items[0],  // LE Connection Complete, handle 0x0040
            watch([0x02, 0x17, 0x00]), phone([0x03, 0x17, 0x00]),
            watch([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
            phone([0x11, 0x14, 0x50, 0x00, 0x5A, 0x00] + ams),
            watch([0x08, 0x50, 0x00, 0x5A, 0x00, 0x03, 0x28]),
            phone([0x09, 0x15]
                + [0x51, 0x00, 0x18, 0x52, 0x00] + remoteCommand
                + [0x54, 0x00, 0x18, 0x55, 0x00] + entityUpdate
                + [0x57, 0x00, 0x0A, 0x58, 0x00] + entityAttribute),
            watch([0x04, 0x53, 0x00, 0x53, 0x00]), phone([0x05, 0x01, 0x53, 0x00, 0x02, 0x29]),
            watch([0x04, 0x56, 0x00, 0x56, 0x00]), phone([0x05, 0x01, 0x56, 0x00, 0x02, 0x29]),
            // Subscriptions: Remote Command, then Entity Update.
            watch([0x12, 0x53, 0x00, 0x01, 0x00]), phone([0x13]),
            phone([0x1B, 0x52, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]),
            watch([0x12, 0x56, 0x00, 0x01, 0x00]), phone([0x13]),
            // The Player registration and its values.
            watch([0x12, 0x55, 0x00] + EntityUpdateCommand.player), phone([0x13]),
            update(0, 0, "Music"), update(0, 1, "1,1.0,32.456"), update(0, 2, "0.5"),
            // The Track registration; the title is cut to the 17 bytes a notification holds.
            watch([0x12, 0x55, 0x00] + EntityUpdateCommand.track), phone([0x13]),
            update(2, 0, "Sufjan Stevens"), update(2, 1, "Illinois"),
            phone([0x1B, 0x55, 0x00, 0x02, 0x02, 0x01] + title[..<17]),
            update(2, 3, "385.6"),
            // The whole title: select, Read (22 bytes), Read Blob at 22 (22), Read Blob at 44 (9: the end).
            watch([0x12, 0x58, 0x00, 0x02, 0x02]), phone([0x13]),
            watch([0x0A, 0x58, 0x00]), phone([0x0B] + title[..<22]),
            watch([0x0C, 0x58, 0x00, 0x16, 0x00]), phone([0x0D] + title[22..<44]),
            watch([0x0C, 0x58, 0x00, 0x2C, 0x00]), phone([0x0D] + title[44...]),
            // Remote Commands: toggle accepted, next refused (no player).
            watch([0x12, 0x52, 0x00, 0x02]), phone([0x13]),
            watch([0x12, 0x52, 0x00, 0x03]), phone([0x01, 0x12, 0x52, 0x00, 0xA0]),
            // A selection refused (the Queue is empty), then a read the watch stops after one full response.
            watch([0x12, 0x58, 0x00, 0x01, 0x00]), phone([0x01, 0x12, 0x58, 0x00, 0xA2]),
            watch([0x12, 0x58, 0x00, 0x02, 0x01]), phone([0x13]),
            watch([0x0A, 0x58, 0x00]), phone([0x0B] + title[..<22]),
            watch([0x12, 0x52, 0x00, 0x01]), phone([0x13]),
            // A broken Entity Update (2 bytes) and a bad PlaybackInfo: shown, and decoding goes on.
            phone([0x1B, 0x55, 0x00, 0x00, 0x01]),
            update(0, 1, "1,fast,3"),
            update(0, 1, "0,0.0,40.1"),
            .event(HCIFrames.event(0x05, [0x00, 0x40, 0x00, 0x13])),
        ]
    }
}

@Suite("Decode: AMS in captures")
struct DecodeAMSCaptureTests {
    /// Every AMS record and the ATT lines of the AMS handles that carry news.
    static let golden = """
        #4 18:30:05.003000 watch→phone ATT Read By Group Type Request 0x0001-0xffff: 2800 (Primary Service)
        #5 18:30:05.004000 phone→watch ATT Read By Group Type Response: 0x0050-0x005a 89D3502B-0F36-433A-8EF4-C502AD55F8DC (AMS)
        #6 18:30:05.005000 watch→phone ATT Read By Type Request 0x0050-0x005a: 2803 (Characteristic)
        #7 18:30:05.006000 phone→watch ATT Read By Type Response: 0x0051 characteristic 9B3C81D8-57B1-4A8A-B8DF-0E56F7CA51C2 (AMS Remote Command) value 0x0052 [write,notify]; 0x0054 characteristic 2F7CABCE-808D-411F-9A0C-BB92BA96C102 (AMS Entity Update) value 0x0055 [write,notify]; 0x0057 characteristic C6B2F38C-23AB-46D8-A6AB-A3A870BBD5D7 (AMS Entity Attribute) value 0x0058 [read,write]
        #12 18:30:05.011000 watch→phone ATT Write Request handle 0x0053 (CCCD of AMS Remote Command): 01 00 (notifications on)
        #14 18:30:05.013000 phone→watch ATT Handle Value Notification handle 0x0052 (AMS Remote Command): 00 01 02 03 04 05 06
        #14 18:30:05.013000 phone→watch AMS Remote Command: the player supports play, pause, toggle play/pause, next track, previous track, volume up, volume down
        #15 18:30:05.014000 watch→phone ATT Write Request handle 0x0056 (CCCD of AMS Entity Update): 01 00 (notifications on)
        #17 18:30:05.016000 watch→phone ATT Write Request handle 0x0055 (AMS Entity Update): 00 00 01 02
        #17 18:30:05.016000 watch→phone AMS Entity Update: register Player: Name, PlaybackInfo, Volume
        #19 18:30:05.018000 phone→watch AMS Entity Update: Player Name="Music"
        #20 18:30:05.019000 phone→watch AMS Entity Update: Player PlaybackInfo="1,1.0,32.456" (playing, rate 1.0, elapsed 0:32.456)
        #21 18:30:05.020000 phone→watch AMS Entity Update: Player Volume="0.5" (50%)
        #22 18:30:05.021000 watch→phone AMS Entity Update: register Track: Artist, Album, Title, Duration
        #24 18:30:05.023000 phone→watch AMS Entity Update: Track Artist="Sufjan Stevens"
        #25 18:30:05.024000 phone→watch AMS Entity Update: Track Album="Illinois"
        #26 18:30:05.025000 phone→watch AMS Entity Update: Track Title="Come On! Feel the" (truncated: the whole value is read through Entity Attribute)
        #27 18:30:05.026000 phone→watch AMS Entity Update: Track Duration="385.6" (6:25)
        #28 18:30:05.027000 watch→phone ATT Write Request handle 0x0058 (AMS Entity Attribute): 02 02
        #28 18:30:05.027000 watch→phone AMS Entity Attribute: select Track Title (the next read returns its whole value)
        #30 18:30:05.029000 watch→phone ATT Read Request handle 0x0058 (AMS Entity Attribute)
        #31 18:30:05.030000 phone→watch ATT Read Response for handle 0x0058 (AMS Entity Attribute): 43 6f 6d 65 20 4f 6e 21 20 46 65 65 6c 20 74 68 65 20 49 6c 6c 69
        #32 18:30:05.031000 watch→phone ATT Read Blob Request handle 0x0058 (AMS Entity Attribute) offset 22
        #34 18:30:05.033000 watch→phone ATT Read Blob Request handle 0x0058 (AMS Entity Attribute) offset 44
        #35 18:30:05.034000 phone→watch ATT Read Blob Response for handle 0x0058 (AMS Entity Attribute): 6c 64 27 73 20 46 61 69 72
        #35 18:30:05.034000 phone→watch AMS Entity Attribute: Track Title="Come On! Feel the Illinoise! Part I: The World's Fair" (3 reads)
        #36 18:30:05.035000 watch→phone ATT Write Request handle 0x0052 (AMS Remote Command): 02
        #36 18:30:05.035000 watch→phone AMS Remote Command: toggle play/pause
        #38 18:30:05.037000 watch→phone AMS Remote Command: next track
        #39 18:30:05.038000 phone→watch ATT Error Response to Write Request, handle 0x0052 (AMS Remote Command): AMS Invalid State (0xA0)
        #39 18:30:05.038000 phone→watch AMS Remote Command: the phone refused next track: invalid state (0xA0)
        #40 18:30:05.039000 watch→phone AMS Entity Attribute: select Queue Index (the next read returns its whole value)
        #41 18:30:05.040000 phone→watch ATT Error Response to Write Request, handle 0x0058 (AMS Entity Attribute): AMS Absent Attribute (0xA2)
        #41 18:30:05.040000 phone→watch AMS Entity Attribute: the phone refused the selection of Queue Index: absent attribute (0xA2)
        #42 18:30:05.041000 watch→phone AMS Entity Attribute: select Track Album (the next read returns its whole value)
        #45 18:30:05.044000 phone→watch AMS Entity Attribute: Track Album="Come On! Feel the Illi" (1 read; the reader stopped with a full response: the value may go on)
        #46 18:30:05.045000 watch→phone AMS Remote Command: pause
        #48 18:30:05.047000 phone→watch MALFORMED AMS Entity Update: byte 2: an Entity Update notification starts with EntityID, AttributeID and EntityUpdateFlags (3 bytes), got 2
        #49 18:30:05.048000 phone→watch MALFORMED AMS Entity Update: byte 5: PlaybackInfo "1,fast,3": rate: not a decimal number (the value is "state,rate,elapsed seconds", for example "1,1.0,32.456")
        #50 18:30:05.049000 phone→watch AMS Entity Update: Player PlaybackInfo="0,0.0,40.1" (paused, rate 0.0, elapsed 0:40.100)
        #51 18:30:05.050000 HCI Disconnection Complete handle 0x0040, status 0x00, reason 0x13 (Remote User Terminated Connection)
        """

    static func decode(_ datalink: BtsnoopWriter.Datalink = .monitor, _ items: [TestCapture.Item] = AMSTestCapture.items) throws -> [DecodedRecord] {
        let d = try CaptureDecoder(side: .watch).decode(TestCapture.file(datalink, items))
        #expect(d.error == nil)
        return d.records
    }

    /// The golden lines: every AMS, malformed and HCI disconnection record, and the ATT lines chosen above.
    static func shown(_ records: [DecodedRecord]) -> [String] {
        let lines = Set(golden.split(separator: "\n").map(String.init))
        return records.filter { r in
            r.layer == .ams || r.layer == .malformed || r.type == "disconnection_complete" || lines.contains(r.textLine)
        }.map(\.textLine)
    }

    @Test("an AMS session at MTU 23: exact lines (values, registrations, a title read whole, commands, errors)")
    func session() throws {
        let lines = Self.shown(try Self.decode())
        let golden = Self.golden.split(separator: "\n").map(String.init)
        #expect(lines.count == golden.count)
        for (got, want) in zip(lines, golden) { #expect(got == want) }
    }

    @Test("the title read whole: JSON fields as for ANCS attributes (entity, attribute, length, value), reads counted")
    func titleJSON() throws {
        let records = try Self.decode()
        let value = try #require(records.first { $0.type == "entity_attribute_value" })
        #expect(value.jsonLine == #"{"packet":35,"time":"2024-03-14T18:30:05.034000Z","time_us":1710441005034000,"direction":"phone_to_watch","layer":"ams","type":"entity_attribute_value","summary":"Entity Attribute: Track Title=\"Come On! Feel the Illinoise! Part I: The World's Fair\" (3 reads)","entity":"track","entity_id":2,"attribute":"title","attribute_id":2,"reads":3,"length":53,"value":"Come On! Feel the Illinoise! Part I: The World's Fair"}"#)
        let update = try #require(records.first { $0.type == "entity_update" && field($0, "truncated") == .bool(true) })
        #expect(update.jsonLine == #"{"packet":26,"time":"2024-03-14T18:30:05.025000Z","time_us":1710441005025000,"direction":"phone_to_watch","layer":"ams","type":"entity_update","summary":"Entity Update: Track Title=\"Come On! Feel the\" (truncated: the whole value is read through Entity Attribute)","entity":"track","entity_id":2,"attribute":"title","attribute_id":2,"flags":["truncated"],"flags_raw":1,"truncated":true,"length":17,"value":"Come On! Feel the"}"#)
        let refused = try #require(records.first { $0.type == "error_response" && field($0, "handle") == .integer(0x52) })
        #expect(field(refused, "error_name") == .string("AMS Invalid State"))
    }

    @Test("the same session as HCI UART H4 decodes to the same records, and captured on the phone the directions swap")
    func otherForms() throws {
        let monitor = try Self.decode()
        #expect(try Self.decode(.uart) == monitor)
        let phone = try CaptureDecoder(side: .phone).decode(TestCapture.file(.monitor, AMSTestCapture.items))
        #expect(phone.records.map(\.direction) == monitor.map { $0.direction?.opposite })
    }

    @Test("a read cut off by the link closing is shown with what arrived; the next link starts clean")
    func cutByDisconnection() throws {
        let items = Array(AMSTestCapture.items[..<29]) + [
            AMSTestCapture.watch([0x0A, 0x58, 0x00]), AMSTestCapture.phone([0x0B] + AMSTestCapture.title[..<22]),
            .event(HCIFrames.event(0x05, [0x00, 0x40, 0x00, 0x13])),
        ]
        let records = try Self.decode(.monitor, items)
        let cut = try #require(records.last { $0.type == "entity_attribute_value" })
        #expect(cut.textLine == #"#31 18:30:05.030000 phone→watch AMS Entity Attribute: Track Title="Come On! Feel the Illi" (1 read; the reader stopped with a full response: the value may go on)"#)
        #expect(field(cut, "complete") == .bool(false))
        #expect(records.last?.type == "disconnection_complete")
    }

    @Test("without the discovery in the capture AMS values stay bare ATT lines (nothing is guessed)")
    func noDiscovery() throws {
        let records = try Self.decode(.monitor, [TestCapture.items[0]] + Array(AMSTestCapture.items[16...]))
        #expect(!records.contains { $0.layer == .ams })
        #expect(records.contains { $0.textLine.hasSuffix("ATT Handle Value Notification handle 0x0055: 00 00 00 4d 75 73 69 63") })
    }

    @Test("an ATT conversation given as PDUs (--pdu) decodes AMS the same way, in order")
    func conversation() {
        let c = ATTConversation()
        var lines: [String] = []
        for item in AMSTestCapture.items {
            guard case .att(let watchSends, let pdu) = item else { continue }
            lines += c.decode(pdu, direction: watchSends ? .watchToPhone : .phoneToWatch).filter { $0.layer == .ams }.map(\.summary)
        }
        #expect(lines.contains(#"Entity Attribute: Track Title="Come On! Feel the Illinoise! Part I: The World's Fair" (3 reads)"#))
        let stopped = lines.firstIndex { $0.hasPrefix("Entity Attribute: Track Album=") }
        let pause = lines.firstIndex(of: "Remote Command: pause")
        #expect(stopped != nil && pause != nil && stopped! < pause!, "the stopped read ends before the request that ended it")
    }
}
