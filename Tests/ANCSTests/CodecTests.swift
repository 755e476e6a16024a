import ANCS
import Notifications
import Testing
@testable import ANCS

@Suite("Notification Source")
struct NotificationSourceTests {
    @Test("the specification's example: 00 01 00 01 43 00 00 00")
    func specExample() throws {
        let e = try NotificationSourceEvent(parsing: [0x00, 0x01, 0x00, 0x01, 0x43, 0x00, 0x00, 0x00])
        #expect(e.eventID == .added)
        #expect(e.flags == [.silent])
        #expect(e.category == .other)
        #expect(e.categoryCount == 1)
        #expect(e.uid == NotificationUID(0x43))
        #expect(e.bytes == [0x00, 0x01, 0x00, 0x01, 0x43, 0x00, 0x00, 0x00])
    }

    @Test("every field decodes; UID is little-endian")
    func fields() throws {
        let e = try NotificationSourceEvent(parsing: [0x02, 0x1F, 0x01, 0x07, 0x78, 0x56, 0x34, 0x12])
        #expect(e.eventID == .removed)
        #expect(e.flags == [.silent, .important, .preExisting, .positiveAction, .negativeAction])
        #expect(e.category == .incomingCall)
        #expect(e.categoryCount == 7)
        #expect(e.uid.rawValue == 0x1234_5678)
    }

    @Test("all defined categories and event IDs map to their cases")
    func definedValues() throws {
        let categories: [CategoryID] = [
            .other, .incomingCall, .missedCall, .voicemail, .social, .schedule, .email, .news,
            .healthAndFitness, .businessAndFinance, .location, .entertainment,
        ]
        for (n, c) in categories.enumerated() {
            let e = try NotificationSourceEvent(parsing: [1, 0, UInt8(n), 0, 0, 0, 0, 0])
            #expect(e.category == c)
            #expect(e.category.rawValue == UInt8(n))
            #expect(e.eventID == .modified)
        }
    }

    @Test("reserved EventID, CategoryID and flag bits are kept, not rejected")
    func reservedValues() throws {
        let e = try NotificationSourceEvent(parsing: [0x03, 0xE0, 0x0C, 0, 1, 0, 0, 0])
        #expect(e.eventID == .unknown(3))
        #expect(e.category == .unknown(12))
        #expect(e.flags.rawValue == 0xE0)
        #expect(e.bytes == [0x03, 0xE0, 0x0C, 0, 1, 0, 0, 0])
        let f = try NotificationSourceEvent(parsing: [0xFF, 0, 0xFF, 0, 0, 0, 0, 0])
        #expect(f.eventID == .unknown(255))
        #expect(f.category == .unknown(255))
    }

    @Test("anything but 8 bytes is a typed error", arguments: [0, 1, 7, 9, 20, 512])
    func wrongLength(count: Int) {
        #expect(throws: NotificationSourceError.wrongLength(count)) {
            try NotificationSourceEvent(parsing: [UInt8](repeating: 0, count: count))
        }
    }

    @Test("encode refuses a short buffer")
    func encodeShortBuffer() {
        let e = NotificationSourceEvent(eventID: .added, flags: [], category: .social, categoryCount: 1, uid: NotificationUID(9))
        var small = [UInt8](repeating: 0, count: 7)
        #expect(small.withUnsafeMutableBytes { e.encode(into: $0) } == nil)
    }
}

@Suite("Control Point commands")
struct ControlPointTests {
    @Test("Get Notification Attributes, the specification's example: 00 43 00 00 00 00 01 FF FF 05")
    func getNotificationAttributesSpecExample() {
        let list = AttributeList([
            .notification(.appIdentifier, maxLength: 0),
            .notification(.title, maxLength: 0xFFFF),
            .notification(.date, maxLength: 0),
        ])
        let bytes = ControlPoint.getNotificationAttributes(uid: NotificationUID(0x43), attributes: list)
        #expect(bytes == [0x00, 0x43, 0x00, 0x00, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0x05])
    }

    @Test("Title, Subtitle and Message carry a u16 LE max length, the others do not")
    func maxLengths() {
        let list = AttributeList([
            .notification(.subtitle, maxLength: 0x0102),
            .notification(.message, maxLength: 256),
            .notification(.messageSize, maxLength: 10),
            .notification(.positiveActionLabel, maxLength: 32),
            .notification(.negativeActionLabel, maxLength: 32),
        ])
        let bytes = ControlPoint.getNotificationAttributes(uid: NotificationUID(0x0A0B0C0D), attributes: list)
        #expect(bytes == [0x00, 0x0D, 0x0C, 0x0B, 0x0A, 0x02, 0x02, 0x01, 0x03, 0x00, 0x01, 0x04, 0x06, 0x07])
    }

