import ANCS
import Decode
import HAL
import Notifications
import Testing

@testable import Decode
import TextFormat

/// One Data Source example: the attributes asked for and the phone's answer
/// (the same vectors as Tests/ANCSTests: the spec's example, calls with action
/// labels, all eight attributes, empty values, other orders, unrequested IDs,
/// CJK / Vietnamese / emoji, invalid UTF-8, app display names).
struct DataSourceExample: Sendable, CustomTestStringConvertible {
    var name: String
    var uid: UInt32?
    var appIdentifier = ""
    var requested: AttributeList
    var sent: [EncodedAttribute]

    var testDescription: String { name }

    var response: [UInt8] {
        uid.map { DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID($0), sent) }
            ?? DataSourceResponseEncoder.appAttributes(appIdentifier: appIdentifier, sent)
    }

    var request: [UInt8] {
        if let uid { return ControlPoint.getNotificationAttributes(uid: NotificationUID(uid), attributes: requested) }
        return (try? ControlPoint.getAppAttributes(appIdentifier: appIdentifier, attributes: requested)) ?? []
    }

    /// What the decoder must report: the requested attributes in request order.
    var expectedValues: [(UInt8, [UInt8])] {
        (0..<requested.count).compactMap { i in
            let id = requested[i].id
            return sent.first { $0.id == id }.map { (id, $0.value) }
        }
    }
}

let mailList = AttributeList([
    .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
    .notification(.subtitle, maxLength: 64), .notification(.message, maxLength: 256),
    .notification(.messageSize, maxLength: 10), .notification(.date, maxLength: 32),
    .notification(.positiveActionLabel, maxLength: 32), .notification(.negativeActionLabel, maxLength: 32),
])

let dataSourceExamples: [DataSourceExample] = [
    DataSourceExample(
        name: "the specification's request: AppIdentifier, Title (max 65535), Date", uid: 0x43,
        requested: AttributeList([.notification(.appIdentifier, maxLength: 0), .notification(.title, maxLength: 0xFFFF), .notification(.date, maxLength: 0)]),
        sent: [EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "Mom"), EncodedAttribute(.date, "20140509T193005")]),
    DataSourceExample(
        name: "iMessage with emoji", uid: 0x43,
        requested: AttributeList([
            .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
            .notification(.message, maxLength: 256), .notification(.messageSize, maxLength: 10), .notification(.date, maxLength: 32),
        ]),
        sent: [
            EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "Mom"),
            EncodedAttribute(.message, "Dinner at 7? 🍝"), EncodedAttribute(.messageSize, "18"), EncodedAttribute(.date, "20240314T183005"),
        ]),
    DataSourceExample(
        name: "incoming call with action labels", uid: 0x1000_0001,
        requested: AttributeList([
            .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
            .notification(.positiveActionLabel, maxLength: 32), .notification(.negativeActionLabel, maxLength: 32),
        ]),
        sent: [
            EncodedAttribute(.appIdentifier, "com.apple.mobilephone"), EncodedAttribute(.title, "John Appleseed"),
            EncodedAttribute(.positiveActionLabel, "Answer"), EncodedAttribute(.negativeActionLabel, "Decline"),
        ]),
    DataSourceExample(
        name: "mail, all eight attributes", uid: 7, requested: mailList,
        sent: [
            EncodedAttribute(.appIdentifier, "com.apple.mobilemail"), EncodedAttribute(.title, "Alice Example"),
            EncodedAttribute(.subtitle, "Re: Quarterly report"),
            EncodedAttribute(.message, String(repeating: "Numbers look fine. ", count: 14).prefix(256).description),
            EncodedAttribute(.messageSize, "4711"), EncodedAttribute(.date, "20231130T090000"),
            EncodedAttribute(.positiveActionLabel, "Archive"), EncodedAttribute(.negativeActionLabel, "Delete"),
        ]),
    DataSourceExample(
        name: "zero-length subtitle and message", uid: 99,
        requested: AttributeList([.notification(.title, maxLength: 64), .notification(.subtitle, maxLength: 64), .notification(.message, maxLength: 64)]),
        sent: [EncodedAttribute(.title, "Reminder"), EncodedAttribute(.subtitle, ""), EncodedAttribute(.message, "")]),
    DataSourceExample(
        name: "attributes in another order than asked", uid: 5,
        requested: AttributeList([.notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64)]),
        sent: [EncodedAttribute(.title, "Out of order"), EncodedAttribute(.appIdentifier, "com.example.app")]),
    DataSourceExample(
        name: "Chinese, Japanese, Vietnamese and emoji titles", uid: 8,
        requested: AttributeList([.notification(.title, maxLength: 64), .notification(.subtitle, maxLength: 64), .notification(.message, maxLength: 128)]),
        sent: [
            EncodedAttribute(.title, "微信：你好，世界"), EncodedAttribute(.subtitle, "新着メッセージ：こんにちは"),
            EncodedAttribute(.message, "Tin nhắn mới từ Nguyễn Thị Hương 👩‍👩‍👧‍👦 🇻🇳"),
        ]),
    DataSourceExample(
        name: "invalid UTF-8 kept as bytes", uid: 12,
        requested: AttributeList([.notification(.title, maxLength: 64), .notification(.message, maxLength: 64)]),
        sent: [EncodedAttribute(id: 1, value: [0x48, 0xC3, 0x28, 0xFF, 0xE2, 0x82]), EncodedAttribute(id: 3, value: [0xED, 0xA0, 0x80, 0x00, 0x41])]),
    DataSourceExample(
        name: "app display name", appIdentifier: "com.apple.mobilemail",
        requested: AttributeList([.app(.displayName, maxLength: 64)]), sent: [EncodedAttribute(.displayName, "Mail")]),
    DataSourceExample(
        name: "app display name in Japanese", appIdentifier: "jp.naver.line",
        requested: AttributeList([.app(.displayName, maxLength: 64)]), sent: [EncodedAttribute(.displayName, "ＬＩＮＥ")]),
]

