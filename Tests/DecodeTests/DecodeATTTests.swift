import ATTCodec
import Decode
import Testing

@testable import Decode

@Suite("Decode: ATT PDUs")
struct DecodeATTTests {
    /// Every opcode the codec knows (and two it passes through), with its line.
    static let vectors: [(String, String)] = [
        ("01 12 35 00 05", "ATT Error Response to Write Request, handle 0x0035: Insufficient Authentication (0x05)"),
        ("02 f7 00", "ATT Exchange MTU Request: client Rx MTU 247"),
        ("03 17 00", "ATT Exchange MTU Response: server Rx MTU 23"),
        ("04 01 00 ff ff", "ATT Find Information Request 0x0001-0xffff"),
        ("05 01 03 00 02 29 04 00 00 29", "ATT Find Information Response: 0x0003 2902 (CCCD), 0x0004 2900 (Extended Properties)"),
        ("05 02 10 00 d0 00 2d 12 1e 4b 0f a4 99 4e ce b5 31 f4 05 79", "ATT Find Information Response: 0x0010 7905F431-B5CE-4E99-A40F-4B1E122D00D0 (ANCS)"),
        ("06 01 00 ff ff 00 28 d0 00 2d 12 1e 4b 0f a4 99 4e ce b5 31 f4 05 79", "ATT Find By Type Value Request 0x0001-0xffff: 2800 (Primary Service) = 7905F431-B5CE-4E99-A40F-4B1E122D00D0 (ANCS)"),
        ("07 30 00 3a 00", "ATT Find By Type Value Response: 0x0030-0x003a"),
        ("08 01 00 ff ff 00 2a", "ATT Read By Type Request 0x0001-0xffff: 2A00 (Device Name)"),
        ("09 04 03 00 57 61", "ATT Read By Type Response: 0x0003: 57 61"),
        ("09 07 0d 00 10 0e 00 2b 2a", "ATT Read By Type Response: 0x000d characteristic 2A2B (CTS Current Time) value 0x000e [notify]"),
        ("0a 03 00", "ATT Read Request handle 0x0003"),
        ("0b 57 61 74 63 68", "ATT Read Response: 57 61 74 63 68"),
        ("0c 03 00 16 00", "ATT Read Blob Request handle 0x0003 offset 22"),
        ("0d 21 22", "ATT Read Blob Response: 21 22"),
        ("0e 03 00 05 00", "ATT Read Multiple Request: handle 0x0003, handle 0x0005"),
        ("0f 01 02 03", "ATT Read Multiple Response: 01 02 03"),
        ("10 01 00 ff ff 00 28", "ATT Read By Group Type Request 0x0001-0xffff: 2800 (Primary Service)"),
        ("11 06 01 00 05 00 00 18", "ATT Read By Group Type Response: 0x0001-0x0005 1800 (Generic Access)"),
        ("12 35 00 02 2a 00 00 00 00", "ATT Write Request handle 0x0035: 02 2a 00 00 00 00"),
        ("13", "ATT Write Response"),
        ("16 35 00 00 00 aa bb", "ATT Prepare Write Request handle 0x0035 offset 0: aa bb"),
        ("17 35 00 04 00 aa bb", "ATT Prepare Write Response handle 0x0035 offset 4: aa bb"),
        ("18 01", "ATT Execute Write Request: write all"),
        ("18 00", "ATT Execute Write Request: cancel all"),
        ("19", "ATT Execute Write Response"),
        ("1b 32 00 00 01 00 01 43 00 00 00", "ATT Handle Value Notification handle 0x0032: 00 01 00 01 43 00 00 00"),
        ("1d 07 00 01 00 ff ff", "ATT Handle Value Indication handle 0x0007: 01 00 ff ff"),
        ("1e", "ATT Handle Value Confirmation"),
        ("52 35 00", "ATT Write Command handle 0x0035: (empty)"),
        ("d2 35 00 01 00 01 02 03 04 05 06 07 08 09 0a 0b 0c", "ATT Signed Write Command handle 0x0035: 01 00 signature 0102030405060708090a0b0c"),
        ("20 03 00 05 00", "ATT Read Multiple Variable Request: 03 00 05 00"),
        ("23 32 00 01 00 aa", "ATT Multiple Handle Value Notification: 32 00 01 00 aa"),
    ]

    @Test("every opcode decodes to its line", arguments: vectors)
    func opcode(hex: String, line: String) throws {
        let r = try ATTDecoding.decode(HexBytes.parse(hex))
        #expect(r.textLine == line)
        #expect(r.layer == .att)
        #expect(field(r, "opcode") == .int(try HexBytes.parse(hex)[0]))
    }