    @Test("Get App Attributes for com.apple.mobilemail")
    func getAppAttributesMail() throws {
        let list = AttributeList([.app(.displayName, maxLength: 64)])
        let bytes = try ControlPoint.getAppAttributes(appIdentifier: "com.apple.mobilemail", attributes: list)
        #expect(bytes == [0x01] + Array("com.apple.mobilemail".utf8) + [0x00, 0x00])
        #expect(bytes.count == 1 + 20 + 1 + 1)
    }

    @Test("Perform Notification Action: 02, UID, ActionID")
    func performAction() {
        #expect(ControlPoint.performNotificationAction(uid: NotificationUID(0x43), action: .positive)
            == [0x02, 0x43, 0, 0, 0, 0x00])
        #expect(ControlPoint.performNotificationAction(uid: NotificationUID(0x01020304), action: .negative)
            == [0x02, 0x04, 0x03, 0x02, 0x01, 0x01])
    }

    @Test("encoders report a buffer that is too small instead of overrunning it")
    func bufferTooSmall() {
        let list = AttributeList([.notification(.title, maxLength: 10)])
        var buf = [UInt8](repeating: 0xEE, count: 7)
        #expect(throws: ControlPointEncodingError.bufferTooSmall(needed: 8)) {
            try buf.withUnsafeMutableBytes {
                try ControlPoint.encodeGetNotificationAttributes(uid: NotificationUID(1), attributes: list, into: $0)
            }
        }
        #expect(throws: ControlPointEncodingError.bufferTooSmall(needed: 6)) {
            try buf.withUnsafeMutableBytes {
                try ControlPoint.encodePerformNotificationAction(uid: NotificationUID(1), action: .positive, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<5]))
            }
        }
        let id = Array("com.example".utf8)
        #expect(throws: ControlPointEncodingError.bufferTooSmall(needed: 14)) {
            try buf.withUnsafeMutableBytes { b in
                try id.withUnsafeBytes {
                    try ControlPoint.encodeGetAppAttributes(appIdentifier: $0, attributes: AttributeList([.app(.displayName, maxLength: 1)]), into: b)
                }
            }
        }
        #expect(buf == [UInt8](repeating: 0xEE, count: 7))
    }

    @Test("an AppIdentifier containing NUL cannot be encoded")
    func nulInAppIdentifier() {
        #expect(throws: ControlPointEncodingError.appIdentifierContainsNUL) {
            try ControlPoint.getAppAttributes(appIdentifier: [0x61, 0x00, 0x62], attributes: AttributeList())
        }
    }

    @Test("AttributeList keeps order, drops duplicates, holds 8")
    func attributeList() {
        var list = AttributeList()
        var added = list.append(.notification(.title, maxLength: 5))
        #expect(added)
        added = list.append(.notification(.title, maxLength: 9))
        #expect(!added)
        for id: UInt8 in [0, 2, 3, 4, 5, 6, 7] {
            added = list.append(AttributeRequest(id: id, maxLength: 1, sendsMaxLength: false))
            #expect(added)
        }
        #expect(list.count == 8)
        added = list.append(AttributeRequest(id: 8, maxLength: 1, sendsMaxLength: false))
        #expect(!added)
        #expect(list[0] == .notification(.title, maxLength: 5))
        #expect(list.index(of: 7) == 7)
        #expect(list.index(of: 9) == nil)
        #expect(list.totalMaxLength == 12)
    }

    @Test("the phone-side decoder reads back what the encoders write")
    func decodeRoundTrip() throws {
        let list = AttributeList([
            .notification(.appIdentifier, maxLength: 0), .notification(.title, maxLength: 64),
            .notification(.message, maxLength: 256), .notification(.date, maxLength: 0),
        ])
        let gna = try ControlPointCommand(parsing: ControlPoint.getNotificationAttributes(uid: NotificationUID(77), attributes: list))
        guard case .getNotificationAttributes(let uid, let attrs) = gna else {
            Issue.record("wrong command \(gna)")
            return
        }
        #expect(uid == NotificationUID(77))
        #expect(attrs.map(\.id) == [0, 1, 3, 5])
        #expect(attrs.map(\.maxLength) == [0, 64, 256, 0])

        let gaa = try ControlPointCommand(parsing: try ControlPoint.getAppAttributes(appIdentifier: "com.apple.mobilemail", attributes: AttributeList([.app(.displayName, maxLength: 0)])))
        #expect(gaa == .getAppAttributes(appIdentifier: Array("com.apple.mobilemail".utf8), attributes: [AttributeRequest(id: 0, maxLength: 0, sendsMaxLength: false)]))

        let pna = try ControlPointCommand(parsing: ControlPoint.performNotificationAction(uid: NotificationUID(5), action: .negative))
        #expect(pna == .performNotificationAction(uid: NotificationUID(5), actionID: 1))
    }

    @Test("the phone-side decoder rejects malformed commands with the phone's error code")
    func decodeErrors() {
        #expect(throws: ControlPointDecodingError.empty) { try ControlPointCommand(parsing: []) }
        #expect(throws: ControlPointDecodingError.unknownCommand(3)) { try ControlPointCommand(parsing: [3]) }
        #expect(throws: ControlPointDecodingError.truncated) { try ControlPointCommand(parsing: [0, 1, 2]) }
        #expect(throws: ControlPointDecodingError.truncated) { try ControlPointCommand(parsing: [0, 1, 0, 0, 0, 1, 0xFF]) }
        #expect(throws: ControlPointDecodingError.missingNULTerminator) { try ControlPointCommand(parsing: [1, 0x61, 0x62]) }
        #expect(throws: ControlPointDecodingError.truncated) { try ControlPointCommand(parsing: [2, 1, 0, 0, 0]) }
        #expect(ControlPointDecodingError.unknownCommand(9).errorCode == .unknownCommand)
        #expect(ControlPointDecodingError.truncated.errorCode == .invalidCommand)
    }

    @Test("error codes 0xA0–0xA3 map to ANCS errors, others stay ATT errors")
    func errorCodes() {
        #expect(ANCSRequestError(attErrorCode: 0xA0) == .phone(.unknownCommand))
        #expect(ANCSRequestError(attErrorCode: 0xA1) == .phone(.invalidCommand))
        #expect(ANCSRequestError(attErrorCode: 0xA2) == .phone(.invalidParameter))
        #expect(ANCSRequestError(attErrorCode: 0xA3) == .phone(.actionFailed))
        #expect(ANCSRequestError(attErrorCode: 0x05) == .att(0x05))
        #expect(ANCSRequestError(attErrorCode: 0xA4) == .att(0xA4))
    }
}