/// The attribute values a data-source record reports, from its JSON fields.
func reportedValues(_ r: DecodedRecord) -> [(UInt8, [UInt8])] {
    guard case .array(let attrs)? = r.fields.first(where: { $0.name == "attributes" })?.value else { return [] }
    return attrs.compactMap { a -> (UInt8, [UInt8])? in
        guard case .object(let f) = a, case .integer(let id)? = f.first(where: { $0.name == "id" })?.value else { return nil }
        if case .string(let hex)? = f.first(where: { $0.name == "value_hex" })?.value { return (UInt8(id), hexBytes(hex)) }
        guard case .string(let s)? = f.first(where: { $0.name == "value" })?.value else { return nil }
        return (UInt8(id), Array(s.utf8))
    }
}

func hexBytes(_ s: String) -> [UInt8] {
    (try? HexBytes.parse(s)) ?? []
}

func field(_ r: DecodedRecord, _ name: String) -> DecodeValue? { r.fields.first { $0.name == name }?.value }

@Suite("Decode: ANCS hex input")
struct DecodeANCSTests {
    @Test("Notification Source: the specification's example")
    func notificationSourceSpec() throws {
        let r = try ANCSDecoding.notificationSource([0x00, 0x01, 0x00, 0x01, 0x43, 0x00, 0x00, 0x00])
        #expect(r.textLine == "ANCS Notification Source: added UID 67, Other (count 1), flags Silent")
        #expect(r.jsonLine == #"{"layer":"ancs","type":"notification_source","summary":"Notification Source: added UID 67, Other (count 1), flags Silent","event":"added","event_id":0,"uid":67,"category":"other","category_id":0,"category_count":1,"flags":["silent"],"flags_raw":1}"#)
    }

    @Test("Notification Source: every flag, a reserved category and event")
    func notificationSourceFields() throws {
        let r = try ANCSDecoding.notificationSource([0x02, 0x3F, 0x01, 0x07, 0x78, 0x56, 0x34, 0x12])
        #expect(r.summary == "Notification Source: removed UID 305419896, IncomingCall (count 7), flags Silent|Important|PreExisting|PositiveAction|NegativeAction|reserved bits 0x20")
        let reserved = try ANCSDecoding.notificationSource([0x05, 0x00, 0x0C, 0, 1, 0, 0, 0])
        #expect(reserved.summary == "Notification Source: reserved event 5 UID 1, reserved category 12 (count 0), flags none")
        #expect(field(reserved, "event") == .string("reserved"))
        #expect(field(reserved, "category_id") == .int(12))
    }