    @Test("ATT JSON fields")
    func json() throws {
        #expect(try ATTDecoding.decode(HexBytes.parse("01 12 35 00 a2")).jsonLine
            == #"{"layer":"att","type":"error_response","summary":"Error Response to Write Request, handle 0x0035: ANCS Invalid Parameter (0xA2)","opcode":1,"opcode_name":"Error Response","request_opcode":18,"request_name":"Write Request","handle":53,"error":162,"error_name":"ANCS Invalid Parameter"}"#)
        #expect(try ATTDecoding.decode(HexBytes.parse("08 01 00 ff ff 03 28")).jsonLine
            == #"{"layer":"att","type":"read_by_type_request","summary":"Read By Type Request 0x0001-0xffff: 2803 (Characteristic)","opcode":8,"opcode_name":"Read By Type Request","start_handle":1,"end_handle":65535,"attribute_type":"2803","attribute_type_name":"Characteristic"}"#)
    }

    @Test("a --pdu conversation: discovery names the handles, ANCS values are decoded")
    func conversation() throws {
        let c = ATTConversation()
        var lines: [String] = []
        for hex in [
            "06 01 00 ff ff 00 28 d0 00 2d 12 1e 4b 0f a4 99 4e ce b5 31 f4 05 79", "07 30 00 3a 00",
            "08 30 00 3a 00 03 28", "09 15 31 00 10 32 00 bd 1d a2 99 e6 25 58 8c d9 42 01 63 0d 12 bf 9f",
            "1b 32 00 00 01 00 01 43 00 00 00",
            "0a 40 00", "0b 00",
        ] {
            lines += c.decode(try HexBytes.parse(hex), direction: nil).map(\.textLine)
        }
        #expect(lines == [
            "ATT Find By Type Value Request 0x0001-0xffff: 2800 (Primary Service) = 7905F431-B5CE-4E99-A40F-4B1E122D00D0 (ANCS)",
            "ATT Find By Type Value Response (7905F431-B5CE-4E99-A40F-4B1E122D00D0 (ANCS)): 0x0030-0x003a",
            "ATT Read By Type Request 0x0030-0x003a: 2803 (Characteristic)",
            "ATT Read By Type Response: 0x0031 characteristic 9FBF120D-6301-42D9-8C58-25E699A21DBD (ANCS Notification Source) value 0x0032 [notify]",
            "ATT Handle Value Notification handle 0x0032 (ANCS Notification Source): 00 01 00 01 43 00 00 00",
            "ANCS Notification Source: added UID 67, Other (count 1), flags Silent",
            "ATT Read Request handle 0x0040",
            "ATT Read Response for handle 0x0040: 00",
        ])
        #expect(c.map(servedIn: nil).service(containing: 0x32)?.uuid.description == "7905F431-B5CE-4E99-A40F-4B1E122D00D0")
    }

    @Test("bad ATT input: a message with the byte offset", arguments: [
        ("", "byte 0: an ATT PDU has at least 1 byte (the opcode), got none"),
        ("12 35", "byte 2: Write Request (0x12) needs at least 3 bytes, got 2"),
        ("0a 03 00 00", "byte 3: Read Request (0x0a) is 3 bytes, got 4"),
        ("13 00", "byte 1: Write Response (0x13) is 1 bytes, got 2"),
        ("05 03 03 00 02 29", "byte 1: Find Information Response (0x05): invalid format 3 (1: 16-bit UUIDs, 2: 128-bit)"),
        ("05 01 03 00 02", "byte 2: Find Information Response (0x05): invalid list: 3 bytes is not a whole number of elements"),
        ("08 01 00 ff ff 00 28 00", "byte 5: Read By Type Request (0x08): invalid attribute type: 3 bytes, a UUID is 2 or 16"),
        ("09 01 03 00", "byte 1: Read By Type Response (0x09): invalid element length 1"),
        ("18 02", "byte 1: Execute Write Request (0x18): invalid flags 0x02 (00 cancel, 01 write)"),
        ("d2 35 00 01", "byte 4: Signed Write Command (0xd2) needs at least 15 bytes, got 4"),
    ])
    func errors(hex: String, message: String) throws {
        #expect(throws: DecodeError.self) { try ATTDecoding.decode(HexBytes.parse(hex)) }
        do { _ = try ATTDecoding.decode(HexBytes.parse(hex)) } catch let e as DecodeError { #expect(e.description == message) }
    }
}