@Suite("Date and MessageSize")
struct DateAndSizeTests {
    @Test("yyyyMMdd'T'HHmmSS parses into calendar fields")
    func validDate() throws {
        let d = try #require(ANCSDate.parse("20140509T193005"))
        #expect(d.year == 2014 && d.month == 5 && d.day == 9)
        #expect(d.hour == 19 && d.minute == 30 && d.second == 5)
        #expect(d.description == "2014-05-09T19:30:05")
        #expect(ANCSDate.parse("20240229T000000") != nil)  // leap day
        #expect(ANCSDate.parse("20001231T235959") != nil)
        #expect(try #require(ANCSDate.parse("20240101T000000")) > d)
    }

    @Test("malformed dates are nil, never a crash", arguments: [
        "", "2014", "20140509T19300", "20140509T1930000", "20140509 193000", "20140509t193000",
        "2014-5-09T19300", "20141309T193000", "20140009T193000", "20140500T193000", "20140532T193000",
        "20230229T120000", "21000229T120000", "20140431T120000", "20140509T243000", "20140509T196000",
        "20140509T193060", "2014O509T193000", "+0140509T193000", "20140509T19300\u{0}", "２０１４0509T193000",
    ])
    func malformedDate(text: String) {
        #expect(ANCSDate.parse(text) == nil)
    }

    @Test("MessageSize is ASCII decimal")
    func messageSize() {
        #expect(MessageSize.parse("0") == 0)
        #expect(MessageSize.parse("1234") == 1234)
        #expect(MessageSize.parse("000042") == 42)
        #expect(MessageSize.parse("9223372036854775807") == Int.max)
    }

    @Test("malformed MessageSize is nil", arguments: ["", " 12", "12 ", "-1", "+1", "1e3", "0x10", "12a", "9223372036854775808", "٣"])
    func malformedMessageSize(text: String) {
        #expect(MessageSize.parse(text) == nil)
    }
}