    @Test("every Control Point command round-trips: encoder bytes decode to the same parameters")
    func controlPointRoundTrip() throws {
        // The specification's example.
        let spec = try ANCSDecoding.controlPoint([0x00, 0x43, 0x00, 0x00, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0x05])
        #expect(spec.textLine == "ANCS Control Point: Get Notification Attributes UID 67: AppIdentifier, Title (max 65535), Date")
        #expect(spec.jsonLine == #"{"layer":"ancs","type":"control_point","summary":"Control Point: Get Notification Attributes UID 67: AppIdentifier, Title (max 65535), Date","command":"get_notification_attributes","command_id":0,"uid":67,"attributes":[{"id":0,"name":"app_identifier"},{"id":1,"name":"title","max_length":65535},{"id":5,"name":"date"}]}"#)

        // Every attribute, with and without wire max lengths.
        let all = try ANCSDecoding.controlPoint(ControlPoint.getNotificationAttributes(uid: NotificationUID(0x0A0B_0C0D), attributes: mailList))
        #expect(all.summary == "Control Point: Get Notification Attributes UID 168496141: AppIdentifier, Title (max 64), Subtitle (max 64), Message (max 256), MessageSize, Date, PositiveActionLabel, NegativeActionLabel")

        let app = try ANCSDecoding.controlPoint(try ControlPoint.getAppAttributes(appIdentifier: "com.apple.mobilemail", attributes: AttributeList([.app(.displayName, maxLength: 64)])))
        #expect(app.textLine == #"ANCS Control Point: Get App Attributes "com.apple.mobilemail": DisplayName"#)
        #expect(field(app, "app_identifier") == .string("com.apple.mobilemail"))

        for action in ActionID.allCases {
            let r = try ANCSDecoding.controlPoint(ControlPoint.performNotificationAction(uid: NotificationUID(0x0102_0304), action: action))
            #expect(r.summary == "Control Point: Perform Notification Action UID 16909060: \(action == .positive ? "positive" : "negative")")
            #expect(field(r, "action_id") == .int(action.rawValue))
            #expect(field(r, "uid") == .int(0x0102_0304))
        }

        // Decoded parameters encode back to the same bytes.
        for example in dataSourceExamples {
            let r = try ANCSDecoding.controlPoint(example.request)
            guard case .array(let attrs)? = field(r, "attributes") else { Issue.record("no attributes"); continue }
            var list = AttributeList()
            for case .object(let f) in attrs {
                guard case .integer(let id)? = f.first(where: { $0.name == "id" })?.value else { continue }
                let max = f.first(where: { $0.name == "max_length" })?.value
                if case .integer(let m)? = max {
                    list.append(AttributeRequest(id: UInt8(id), maxLength: UInt16(m), sendsMaxLength: true))
                } else {
                    list.append(AttributeRequest(id: UInt8(id), maxLength: 0, sendsMaxLength: false))
                }
            }
            let again: [UInt8]
            if let uid = example.uid {
                #expect(field(r, "uid") == .int(uid))
                again = ControlPoint.getNotificationAttributes(uid: NotificationUID(uid), attributes: list)
            } else {
                again = try ControlPoint.getAppAttributes(appIdentifier: example.appIdentifier, attributes: list)
            }
            #expect(again == example.request, "\(example.name)")
        }
    }

    @Test("every Data Source example decodes, whole and split at every byte boundary", arguments: dataSourceExamples)
    func dataSourceExample(example: DataSourceExample) throws {
        let bytes = example.response
        let whole = try ANCSDecoding.dataSource(fragments: [bytes])
        let want = example.sent.map { ($0.id, $0.value) }
        #expect(reportedValues(whole).map(\.0) == want.map(\.0))
        #expect(reportedValues(whole).map(\.1) == want.map(\.1))
        #expect(field(whole, "fragments") == .int(1))
        for k in 0...bytes.count {
            let split = try ANCSDecoding.dataSource(fragments: [Array(bytes[..<k]), Array(bytes[k...])])
            #expect(reportedValues(split).map(\.1) == want.map(\.1), "split at \(k)")
            #expect(field(split, "fragments") == .int(2))
            // With the request: the assembler checks it against what was asked.
            let checked = try ANCSDecoding.dataSource(fragments: [Array(bytes[..<k]), Array(bytes[k...])], request: example.request)
            #expect(reportedValues(checked).map(\.0) == example.expectedValues.map(\.0), "split at \(k)")
            #expect(reportedValues(checked).map(\.1) == example.expectedValues.map(\.1), "split at \(k)")
        }
        // One byte per notification.
        let bytewise = try ANCSDecoding.dataSource(fragments: bytes.map { [$0] }, request: example.request)
        #expect(reportedValues(bytewise).map(\.1) == example.expectedValues.map(\.1))
        #expect(field(bytewise, "fragments") == .int(bytes.count))
    }

    @Test("Data Source text and JSON lines")
    func dataSourceLines() throws {
        let spec = dataSourceExamples[0]
        let r = try ANCSDecoding.dataSource(fragments: [Array(spec.response[..<10]), Array(spec.response[10...])], request: spec.request)
        #expect(r.textLine == #"ANCS Data Source: Get Notification Attributes response UID 67 (2 fragments): AppIdentifier="com.apple.MobileSMS", Title="Mom", Date="20140509T193005" (2014-05-09T19:30:05)"#)
        #expect(r.jsonLine == #"{"layer":"ancs","type":"data_source","summary":"Data Source: Get Notification Attributes response UID 67 (2 fragments): AppIdentifier=\"com.apple.MobileSMS\", Title=\"Mom\", Date=\"20140509T193005\" (2014-05-09T19:30:05)","command":"get_notification_attributes","command_id":0,"uid":67,"fragments":2,"attributes":[{"id":0,"name":"app_identifier","length":19,"value":"com.apple.MobileSMS"},{"id":1,"name":"title","length":3,"value":"Mom"},{"id":5,"name":"date","length":15,"value":"20140509T193005","date":"2014-05-09T19:30:05"}]}"#)

        let bad = try ANCSDecoding.dataSource(fragments: [dataSourceExamples[7].response])
        #expect(bad.summary == "Data Source: Get Notification Attributes response UID 12 (1 fragment): Title=hex:48c328ffe282, Message=hex:eda0800041")
        let app = try ANCSDecoding.dataSource(fragments: [dataSourceExamples[8].response])
        #expect(app.summary == #"Data Source: Get App Attributes response "com.apple.mobilemail" (1 fragment): DisplayName="Mail""#)
    }

