import ATTCodec
import Decode
import HAL
import Testing

@testable import Decode
import TextFormat

@Suite("Decode: btsnoop captures")
struct DecodeCaptureTests {
    /// The test session (TestCapture) as the watch's capture decodes it.
    static let goldenText = """
        #1 18:30:05.000000 HCI LE Connection Complete handle 0x0040, status 0x00, local role peripheral, peer 11:22:33:44:55:66
        #2 18:30:05.001000 watch→phone ATT Exchange MTU Request: client Rx MTU 185
        #3 18:30:05.002000 phone→watch ATT Exchange MTU Response: server Rx MTU 185
        #4 18:30:05.003000 watch→phone ATT Read By Group Type Request 0x0001-0xffff: 2800 (Primary Service)
        #5 18:30:05.004000 phone→watch ATT Read By Group Type Response: 0x0001-0x0005 1800 (Generic Access); 0x0006-0x0009 1801 (Generic Attribute)
        #6 18:30:05.005000 watch→phone ATT Read By Group Type Request 0x000a-0xffff: 2800 (Primary Service)
        #7 18:30:05.006000 phone→watch ATT Read By Group Type Response: 0x0030-0x003a 7905F431-B5CE-4E99-A40F-4B1E122D00D0 (ANCS)
        #8 18:30:05.007000 watch→phone ATT Read By Type Request 0x0030-0x003a: 2803 (Characteristic)
        #9 18:30:05.008000 phone→watch ATT Read By Type Response: 0x0031 characteristic 9FBF120D-6301-42D9-8C58-25E699A21DBD (ANCS Notification Source) value 0x0032 [notify]; 0x0034 characteristic 69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9 (ANCS Control Point) value 0x0035 [write,extended_properties]; 0x0037 characteristic 22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB (ANCS Data Source) value 0x0038 [notify]
        #10 18:30:05.009000 watch→phone ATT Find Information Request 0x0033-0x0033
        #11 18:30:05.010000 phone→watch ATT Find Information Response: 0x0033 2902 (CCCD)
        #12 18:30:05.011000 watch→phone ATT Find Information Request 0x0039-0x003a
        #13 18:30:05.012000 phone→watch ATT Find Information Response: 0x0039 2902 (CCCD)
        #14 18:30:05.013000 watch→phone ATT Write Request handle 0x0039 (CCCD of ANCS Data Source): 01 00 (notifications on)
        #15 18:30:05.014000 phone→watch ATT Write Response for handle 0x0039 (CCCD of ANCS Data Source)
        #16 18:30:05.015000 watch→phone ATT Write Request handle 0x0033 (CCCD of ANCS Notification Source): 01 00 (notifications on)
        #17 18:30:05.016000 phone→watch ATT Write Response for handle 0x0033 (CCCD of ANCS Notification Source)
        #18 18:30:05.017000 phone→watch ATT Handle Value Notification handle 0x0032 (ANCS Notification Source): 00 12 04 01 2a 00 00 00
        #18 18:30:05.017000 phone→watch ANCS Notification Source: added UID 42, Social (count 1), flags Important|NegativeAction
        #19 18:30:05.018000 watch→phone ATT Write Request handle 0x0035 (ANCS Control Point): 00 2a 00 00 00 00 01 20 00 03 40 00 05
        #19 18:30:05.018000 watch→phone ANCS Control Point: Get Notification Attributes UID 42: AppIdentifier, Title (max 32), Message (max 64), Date
        #20 18:30:05.019000 phone→watch ATT Write Response for handle 0x0035 (ANCS Control Point)
        #21 18:30:05.020000 phone→watch ATT Handle Value Notification handle 0x0038 (ANCS Data Source): 00 2a 00 00 00 00 13 00 63 6f 6d 2e 61 70 70 6c 65 2e 4d 6f 62 69 6c 65 53 4d 53 01 03 00
        #23 18:30:05.021250 phone→watch ATT Handle Value Notification handle 0x0038 (ANCS Data Source): 4d 6f 6d 03 11 00 44 69 6e 6e 65 72 20 61 74 20 37 3f 20 f0 9f 8d 9d 05 0f 00 32 30 32 34 30 33 31 34 54 31 38 33 30 30 35
        #23 18:30:05.021250 phone→watch ANCS Data Source: Get Notification Attributes response UID 42 (2 fragments): AppIdentifier="com.apple.MobileSMS", Title="Mom", Message="Dinner at 7? 🍝", Date="20240314T183005" (2024-03-14T18:30:05)
        #24 18:30:05.022250 watch→phone ATT Write Request handle 0x0035 (ANCS Control Point): 02 2a 00 00 00 01
        #24 18:30:05.022250 watch→phone ANCS Control Point: Perform Notification Action UID 42: negative
        #25 18:30:05.023250 phone→watch ATT Error Response to Write Request, handle 0x0035 (ANCS Control Point): ANCS Invalid Parameter (0xA2)
        #25 18:30:05.023250 phone→watch ANCS Control Point: the phone refused the command: invalid parameter (0xA2); no Data Source response follows
        #26 18:30:05.024250 HCI Disconnection Complete handle 0x0040, status 0x00, reason 0x13 (Remote User Terminated Connection)
        """

