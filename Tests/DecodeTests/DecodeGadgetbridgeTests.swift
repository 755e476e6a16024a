import Decode
import Gadgetbridge
import Testing

@testable import Decode

/// An Android phone on the watch's Nordic UART, as `btmon -w` on the watch
/// records it at ATT_MTU 23: the watch looks at the phone's server (a
/// Battery service whose handles are the same numbers as the UART's), the
/// phone discovers the watch's UART and subscribes to TX, the watch tells
/// its version (a reply in three notifications), the phone's clock line
/// (Write Requests) and a notification (Write Commands) each in 20-byte
/// writes, the watch's DISMISS, a line that is not JSON, a line of
/// JavaScript, the phone's battery level, and a line cut by the link closing.
enum GadgetbridgeTestCapture {
    typealias Item = TestCapture.Item

    static let uart = HCIFrames.uuid128("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
    static let rx = HCIFrames.uuid128("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")
    static let tx = HCIFrames.uuid128("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")

    static func watch(_ pdu: [UInt8]) -> Item { .att(watchSends: true, pdu) }
    static func phone(_ pdu: [UInt8]) -> Item { .att(watchSends: false, pdu) }

    /// The line in `chunk`-byte writes on RX (value handle 0x0012): Write
    /// Commands, or Write Requests each answered.
    static func written(_ line: [UInt8], requests: Bool = false, chunk: Int = 20) -> [Item] {
        stride(from: 0, to: line.count, by: chunk).flatMap { at -> [Item] in
            let part = Array(line[at..<min(at + chunk, line.count)])
            return requests ? [phone([0x12, 0x12, 0x00] + part), watch([0x13])] : [phone([0x52, 0x12, 0x00] + part)]
        }
    }

    /// The line in notifications on TX (value handle 0x0014) of 20 bytes.
    static func notified(_ line: [UInt8]) -> [Item] {
        stride(from: 0, to: line.count, by: 20).map { at in
            watch([0x1B, 0x14, 0x00] + line[at..<min(at + 20, line.count)])
        }
    }

    /// A reply line as the watch encodes it, `\r\n` included.
    static func reply(_ r: GadgetbridgeReply) -> [UInt8] {
        var line = [UInt8](repeating: 0, count: GadgetbridgeReply.maxLength)
        let n = line.withUnsafeMutableBytes { r.encode(into: $0) }
        return Array(line[..<n])
    }

    static let clock = Array("\u{10}setTime(1735732800);E.setTimeZone(1.0);(s=>s&&(s.timezone=1.0,require('Storage').write('setting.json',s)))(require('Storage').readJSON('setting.json',1))\n".utf8)
    /// ISO-8859-1, as Gadgetbridge writes it: é is the one byte 0xE9.
    static let notify = Array("\u{10}GB({\"t\":\"notify\",\"id\":1234,\"src\":\"WhatsApp\",\"title\":\"Ren".utf8) + [0xE9]
        + Array("\",\"body\":\"Dinner at 7?\\nOK\"})\n".utf8)

    static var items: [Item] {
        [TestCapture.items[0]]
            // The watch looks for ANCS on the phone: a Battery service, Battery Level at 0x0012.
            + [
                watch([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
                phone([0x11, 0x06, 0x10, 0x00, 0x13, 0x00, 0x0F, 0x18]),
                watch([0x08, 0x10, 0x00, 0x13, 0x00, 0x03, 0x28]),
                phone([0x09, 0x07, 0x11, 0x00, 0x12, 0x12, 0x00, 0x19, 0x2A]),
                // Gadgetbridge discovers the watch: the UART at 0x0010-0x0015, RX 0x0012, TX 0x0014, its CCCD 0x0015.
                phone([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
                watch([0x11, 0x14, 0x10, 0x00, 0x15, 0x00] + uart),
                phone([0x08, 0x10, 0x00, 0x15, 0x00, 0x03, 0x28]),
                watch([0x09, 0x15, 0x11, 0x00, 0x0C, 0x12, 0x00] + rx + [0x13, 0x00, 0x10, 0x14, 0x00] + tx),
                phone([0x04, 0x15, 0x00, 0x15, 0x00]),
                watch([0x05, 0x01, 0x15, 0x00, 0x02, 0x29]),
                phone([0x12, 0x15, 0x00, 0x01, 0x00]),
                watch([0x13]),
            ]
            + notified(reply(.version("0.1")))
            + written(clock, requests: true)
            + written(notify)
            + notified(reply(.notification(id: 1234, .dismiss)))
            + written(Array("\u{10}GB({\"t\":\"notify\",\u{1B}[2J})\n".utf8))
            + written(Array("\u{10}g.dump()\n".utf8))
            + [phone([0x1B, 0x12, 0x00, 0x55])]
            + written(Array("\u{10}GB({\"t\":\"find\"".utf8))
            + [.event(HCIFrames.event(0x05, [0x00, 0x40, 0x00, 0x13]))]
    }
}

@Suite("Decode: Gadgetbridge on the Nordic UART")
struct DecodeGadgetbridgeTests {
    static func decode(_ side: CaptureSide = .watch) throws -> [DecodedRecord] {
        let d = try CaptureDecoder(side: side).decode(TestCapture.file(.monitor, GadgetbridgeTestCapture.items))
        #expect(d.error == nil)
        return d.records
    }

    /// The Gadgetbridge and malformed records, and the ATT lines that name the UART's handles.
    static let golden = """
        #5 18:30:05.004000 phone→watch ATT Read By Type Response: 0x0011 characteristic 2A19 (Battery Level) value 0x0012 [read,notify]
        #7 18:30:05.006000 watch→phone ATT Read By Group Type Response: 0x0010-0x0015 6E400001-B5A3-F393-E0A9-E50E24DCCA9E (Nordic UART)
        #9 18:30:05.008000 watch→phone ATT Read By Type Response: 0x0011 characteristic 6E400002-B5A3-F393-E0A9-E50E24DCCA9E (UART RX) value 0x0012 [write_without_response,write]; 0x0013 characteristic 6E400003-B5A3-F393-E0A9-E50E24DCCA9E (UART TX) value 0x0014 [notify]
        #12 18:30:05.011000 phone→watch ATT Write Request handle 0x0015 (CCCD of UART TX): 01 00 (notifications on)
        #14 18:30:05.013000 watch→phone ATT Handle Value Notification handle 0x0014 (UART TX): 7b 22 74 22 3a 22 76 65 72 22 2c 22 66 77 22 3a 22 30 2e 31
        #16 18:30:05.015000 watch→phone Gadgetbridge {"t":"ver","fw":"0.1","hw":"WristCore"}
        #17 18:30:05.016000 phone→watch ATT Write Request handle 0x0012 (UART RX): 10 73 65 74 54 69 6d 65 28 31 37 33 35 37 33 32 38 30 30 29
        #31 18:30:05.030000 phone→watch Gadgetbridge setTime 2025-01-01 12:00:00 UTC, zone +1:00
        #33 18:30:05.032000 phone→watch ATT Write Command handle 0x0012 (UART RX): 10 47 42 28 7b 22 74 22 3a 22 6e 6f 74 69 66 79 22 2c 22 69
        #37 18:30:05.036000 phone→watch Gadgetbridge notify id=1234 src="WhatsApp" title="René" body="Dinner at 7?\\nOK"
        #39 18:30:05.038000 watch→phone Gadgetbridge {"t":"notify","id":1234,"n":"DISMISS"}
        #41 18:30:05.040000 phone→watch MALFORMED Gadgetbridge line: not JSON (unexpected byte 0x1B at 14): "\\u{10}GB({\\"t\\":\\"notify\\",\\u{1b}[2J})"
        #42 18:30:05.041000 phone→watch Gadgetbridge JavaScript for a Bangle.js (ignored): "\\u{10}g.dump()"
        #43 18:30:05.042000 phone→watch ATT Handle Value Notification handle 0x0012 (Battery Level): 55
        #45 18:30:05.044000 phone→watch Gadgetbridge UART RX: 15 bytes of a line without its end when the link closed
        #45 18:30:05.044000 HCI Disconnection Complete handle 0x0040, status 0x00, reason 0x13 (Remote User Terminated Connection)
        """

    static func shown(_ records: [DecodedRecord]) -> [String] {
        let lines = Set(golden.split(separator: "\n").map(String.init))
        return records.filter { r in
            r.layer == .gadgetbridge || r.layer == .malformed || r.type == "disconnection_complete" || lines.contains(r.textLine)
        }.map(\.textLine)
    }

    @Test("a Gadgetbridge session: the UART named from the phone's discovery of the watch, lines put back together and decoded")
    func session() throws {
        let lines = Self.shown(try Self.decode())
        let golden = Self.golden.split(separator: "\n").map(String.init)
        #expect(lines.count == golden.count)
        for (got, want) in zip(lines, golden) { #expect(got == want) }
        for line in lines { #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) }
    }

    @Test("each server's handles are its own: the phone's 0x0012 is Battery Level, the watch's UART RX")
    func twoServers() throws {
        let records = try Self.decode()
        let battery = try #require(records.first { $0.type == "handle_value_notification" && field($0, "handle") == .integer(0x12) })
        #expect(field(battery, "attribute") == .string("Battery Level"))
        let write = try #require(records.first { $0.type == "write_command" })
        #expect(field(write, "attribute") == .string("UART RX"))
        #expect(!records.contains { $0.layer == .gadgetbridge && $0.packet == battery.packet })
    }

    @Test("JSON lines: the message's fields named as Gadgetbridge's keys, the clock, the reply's JSON, the bad line as text")
    func json() throws {
        let records = try Self.decode()
        let gadgetbridge = records.filter { $0.layer == .gadgetbridge || $0.layer == .malformed }.map(\.jsonLine)
        #expect(gadgetbridge == [
            #"{"packet":16,"time":"2024-03-14T18:30:05.015000Z","time_us":1710441005015000,"direction":"watch_to_phone","layer":"gadgetbridge","type":"reply","summary":"{\"t\":\"ver\",\"fw\":\"0.1\",\"hw\":\"WristCore\"}","json":"{\"t\":\"ver\",\"fw\":\"0.1\",\"hw\":\"WristCore\"}"}"#,
            #"{"packet":31,"time":"2024-03-14T18:30:05.030000Z","time_us":1710441005030000,"direction":"phone_to_watch","layer":"gadgetbridge","type":"set_time","summary":"setTime 2025-01-01 12:00:00 UTC, zone +1:00","utc_seconds":1735732800,"utc":"2025-01-01T12:00:00Z","zone_offset_seconds":3600,"zone":"+1:00"}"#,
            #"{"packet":37,"time":"2024-03-14T18:30:05.036000Z","time_us":1710441005036000,"direction":"phone_to_watch","layer":"gadgetbridge","type":"message","summary":"notify id=1234 src=\"WhatsApp\" title=\"René\" body=\"Dinner at 7?\\nOK\"","t":"notify","id":1234,"src":"WhatsApp","title":"René","body":"Dinner at 7?\nOK"}"#,
            #"{"packet":39,"time":"2024-03-14T18:30:05.038000Z","time_us":1710441005038000,"direction":"watch_to_phone","layer":"gadgetbridge","type":"reply","summary":"{\"t\":\"notify\",\"id\":1234,\"n\":\"DISMISS\"}","json":"{\"t\":\"notify\",\"id\":1234,\"n\":\"DISMISS\"}"}"#,
            #"{"packet":41,"time":"2024-03-14T18:30:05.040000Z","time_us":1710441005040000,"direction":"phone_to_watch","layer":"malformed","type":"malformed","summary":"Gadgetbridge line: not JSON (unexpected byte 0x1B at 14): \"\\u{10}GB({\\\"t\\\":\\\"notify\\\",\\u{1b}[2J})\"","error":"not JSON (unexpected byte 0x1B at 14)","line":"\u0010GB({\"t\":\"notify\",\u001b[2J})"}"#,
            #"{"packet":42,"time":"2024-03-14T18:30:05.041000Z","time_us":1710441005041000,"direction":"phone_to_watch","layer":"gadgetbridge","type":"javascript","summary":"JavaScript for a Bangle.js (ignored): \"\\u{10}g.dump()\"","line":"\u0010g.dump()"}"#,
            #"{"packet":45,"time":"2024-03-14T18:30:05.044000Z","time_us":1710441005044000,"direction":"phone_to_watch","layer":"gadgetbridge","type":"line_incomplete","summary":"UART RX: 15 bytes of a line without its end when the link closed","characteristic":"rx","length":15,"reason":"the link closed"}"#,
        ])
    }

    @Test("captured on the phone, the same records with every direction swapped")
    func phoneSide() throws {
        let watch = try Self.decode()
        let phone = try Self.decode(.phone)
        #expect(phone.map(\.direction) == watch.map { $0.direction?.opposite })
        #expect(phone.map(\.summary) == watch.map(\.summary))
    }

    @Test("other messages: their main fields; a message without its type or id is malformed; an overlong line is dropped whole")
    func messages() throws {
        let c = ATTConversation()
        for item in Array(GadgetbridgeTestCapture.items[5...10]) {
            guard case .att(let watchSends, let pdu) = item else { continue }
            _ = c.decode(pdu, direction: watchSends ? .watchToPhone : .phoneToWatch)
        }
        func summaries(_ text: String) -> [String] {
            c.decode([0x52, 0x12, 0x00] + Array(text.utf8), direction: .phoneToWatch).filter { $0.layer != .att }.map(\.textLine)
        }
        #expect(summaries("\u{10}GB({\"t\":\"notify-\",\"id\":7})\n\u{10}GB({\"t\":\"call\",\"cmd\":\"incoming\",\"name\":\"Mom\",\"number\":\"+33 1\"})\n") == [
            "phone→watch Gadgetbridge notify- id=7", #"phone→watch Gadgetbridge call cmd=incoming name="Mom" number="+33 1""#,
        ])
        #expect(summaries("\u{10}GB({\"t\":\"musicinfo\",\"artist\":\"A\",\"track\":\"T\",\"dur\":213})\n\u{10}GB({\"t\":\"musicstate\",\"state\":\"play\",\"position\":32})\n") == [
            #"phone→watch Gadgetbridge musicinfo artist="A" track="T" dur=213"#, "phone→watch Gadgetbridge musicstate state=play position=32",
        ])
        #expect(summaries("\u{10}GB({\"t\":\"find\",\"n\":true})\n\u{10}GB({\"t\":\"vibrate\",\"n\":2})\n\u{10}GB({\"t\":\"is_gps_active\"})\n") == [
            "phone→watch Gadgetbridge find n=true", "phone→watch Gadgetbridge vibrate n=2",
            "phone→watch Gadgetbridge is_gps_active (not acted on by this watch)",
        ])
        #expect(summaries("\u{10}GB({\"t\":\"weather\",\"temp\":288,\"txt\":\"clouds\",\"loc\":\"Berlin\"})\n\u{10}GB({\"t\":\"calendar-\",\"id\":[5,6]})\n") == [
            #"phone→watch Gadgetbridge weather temp=288 txt="clouds" loc="Berlin""#, "phone→watch Gadgetbridge calendar- id=5 id=6",
        ])
        #expect(summaries("\u{10}GB({\"id\":1})\n\u{10}GB({\"t\":\"notify\"})\n") == [
            "phone→watch MALFORMED Gadgetbridge line: JSON without a message type: \"\\u{10}GB({\\\"id\\\":1})\"",
            "phone→watch MALFORMED Gadgetbridge line: a message without its id: \"\\u{10}GB({\\\"t\\\":\\\"notify\\\"})\"",
        ])
        #expect(summaries("\u{10}setTime(1735732800);E.setTimeZone(-3.5)\n\u{10}setTime(0)\n") == [
            "phone→watch Gadgetbridge setTime 2025-01-01 12:00:00 UTC, zone -3:30", "phone→watch Gadgetbridge setTime 1970-01-01 00:00:00 UTC",
        ])
        var overlong: [String] = []
        for _ in 0..<250 { overlong += summaries(String(repeating: "x", count: 20)) }
        #expect(overlong.isEmpty)
        #expect(summaries("\n\u{10}GB({\"t\":\"find\",\"n\":false})\n") == [
            "phone→watch MALFORMED Gadgetbridge line: a line longer than 4096 bytes (dropped)", "phone→watch Gadgetbridge find n=false",
        ])
    }
}