    @Test("bad ANCS input: a message with the byte offset", arguments: [
        (["ns"], "00 01 00 01 43 00", "byte 6: Notification Source is 8 bytes, got 6"),
        (["ns"], "00 01 00 01 43 00 00 00 00 00", "byte 8: Notification Source is 8 bytes, got 10"),
        (["cp"], "", "byte 0: a Control Point command has at least 1 byte (the CommandID), got none"),
        (["cp"], "07 01", "byte 0: CommandID 7 is not a Control Point command (0 Get Notification Attributes, 1 Get App Attributes, 2 Perform Notification Action)"),
        (["cp"], "00 43 00", "byte 3: command ends early: the NotificationUID needs 4 bytes after the CommandID, got 3 bytes"),
        (["cp"], "00 43 00 00 00 01 ff", "byte 7: command ends early: Title, Subtitle and Message are followed by a 2-byte max length, got 7 bytes"),
        (["cp"], "01 61 62", "byte 3: the AppIdentifier of Get App Attributes must end with a NUL (00) byte"),
        (["cp"], "02 43 00 00 00", "byte 5: command ends early: Perform Notification Action is 6 bytes (02, UID, ActionID), got 5 bytes"),
        (["ds"], "", "byte 0: no Data Source bytes"),
        (["ds"], "02 43 00 00 00", "byte 0: a Data Source response echoes CommandID 0 (Get Notification Attributes) or 1 (Get App Attributes), got 2"),
        (["ds"], "00 43 00", "byte 3: a Get Notification Attributes response starts with 00 and a 4-byte NotificationUID, got 3 bytes"),
        (["ds"], "01 61 62", "byte 3: the AppIdentifier of a Get App Attributes response must end with a NUL (00) byte"),
        (["ds"], "00 43 00 00 00 01 05", "byte 7: attribute Title at byte 5 needs a 2-byte length, the data ends (missing fragments?)"),
        (["ds"], "00 43 00 00 00 01 05 00 4d 6f", "byte 10: attribute Title at byte 5 declares 5 bytes, only 2 follow (missing fragments?)"),
        (["ds"], "00 43 00 00 00 01 01 00 4d 01 01 00 4d", "byte 9: attribute Title appears twice in one response"),
        (["ds", "00 43 00 00 00 01 40 00 03 40 00"], "00 43 00 00 00 01 03 00 4d 6f 6d", "byte 11: the response is incomplete: still waiting for Message (give the remaining fragments)"),
        (["ds", "00 44 00 00 00 01 40 00"], "00 43 00 00 00 01 03 00 4d 6f 6d", "byte 1: the response is for UID 67, the request asked for UID 68"),
        (["ds", "00 43 00 00 00 01 02 00"], "00 43 00 00 00 01 03 00 4d 6f 6d", "byte 6: Title has 3 bytes, the request's max length is 2"),
        (["ds", "02 43 00 00 00 00"], "00 43 00 00 00 01 03 00 4d 6f 6d", "byte 0: the --request command is Perform Notification Action, which has no Data Source response"),
        (["ds", "01 61 00 00"], "00 43 00 00 00 01 03 00 4d 6f 6d", "byte 0: the response echoes Get Notification Attributes, the request was Get App Attributes"),
        (["ds", "00 43"], "00 43 00 00 00", "byte 2: the --request command: command ends early: the NotificationUID needs 4 bytes after the CommandID, got 2 bytes"),
    ])
    func errors(what: [String], hex: String, message: String) throws {
        let bytes = try HexBytes.parse(hex)
        do {
            switch what[0] {
            case "ns": _ = try ANCSDecoding.notificationSource(bytes)
            case "cp": _ = try ANCSDecoding.controlPoint(bytes)
            default: _ = try ANCSDecoding.dataSource(fragments: [bytes], request: what.count > 1 ? try HexBytes.parse(what[1]) : nil)
            }
            Issue.record("no error for \(hex)")
        } catch let e as DecodeError {
            #expect(e.description == message)
            #expect(e.failure.exitCode == WristCoreExit.usageOrConfiguration)
        }
    }
}