    static let goldenJSON = #"""
        {"packet":1,"time":"2024-03-14T18:30:05.000000Z","time_us":1710441005000000,"layer":"hci","type":"le_connection_complete","summary":"LE Connection Complete handle 0x0040, status 0x00, local role peripheral, peer 11:22:33:44:55:66","handle":64,"status":0,"role":"peripheral","peer":"11:22:33:44:55:66"}
        {"packet":2,"time":"2024-03-14T18:30:05.001000Z","time_us":1710441005001000,"direction":"watch_to_phone","layer":"att","type":"exchange_mtu_request","summary":"Exchange MTU Request: client Rx MTU 185","opcode":2,"opcode_name":"Exchange MTU Request","mtu":185}
        {"packet":3,"time":"2024-03-14T18:30:05.002000Z","time_us":1710441005002000,"direction":"phone_to_watch","layer":"att","type":"exchange_mtu_response","summary":"Exchange MTU Response: server Rx MTU 185","opcode":3,"opcode_name":"Exchange MTU Response","mtu":185}
        {"packet":4,"time":"2024-03-14T18:30:05.003000Z","time_us":1710441005003000,"direction":"watch_to_phone","layer":"att","type":"read_by_group_type_request","summary":"Read By Group Type Request 0x0001-0xffff: 2800 (Primary Service)","opcode":16,"opcode_name":"Read By Group Type Request","start_handle":1,"end_handle":65535,"attribute_type":"2800","attribute_type_name":"Primary Service"}
        {"packet":5,"time":"2024-03-14T18:30:05.004000Z","time_us":1710441005004000,"direction":"phone_to_watch","layer":"att","type":"read_by_group_type_response","summary":"Read By Group Type Response: 0x0001-0x0005 1800 (Generic Access); 0x0006-0x0009 1801 (Generic Attribute)","opcode":17,"opcode_name":"Read By Group Type Response","entries":[{"start_handle":1,"end_handle":5,"uuid":"1800","uuid_name":"Generic Access"},{"start_handle":6,"end_handle":9,"uuid":"1801","uuid_name":"Generic Attribute"}]}
        {"packet":6,"time":"2024-03-14T18:30:05.005000Z","time_us":1710441005005000,"direction":"watch_to_phone","layer":"att","type":"read_by_group_type_request","summary":"Read By Group Type Request 0x000a-0xffff: 2800 (Primary Service)","opcode":16,"opcode_name":"Read By Group Type Request","start_handle":10,"end_handle":65535,"attribute_type":"2800","attribute_type_name":"Primary Service"}
        {"packet":7,"time":"2024-03-14T18:30:05.006000Z","time_us":1710441005006000,"direction":"phone_to_watch","layer":"att","type":"read_by_group_type_response","summary":"Read By Group Type Response: 0x0030-0x003a 7905F431-B5CE-4E99-A40F-4B1E122D00D0 (ANCS)","opcode":17,"opcode_name":"Read By Group Type Response","entries":[{"start_handle":48,"end_handle":58,"uuid":"7905F431-B5CE-4E99-A40F-4B1E122D00D0","uuid_name":"ANCS"}]}
        {"packet":8,"time":"2024-03-14T18:30:05.007000Z","time_us":1710441005007000,"direction":"watch_to_phone","layer":"att","type":"read_by_type_request","summary":"Read By Type Request 0x0030-0x003a: 2803 (Characteristic)","opcode":8,"opcode_name":"Read By Type Request","start_handle":48,"end_handle":58,"attribute_type":"2803","attribute_type_name":"Characteristic"}
        {"packet":9,"time":"2024-03-14T18:30:05.008000Z","time_us":1710441005008000,"direction":"phone_to_watch","layer":"att","type":"read_by_type_response","summary":"Read By Type Response: 0x0031 characteristic 9FBF120D-6301-42D9-8C58-25E699A21DBD (ANCS Notification Source) value 0x0032 [notify]; 0x0034 characteristic 69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9 (ANCS Control Point) value 0x0035 [write,extended_properties]; 0x0037 characteristic 22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB (ANCS Data Source) value 0x0038 [notify]","opcode":9,"opcode_name":"Read By Type Response","entries":[{"handle":49,"value_handle":50,"uuid":"9FBF120D-6301-42D9-8C58-25E699A21DBD","uuid_name":"ANCS Notification Source","properties":["notify"],"properties_raw":16},{"handle":52,"value_handle":53,"uuid":"69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9","uuid_name":"ANCS Control Point","properties":["write","extended_properties"],"properties_raw":136},{"handle":55,"value_handle":56,"uuid":"22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB","uuid_name":"ANCS Data Source","properties":["notify"],"properties_raw":16}]}
        {"packet":10,"time":"2024-03-14T18:30:05.009000Z","time_us":1710441005009000,"direction":"watch_to_phone","layer":"att","type":"find_information_request","summary":"Find Information Request 0x0033-0x0033","opcode":4,"opcode_name":"Find Information Request","start_handle":51,"end_handle":51}
        {"packet":11,"time":"2024-03-14T18:30:05.010000Z","time_us":1710441005010000,"direction":"phone_to_watch","layer":"att","type":"find_information_response","summary":"Find Information Response: 0x0033 2902 (CCCD)","opcode":5,"opcode_name":"Find Information Response","entries":[{"handle":51,"uuid":"2902","uuid_name":"CCCD"}]}
        {"packet":12,"time":"2024-03-14T18:30:05.011000Z","time_us":1710441005011000,"direction":"watch_to_phone","layer":"att","type":"find_information_request","summary":"Find Information Request 0x0039-0x003a","opcode":4,"opcode_name":"Find Information Request","start_handle":57,"end_handle":58}
        {"packet":13,"time":"2024-03-14T18:30:05.012000Z","time_us":1710441005012000,"direction":"phone_to_watch","layer":"att","type":"find_information_response","summary":"Find Information Response: 0x0039 2902 (CCCD)","opcode":5,"opcode_name":"Find Information Response","entries":[{"handle":57,"uuid":"2902","uuid_name":"CCCD"}]}
        {"packet":14,"time":"2024-03-14T18:30:05.013000Z","time_us":1710441005013000,"direction":"watch_to_phone","layer":"att","type":"write_request","summary":"Write Request handle 0x0039 (CCCD of ANCS Data Source): 01 00 (notifications on)","opcode":18,"opcode_name":"Write Request","handle":57,"attribute":"CCCD of ANCS Data Source","value_hex":"0100","cccd":"notifications_on"}
        {"packet":15,"time":"2024-03-14T18:30:05.014000Z","time_us":1710441005014000,"direction":"phone_to_watch","layer":"att","type":"write_response","summary":"Write Response for handle 0x0039 (CCCD of ANCS Data Source)","opcode":19,"opcode_name":"Write Response","handle":57,"attribute":"CCCD of ANCS Data Source"}
        {"packet":16,"time":"2024-03-14T18:30:05.015000Z","time_us":1710441005015000,"direction":"watch_to_phone","layer":"att","type":"write_request","summary":"Write Request handle 0x0033 (CCCD of ANCS Notification Source): 01 00 (notifications on)","opcode":18,"opcode_name":"Write Request","handle":51,"attribute":"CCCD of ANCS Notification Source","value_hex":"0100","cccd":"notifications_on"}
        {"packet":17,"time":"2024-03-14T18:30:05.016000Z","time_us":1710441005016000,"direction":"phone_to_watch","layer":"att","type":"write_response","summary":"Write Response for handle 0x0033 (CCCD of ANCS Notification Source)","opcode":19,"opcode_name":"Write Response","handle":51,"attribute":"CCCD of ANCS Notification Source"}
        {"packet":18,"time":"2024-03-14T18:30:05.017000Z","time_us":1710441005017000,"direction":"phone_to_watch","layer":"att","type":"handle_value_notification","summary":"Handle Value Notification handle 0x0032 (ANCS Notification Source): 00 12 04 01 2a 00 00 00","opcode":27,"opcode_name":"Handle Value Notification","handle":50,"attribute":"ANCS Notification Source","value_hex":"001204012a000000"}
        {"packet":18,"time":"2024-03-14T18:30:05.017000Z","time_us":1710441005017000,"direction":"phone_to_watch","layer":"ancs","type":"notification_source","summary":"Notification Source: added UID 42, Social (count 1), flags Important|NegativeAction","event":"added","event_id":0,"uid":42,"category":"social","category_id":4,"category_count":1,"flags":["important","negative_action"],"flags_raw":18}
        {"packet":19,"time":"2024-03-14T18:30:05.018000Z","time_us":1710441005018000,"direction":"watch_to_phone","layer":"att","type":"write_request","summary":"Write Request handle 0x0035 (ANCS Control Point): 00 2a 00 00 00 00 01 20 00 03 40 00 05","opcode":18,"opcode_name":"Write Request","handle":53,"attribute":"ANCS Control Point","value_hex":"002a0000000001200003400005"}
        {"packet":19,"time":"2024-03-14T18:30:05.018000Z","time_us":1710441005018000,"direction":"watch_to_phone","layer":"ancs","type":"control_point","summary":"Control Point: Get Notification Attributes UID 42: AppIdentifier, Title (max 32), Message (max 64), Date","command":"get_notification_attributes","command_id":0,"uid":42,"attributes":[{"id":0,"name":"app_identifier"},{"id":1,"name":"title","max_length":32},{"id":3,"name":"message","max_length":64},{"id":5,"name":"date"}]}
        {"packet":20,"time":"2024-03-14T18:30:05.019000Z","time_us":1710441005019000,"direction":"phone_to_watch","layer":"att","type":"write_response","summary":"Write Response for handle 0x0035 (ANCS Control Point)","opcode":19,"opcode_name":"Write Response","handle":53,"attribute":"ANCS Control Point"}
        {"packet":21,"time":"2024-03-14T18:30:05.020000Z","time_us":1710441005020000,"direction":"phone_to_watch","layer":"att","type":"handle_value_notification","summary":"Handle Value Notification handle 0x0038 (ANCS Data Source): 00 2a 00 00 00 00 13 00 63 6f 6d 2e 61 70 70 6c 65 2e 4d 6f 62 69 6c 65 53 4d 53 01 03 00","opcode":27,"opcode_name":"Handle Value Notification","handle":56,"attribute":"ANCS Data Source","value_hex":"002a000000001300636f6d2e6170706c652e4d6f62696c65534d53010300"}
        {"packet":23,"time":"2024-03-14T18:30:05.021250Z","time_us":1710441005021250,"direction":"phone_to_watch","layer":"att","type":"handle_value_notification","summary":"Handle Value Notification handle 0x0038 (ANCS Data Source): 4d 6f 6d 03 11 00 44 69 6e 6e 65 72 20 61 74 20 37 3f 20 f0 9f 8d 9d 05 0f 00 32 30 32 34 30 33 31 34 54 31 38 33 30 30 35","opcode":27,"opcode_name":"Handle Value Notification","handle":56,"attribute":"ANCS Data Source","value_hex":"4d6f6d03110044696e6e657220617420373f20f09f8d9d050f00323032343033313454313833303035"}
        {"packet":23,"time":"2024-03-14T18:30:05.021250Z","time_us":1710441005021250,"direction":"phone_to_watch","layer":"ancs","type":"data_source","summary":"Data Source: Get Notification Attributes response UID 42 (2 fragments): AppIdentifier=\"com.apple.MobileSMS\", Title=\"Mom\", Message=\"Dinner at 7? 🍝\", Date=\"20240314T183005\" (2024-03-14T18:30:05)","command":"get_notification_attributes","command_id":0,"uid":42,"fragments":2,"attributes":[{"id":0,"name":"app_identifier","length":19,"value":"com.apple.MobileSMS"},{"id":1,"name":"title","length":3,"value":"Mom"},{"id":3,"name":"message","length":17,"value":"Dinner at 7? 🍝"},{"id":5,"name":"date","length":15,"value":"20240314T183005","date":"2024-03-14T18:30:05"}]}
        {"packet":24,"time":"2024-03-14T18:30:05.022250Z","time_us":1710441005022250,"direction":"watch_to_phone","layer":"att","type":"write_request","summary":"Write Request handle 0x0035 (ANCS Control Point): 02 2a 00 00 00 01","opcode":18,"opcode_name":"Write Request","handle":53,"attribute":"ANCS Control Point","value_hex":"022a00000001"}
        {"packet":24,"time":"2024-03-14T18:30:05.022250Z","time_us":1710441005022250,"direction":"watch_to_phone","layer":"ancs","type":"control_point","summary":"Control Point: Perform Notification Action UID 42: negative","command":"perform_notification_action","command_id":2,"uid":42,"action":"negative","action_id":1}
        {"packet":25,"time":"2024-03-14T18:30:05.023250Z","time_us":1710441005023250,"direction":"phone_to_watch","layer":"att","type":"error_response","summary":"Error Response to Write Request, handle 0x0035 (ANCS Control Point): ANCS Invalid Parameter (0xA2)","opcode":1,"opcode_name":"Error Response","request_opcode":18,"request_name":"Write Request","handle":53,"attribute":"ANCS Control Point","error":162,"error_name":"ANCS Invalid Parameter"}
        {"packet":25,"time":"2024-03-14T18:30:05.023250Z","time_us":1710441005023250,"direction":"phone_to_watch","layer":"ancs","type":"control_point_error","summary":"Control Point: the phone refused the command: invalid parameter (0xA2); no Data Source response follows","error":162,"error_name":"ANCS Invalid Parameter"}
        {"packet":26,"time":"2024-03-14T18:30:05.024250Z","time_us":1710441005024250,"layer":"hci","type":"disconnection_complete","summary":"Disconnection Complete handle 0x0040, status 0x00, reason 0x13 (Remote User Terminated Connection)","handle":64,"status":0,"reason":19}
        """#

    @Test("btmon -w capture (datalink 2001): exact text lines")
    func monitorText() throws {
        let d = try CaptureDecoder(side: .watch).decode(TestCapture.file(.monitor))
        #expect(d.format == .btsnoop(datalink: 2001))
        #expect(d.error == nil)
        let lines = d.records.map(\.textLine)
        let golden = Self.goldenText.split(separator: "\n").map(String.init)
        #expect(lines.count == golden.count)
        for (got, want) in zip(lines, golden) { #expect(got == want) }
    }

    @Test("btmon -w capture: exact JSON lines")
    func monitorJSON() throws {
        let d = try CaptureDecoder(side: .watch).decode(TestCapture.file(.monitor))
        let lines = d.records.map(\.jsonLine)
        let golden = Self.goldenJSON.split(separator: "\n").map(String.init)
        #expect(lines.count == golden.count)
        for (got, want) in zip(lines, golden) { #expect(got == want) }
    }

    @Test("the same session written as HCI UART H4 (datalink 1002) decodes to the same records")
    func uart() throws {
        let monitor = try CaptureDecoder().decode(TestCapture.file(.monitor))
        let uart = try CaptureDecoder().decode(TestCapture.file(.uart))
        #expect(uart.format == .btsnoop(datalink: 1002))
        #expect(uart.records == monitor.records)
    }

    @Test("captured on the phone: the directions swap")
    func phoneSide() throws {
        let watch = try CaptureDecoder(side: .watch).decode(TestCapture.file(.monitor))
        let phone = try CaptureDecoder(side: .phone).decode(TestCapture.file(.monitor))
        #expect(phone.records.map(\.direction) == watch.records.map { $0.direction?.opposite })
    }

    @Test("an Apple PacketLogger .pklg file (v1, big-endian records) is read")
    func packetLogger() throws {
        func record(_ type: UInt8, seconds: UInt32, micros: UInt32, _ data: [UInt8]) -> [UInt8] {
            func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
            return be(UInt32(9 + data.count)) + be(seconds) + be(micros) + [type] + data
        }
        let ns: [UInt8] = [0x1B, 0x32, 0x00, 0x00, 0x01, 0x00, 0x01, 0x43, 0x00, 0x00, 0x00]
        let file = record(0x02, seconds: 1_710_441_005, micros: 7, HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 4, [0x02, 0xB9, 0x00])))
            + record(0x03, seconds: 1_710_441_006, micros: 8, HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 4, ns)))
        let d = try CaptureDecoder(side: .phone).decode(file)
        #expect(d.format == .packetLogger(version: 1))
        #expect(d.records.map(\.textLine) == [
            "#1 18:30:05.000007 phone→watch ATT Exchange MTU Request: client Rx MTU 185",
            "#2 18:30:06.000008 watch→phone ATT Handle Value Notification handle 0x0032: 00 01 00 01 43 00 00 00",
        ])
    }

    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    static let badFileCases: [([UInt8], String)] = [
        (Array("hello, world, this is text".utf8), "capture file offset 0: not a btsnoop file (it does not start with \"btsnoop\\0\") nor an Apple PacketLogger .pklg file"),
        (Array("btsn".utf8), "capture file offset 0: the file is 4 bytes, too short for a capture (a btsnoop header is 16)"),
        (magic + [0, 0, 0, 0, 1] as [UInt8], "capture file offset 13: the btsnoop header is 16 bytes, the file has 13"),
        (magic + [0, 0, 0, 2, 0, 0, 0x07, 0xD1] as [UInt8], "capture file offset 8: btsnoop version 2, only version 1 exists"),
        (magic + [0, 0, 0, 1, 0, 0, 0x03, 0xEC] as [UInt8], "capture file offset 12: btsnoop datalink 1004 (HCI Serial H5) is not supported; supported: 1001 (un-encapsulated HCI), 1002 (HCI UART H4), 2001 (Linux monitor, btmon -w)"),
    ]

    @Test("bad capture files: what and where", arguments: badFileCases)
    func badFiles(bytes: [UInt8], message: String) {
        do {
            _ = try CaptureDecoder().decode(bytes)
            Issue.record("no error")
        } catch {
            #expect(error.description == message)
            #expect(error.failure.exitCode == WristCoreExit.usageOrConfiguration)
        }
    }

    @Test("a truncated last record: the records before it are kept, the error says which record and where")
    func truncated() throws {
        let file = TestCapture.file(.monitor)
        // Records 1 and 2: the 21-byte LE Connection Complete event and the
        // 11-byte MTU request (ACL 4 + L2CAP 4 + ATT 3); record 3 starts at 16 + 45 + 35.
        let third = 16 + (24 + 21) + (24 + 11)
        let header = try CaptureDecoder().decode(Array(file[..<(third + 10)]))
        #expect(header.records.count == 2)
        #expect(header.error?.description == "btsnoop record 3 at file offset 96: truncated: a record header is 24 bytes, 10 left")
        let data = try CaptureDecoder().decode(Array(file[..<(third + 24 + 3)]))
        #expect(data.records.count == 2)
        #expect(data.error?.description == "btsnoop record 3 at file offset 96: truncated: the record announces 11 bytes of packet data, 3 left")
    }

    @Test("malformed packets inside a capture are shown and the decoding goes on")
    func malformedPackets() throws {
        var w = BtsnoopWriter(.monitor)
        let t = TestCapture.start
        w.hci(h4Type: 2, sent: false, unixMicroseconds: t, [0x40, 0x20, 0x0A, 0x00, 1, 2, 3, 4, 5])
        w.hci(h4Type: 2, sent: false, unixMicroseconds: t, HCIFrames.acl(handle: 0x40, start: false, [1, 2, 3]))
        w.hci(h4Type: 2, sent: true, unixMicroseconds: t, HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 4, [0x12, 0x35])))
        w.hci(h4Type: 2, sent: true, unixMicroseconds: t, HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 6, [0x05, 0x08])))
        w.hci(h4Type: 2, sent: true, unixMicroseconds: t, HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 4, [0x02, 0xB9, 0x00])))
        let d = try CaptureDecoder().decode(w.bytes)
        #expect(d.records.map(\.textLine) == [
            "#1 18:30:05.000000 phone→watch MALFORMED HCI ACL: byte 2: the ACL header says 10 bytes of data, the packet has 5",
            "#2 18:30:05.000000 phone→watch MALFORMED L2CAP: continuation fragment on handle 0x0040 without a start fragment (dropped)",
            "#3 18:30:05.000000 watch→phone MALFORMED ATT Write Request: byte 2: Write Request (0x12) needs at least 3 bytes, got 2",
            "#4 18:30:05.000000 watch→phone SMP Pairing Failed: reason 0x08",
            "#5 18:30:05.000000 watch→phone ATT Exchange MTU Request: client Rx MTU 185",
        ])
        #expect(d.records[2].jsonLine == #"{"packet":3,"time":"2024-03-14T18:30:05.000000Z","time_us":1710441005000000,"direction":"watch_to_phone","layer":"malformed","type":"malformed","summary":"ATT Write Request: byte 2: Write Request (0x12) needs at least 3 bytes, got 2","offset":2,"error":"Write Request (0x12) needs at least 3 bytes, got 2"}"#)
    }

    @Test("timestamps: btsnoop's 0 AD epoch to UTC")
    func time() {
        #expect(DecodeTime.iso8601(0) == "1970-01-01T00:00:00.000000Z")
        #expect(DecodeTime.iso8601(TestCapture.start + 123) == "2024-03-14T18:30:05.000123Z")
        #expect(DecodeTime.iso8601(951_782_400_000_000) == "2000-02-29T00:00:00.000000Z")
        #expect(DecodeTime.iso8601(-1) == "1969-12-31T23:59:59.999999Z")
        // BlueZ: 0x00E03AB44A676000 is 2000-01-01T00:00:00Z.
        #expect(DecodeTime.iso8601(0x00E0_3AB4_4A67_6000 - DecodeTime.btsnoopEpochOffset) == "2000-01-01T00:00:00.000000Z")
    }
}
