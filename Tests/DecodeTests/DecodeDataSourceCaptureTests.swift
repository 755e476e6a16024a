import ANCS
import Notifications
import Decode
import HAL
import Testing

@testable import Decode

/// Data Source responses inside captures (issue 14 item 12): cut off at the
/// end, pipelined past the old bound of 8, starting mid-notification, and
/// lacking the optional attributes real iPhones leave out.
@Suite("Decode: Data Source responses in captures")
struct DecodeDataSourceCaptureTests {
    typealias Item = TestCapture.Item

    static func write(_ command: [UInt8]) -> [Item] {
        [.att(watchSends: true, [0x12, 0x35, 0x00] + command), .att(watchSends: false, [0x13])]
    }

    static func notify(_ value: [UInt8]) -> Item { .att(watchSends: false, [0x1B, 0x38, 0x00] + value) }

    static func titleRequest(_ uid: UInt32) -> [UInt8] {
        ControlPoint.getNotificationAttributes(uid: NotificationUID(uid), attributes: AttributeList([.notification(.title, maxLength: 32)]))
    }

    static func titleResponse(_ uid: UInt32) -> [UInt8] {
        DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(uid), [EncodedAttribute(.title, "T\(uid)")])
    }

    static func decode(_ items: [Item], step: Int64 = 1000) throws -> [DecodedRecord] {
        let d = try CaptureDecoder().decode(TestCapture.file(.monitor, TestCapture.discovery + items, step: step))
        #expect(d.error == nil)
        return d.records
    }

    static func ancs(_ records: [DecodedRecord]) -> [String] {
        records.filter { $0.layer == .ancs && $0.type != "control_point" }.map(\.textLine)
    }

    // MARK: cut off

    @Test("a response cut off by the end of the capture is reported, with the request it answers")
    func cutAtEnd() throws {
        let records = try Self.decode(Self.write(TestCapture.command) + [Self.notify(Array(TestCapture.response[..<30]))])
        #expect(Self.ancs(records) == [
            #"phone→watch ANCS Data Source: incomplete response to Get Notification Attributes UID 42 (#18) when the capture ended (1 fragment): AppIdentifier="com.apple.MobileSMS", Title missing, Message missing, Date missing"#,
        ])
        #expect(records.last?.packet == nil, "about the end of the capture, not a packet")
        #expect(records.last?.direction == .phoneToWatch)
        #expect(records.last?.jsonLine == #"{"direction":"phone_to_watch","layer":"ancs","type":"data_source_incomplete","summary":"Data Source: incomplete response to Get Notification Attributes UID 42 (#18) when the capture ended (1 fragment): AppIdentifier=\"com.apple.MobileSMS\", Title missing, Message missing, Date missing","command":"get_notification_attributes","command_id":0,"uid":42,"request_packet":18,"reason":"the capture ended","fragments":1,"attributes":[{"id":0,"name":"app_identifier","length":19,"value":"com.apple.MobileSMS"},{"id":1,"name":"title","missing":true},{"id":3,"name":"message","missing":true},{"id":5,"name":"date","missing":true}]}"#)
    }

    @Test("requests never answered, and a response cut off by the link closing")
    func unansweredAndDisconnected() throws {
        let records = try Self.decode(
            Self.write(TestCapture.command) + Self.write(Self.titleRequest(7))
                + [Self.notify(Array(TestCapture.response[..<8])), .event(HCIFrames.event(0x05, [0x00, 0x40, 0x00, 0x13]))]
                + Self.write(Self.titleRequest(8)))
        #expect(Self.ancs(records) == [
            "#23 18:30:05.022000 phone→watch ANCS Data Source: incomplete response to Get Notification Attributes UID 42 (#18) when the link closed (1 fragment): AppIdentifier missing, Title missing, Message missing, Date missing",
            "#23 18:30:05.022000 phone→watch ANCS Data Source: no response to Get Notification Attributes UID 7 (#20) when the link closed",
            "phone→watch ANCS Data Source: no response to Get Notification Attributes UID 8 (#24) when the capture ended",
        ])
        #expect(records.first { $0.type == "data_source_unanswered" }?.fields.map(\.name) == ["command", "command_id", "uid", "request_packet", "reason"])
    }

    // MARK: pipelining

    @Test("ten pipelined Control Point writes: every response decodes (8 were tracked before)")
    func tenPipelined() throws {
        let uids = Array(UInt32(1)...10)
        let writes = uids.flatMap { Self.write(Self.titleRequest($0)) }
        let stream = uids.flatMap(Self.titleResponse)
        let records = try Self.decode(writes + stride(from: 0, to: stream.count, by: 20).map { Self.notify(Array(stream[$0..<min($0 + 20, stream.count)])) })
        let responses = records.filter { $0.type == "data_source" }
        #expect(responses.map { field($0, "uid") } == uids.map { .int($0) })
        #expect(responses.map(\.summary).last == #"Data Source: Get Notification Attributes response UID 10 (2 fragments): Title="T10""#)
        #expect(!records.contains { $0.type == "data_source_unmatched" || $0.type == "data_source_incomplete" })
    }

    @Test("past 64 pipelined writes the oldest is reported no longer tracked; the others still decode")
    func pastTheBound() throws {
        let uids = Array(UInt32(1)...65)
        let writes = uids.flatMap { Self.write(Self.titleRequest($0)) }
        let records = try Self.decode(writes + uids.dropFirst().map { Self.notify(Self.titleResponse($0)) })
        let dropped = records.filter { $0.type == "data_source_untracked" }
        #expect(dropped.map(\.textLine) == [
            "#146 18:30:05.145000 watch→phone ANCS Control Point: more than 64 pipelined requests: the oldest, Get Notification Attributes UID 1 (#18), is no longer tracked",
        ])
        #expect(dropped.first.map { field($0, "limit") } == .int(64))
        #expect(records.filter { $0.type == "data_source" }.map { field($0, "uid") } == uids.dropFirst().map { .int($0) })
    }

    // MARK: fragments

    @Test("fragments: a response that starts in the middle of a notification counts it")
    func fragmentsMidNotification() throws {
        let a = Self.titleResponse(1)
        let b = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(2), [EncodedAttribute(.title, "A longer title")])
        // [A + half of B] [rest of B]
        var records = try Self.decode(
            Self.write(Self.titleRequest(1)) + Self.write(Self.titleRequest(2))
                + [Self.notify(a + b[..<9]), Self.notify(Array(b[9...]))])
        #expect(records.filter { $0.type == "data_source" }.map { field($0, "fragments") } == [.int(1), .int(2)])
        // [first half of A] [rest of A + B] [C]
        let c = Self.titleResponse(3)
        records = try Self.decode(
            Self.write(Self.titleRequest(1)) + Self.write(Self.titleRequest(2)) + Self.write(Self.titleRequest(3))
                + [Self.notify(Array(a[..<6])), Self.notify(a[6...] + b), Self.notify(c)])
        #expect(records.filter { $0.type == "data_source" }.map { field($0, "fragments") } == [.int(2), .int(1), .int(1)])
        // [A + B + first byte of C] [rest of C]
        records = try Self.decode(
            (1...3).flatMap { Self.write(Self.titleRequest($0)) } + [Self.notify(a + b + c[..<1]), Self.notify(Array(c[1...]))])
        #expect(records.filter { $0.type == "data_source" }.map { field($0, "fragments") } == [.int(1), .int(1), .int(2)])
    }

    // MARK: optional attributes

    static let callRequest = ControlPoint.getNotificationAttributes(uid: NotificationUID(0x74), attributes: AttributeList([
        .notification(.appIdentifier, maxLength: 64), .notification(.title, maxLength: 32),
        .notification(.positiveActionLabel, maxLength: 16), .notification(.negativeActionLabel, maxLength: 16),
    ]))
    /// What an iPhone sends for a call it offers no positive action for: no label 6.
    static let callResponse = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(0x74), [
        EncodedAttribute(.appIdentifier, "com.apple.mobilephone"), EncodedAttribute(.title, "Mom"),
        EncodedAttribute(.negativeActionLabel, "Decline"),
    ])

    @Test("a real response without Positive Action Label is complete (hex input)")
    func optionalHex() throws {
        let r = try ANCSDecoding.dataSource(fragments: [Array(Self.callResponse[..<20]), Array(Self.callResponse[20...])], request: Self.callRequest)
        #expect(r.textLine == #"ANCS Data Source: Get Notification Attributes response UID 116 (2 fragments): AppIdentifier="com.apple.mobilephone", Title="Mom", PositiveActionLabel not sent (optional), NegativeActionLabel="Decline""#)
        #expect(r.jsonLine.contains(#"{"id":6,"name":"positive_action_label","missing":true,"optional":true}"#))
        // A missing attribute that is not optional is still reported.
        let noTitle = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(0x74), [
            EncodedAttribute(.appIdentifier, "com.apple.mobilephone"), EncodedAttribute(.negativeActionLabel, "Decline"),
        ])
        do {
            _ = try ANCSDecoding.dataSource(fragments: [noTitle], request: Self.callRequest)
            Issue.record("no error")
        } catch {
            #expect(error.description == "byte 39: the response is incomplete: still waiting for Title, PositiveActionLabel (optional) (give the remaining fragments)")
        }
    }

    @Test("in a capture: the response ends after 250 ms of Data Source silence, shown at its last notification")
    func optionalQuiet() throws {
        let items = Self.write(Self.callRequest) + [Self.notify(Self.callResponse)] + [.att(watchSends: true, [0x0A, 0x32, 0x00])]
        // 1 s between records: the read request at #21 comes after the quiet period.
        let records = try Self.decode(items, step: 1_000_000)
        let i = try #require(records.firstIndex { $0.type == "data_source" })
        #expect(records[i].packet == 20)
        #expect(records[i - 1].packet == 20 && records[i - 1].layer == .att, "right after the notification that completed it")
        #expect(records[i + 1].packet == 21)
        #expect(records[i].summary == #"Data Source: Get Notification Attributes response UID 116 (1 fragment): AppIdentifier="com.apple.mobilephone", Title="Mom", PositiveActionLabel not sent (optional), NegativeActionLabel="Decline""#)
        // Within the quiet period the label can still come.
        let label = [UInt8(6), 6, 0] + Array("Answer".utf8)
        let late = try Self.decode(Self.write(Self.callRequest) + [Self.notify(Self.callResponse), Self.notify(label)], step: 100_000)
        #expect(late.filter { $0.type == "data_source" }.map(\.summary) == [
            #"Data Source: Get Notification Attributes response UID 116 (2 fragments): AppIdentifier="com.apple.mobilephone", Title="Mom", PositiveActionLabel="Answer", NegativeActionLabel="Decline""#,
        ])
        // At the end of the capture it is complete too.
        let end = try Self.decode(Self.write(Self.callRequest) + [Self.notify(Self.callResponse)])
        #expect(Self.ancs(end) == [
            #"#20 18:30:05.019000 phone→watch ANCS Data Source: Get Notification Attributes response UID 116 (1 fragment): AppIdentifier="com.apple.mobilephone", Title="Mom", PositiveActionLabel not sent (optional), NegativeActionLabel="Decline""#,
        ])
    }

    @Test("pipelined: the next response's header ends one lacking a label; fragments stay right")
    func optionalPipelined() throws {
        let next = Self.titleResponse(9)
        let stream = Self.callResponse + next
        let split = Self.callResponse.count
        // The next header at the start of a notification, split across two, or inside one.
        for (cut, want) in [(split, [1, 1]), (split + 2, [1, 2]), (split - 3, [2, 1])] {
            let records = try Self.decode(
                Self.write(Self.callRequest) + Self.write(Self.titleRequest(9))
                    + [Self.notify(Array(stream[..<cut])), Self.notify(Array(stream[cut...]))])
            let responses = records.filter { $0.type == "data_source" }
            #expect(responses.map { field($0, "uid") } == [.int(0x74), .int(9)], "cut at \(cut)")
            #expect(responses.map { field($0, "fragments") } == want.map { .int($0) }, "cut at \(cut)")
        }
    }
}
