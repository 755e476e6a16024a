import HAL
import Testing
@testable import ANCS
import Notifications

// Optional attributes (MessageSize, the action labels), Title / Subtitle /
// Message longer than asked, and whether the Message was cut.

/// Bytes from space-separated hex lines.
func fromHex(_ lines: String...) -> [UInt8] {
    lines.joined(separator: " ").split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// A Data Source response captured from a real iPhone.
struct IOSCapture: Sendable, CustomStringConvertible {
    var name: String
    var uid: UInt32
    var bytes: [UInt8]
    /// What it carries, by attribute ID.
    var attributes: [UInt8: String]
    var description: String { name }

    /// The values the assembler must hand out for `list`.
    func values(for list: AttributeList) -> [UInt8: [UInt8]] {
        var out: [UInt8: [UInt8]] = [:]
        for (id, text) in attributes where list.contains(id) { out[id] = Array(text.utf8) }
        return out
    }
}

// Real iOS responses, as captured by PebbleOS from iPhones: coredevices/PebbleOS,
// tests/fw/comm/ancs_test_data.h (Apache-2.0, SPDX-FileCopyrightText: 2024
// Google LLC); the names are the arrays there. PebbleOS asked each for
// AppIdentifier, Title, Subtitle, Message, MessageSize, Date and both action
// labels. iOS left MessageSize out of all of them, and PositiveActionLabel out
// of the mail and calendar ones; the labels come first, the Date last.
let iosLoading = IOSCapture(
    name: "s_loading_response (mail; no PositiveActionLabel, no MessageSize)", uid: 0x19,
    bytes: fromHex(
        "00 19 00 00 00 07 07 00 44 69 73 6d 69 73 73 00 14 00 63 6f 6d 2e 61 70 70 6c 65 2e 6d 6f 62 69 6c 65 6d 61 69 6c 01 05 00 4d 61 72 74 79 02 04",
        "00 74 65 73 74 03 0a 00 4c 6f 61 64 69 6e 67 e2 80 a6 05 0f 00 32 30 31 34 30 39 32 39 54 31 35 31 35 31 30"),
    attributes: [7: "Dismiss", 0: "com.apple.mobilemail", 1: "Marty", 2: "test", 3: "Loading…", 5: "20140929T151510"])

let iosNoContent = IOSCapture(
    name: "s_this_message_has_no_content_response (mail; no PositiveActionLabel, no MessageSize)", uid: 0x22,
    bytes: fromHex(
        "00 22 00 00 00 07 07 00 44 69 73 6d 69 73 73 00 14 00 63 6f 6d 2e 61 70 70 6c 65 2e 6d 6f 62 69 6c 65 6d 61 69 6c 01 15 00 41 61 72 6f 6e 20 48",
        "65 63 6b 6d 61 6e 6e 20 28 4a 49 52 41 29 02 28 00 5b 4a 49 52 41 5d 20 28 50 42 4c 2d 38 37 37 36 29 20 45 72 72 6f 72 20 73 63 72 65 65 6e 20",
        "61 66 74 65 72 20 6c 6f 67 03 1c 00 54 68 69 73 20 6d 65 73 73 61 67 65 20 68 61 73 20 6e 6f 20 63 6f 6e 74 65 6e 74 2e 05 0f 00 32 30 31 34 30",
        "39 32 36 54 31 30 34 33 30 30"),
    attributes: [
        7: "Dismiss", 0: "com.apple.mobilemail", 1: "Aaron Heckmann (JIRA)", 2: "[JIRA] (PBL-8776) Error screen after log",
        3: "This message has no content.", 5: "20140926T104300",
    ])

/// The first response of s_multiple_complete_dicts (an incoming call).
let iosCall = IOSCapture(
    name: "s_multiple_complete_dicts #1 (call; no MessageSize)", uid: 0x74,
    bytes: fromHex(
        "00 74 00 00 00 06 06 00 41 6e 73 77 65 72 07 07 00 44 65 63 6c 69 6e 65 00 15 00 63 6f 6d 2e 61 70 70 6c 65 2e 6d 6f 62 69 6c 65 70 68 6f 6e 65",
        "01 03 00 49 6d 6d 02 06 00 6d 6f 62 69 6c 65 03 0d 00 49 6e 63 6f 6d 69 6e 67 20 43 61 6c 6c 05 00 00"),
    attributes: [6: "Answer", 7: "Decline", 0: "com.apple.mobilephone", 1: "Imm", 2: "mobile", 3: "Incoming Call", 5: ""])

/// The second response of s_multiple_complete_dicts (it came right after the call's).
let iosCalendar = IOSCapture(
    name: "s_multiple_complete_dicts #2 (calendar; no PositiveActionLabel, no MessageSize)", uid: 0x75,
    bytes: fromHex(
        "00 75 00 00 00 07 07 00 44 69 73 6d 69 73 73 00 13 00 63 6f 6d 2e 61 70 70 6c 65 2e 6d 6f 62 69 6c 65 63 61 6c 01 11 00 48 61 69 6c 65 79 27 73",
        "20 70 72 61 63 74 69 63 65 02 00 00 03 0a 00 52 65 64 20 4d 6f 72 74 6f 6e 05 0f 00 32 30 31 34 31 30 32 38 54 31 36 30 30 30 30"),
    attributes: [7: "Dismiss", 0: "com.apple.mobilecal", 1: "Hailey's practice", 2: "", 3: "Red Morton", 5: "20141028T160000"])

let iosSMS = IOSCapture(
    name: "s_message_dict (SMS; empty PositiveActionLabel, no MessageSize)", uid: 0x1A,
    bytes: fromHex(
        "00 1a 00 00 00 06 00 00 07 05 00 43 6c 65 61 72 00 13 00 63 6f 6d 2e 61 70 70 6c 65 2e 4d 6f 62 69 6c 65 53 4d 53 01 13 00 46 72 61 6e 63 6f 69",
        "73 20 42 61 6c 64 61 73 73 61 72 69 02 00 00 03 1b 00 74 68 69 73 20 69 73 20 61 20 74 65 73 74 20 6e 6f 74 69 66 69 63 61 74 69 6f 6e 05 0f 00",
        "32 30 31 35 30 36 31 35 54 31 36 31 38 33 37"),
    attributes: [
        6: "", 7: "Clear", 0: "com.apple.MobileSMS", 1: "Francois Baldassari", 2: "", 3: "this is a test notification",
        5: "20150615T161837",
    ])

/// s_message_size_attr_dict without the AppIdentifier the PebbleOS test
/// appends: the phone cut the Message (43 bytes, ending in "…") and says it
/// is 113 long.
let iosPodcast = IOSCapture(
    name: "s_message_size_attr_dict (Message cut by the phone, MessageSize 113)", uid: 0x3C,
    bytes: fromHex(
        "00 3c 00 00 00 05 0f 00 32 30 31 36 30 33 30 31 54 31 34 31 35 32 33 01 08 00 4f 76 65 72 63 61 73 74 02 00 00 03 2b 00 54 68 65 20 4d 6f 74 68",
        "20 50 6f 64 63 61 73 74 3a 20 4d 6f 6e 69 63 61 20 43 68 65 72 75 2d 4d 70 61 6d 62 61 77 61 73 e2 80 a6 04 03 00 31 31 33"),
    attributes: [5: "20160301T141523", 1: "Overcast", 2: "", 3: "The Moth Podcast: Monica Cheru-Mpambawas…", 4: "113"])

/// Responses that lack an optional attribute the request (`standardList`,
/// all eight attributes, as PebbleOS asked) wanted.
let iosWithoutOptional = [iosLoading, iosNoContent, iosCall, iosCalendar, iosSMS]

/// Feeds chunks; records what the assembler reports.
func feed(_ assembler: DataSourceAssembler, _ chunks: [[UInt8]], into outcomes: inout [Outcome]) {
    for c in chunks { c.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } } }
}

/// Every way to cut `bytes` into two or three notifications (empty pieces included).
func splits(_ bytes: [UInt8], threeWay: Bool) -> [[[UInt8]]] {
    var out: [[[UInt8]]] = []
    for a in 0...bytes.count {
        if !threeWay {
            out.append([Array(bytes[..<a]), Array(bytes[a...])])
            continue
        }
        for b in a...bytes.count { out.append([Array(bytes[..<a]), Array(bytes[a..<b]), Array(bytes[b...])]) }
    }
    return out
}

@Suite("Optional attributes: assembler")
struct OptionalAttributeAssemblerTests {
    @Test("MessageSize and the action labels are optional; the others are not")
    func optionalFlags() {
        #expect(standardList.optionalMask == 0b1101_0000)
        #expect(AttributeRequest.notification(.messageSize, maxLength: 10).isOptional)
        #expect(AttributeRequest.notification(.positiveActionLabel, maxLength: 10).isOptional)
        #expect(AttributeRequest.notification(.negativeActionLabel, maxLength: 10).isOptional)
        #expect(!AttributeRequest.notification(.title, maxLength: 10).isOptional)
        #expect(!AttributeRequest(id: 6, maxLength: 10, sendsMaxLength: false).isOptional)
        // Not on the wire.
        #expect(ControlPoint.getNotificationAttributes(uid: NotificationUID(1), attributes: AttributeList([
            .notification(.title, maxLength: 8), .notification(.positiveActionLabel, maxLength: 32),
        ])) == [0, 1, 0, 0, 0, 1, 8, 0, 6])
    }

    @Test("a real iOS response without its optional attributes ends when the Data Source goes quiet, split at every pair of boundaries",
          arguments: iosWithoutOptional)
    func quietEnd(capture: IOSCapture) throws {
        let r = capture.bytes
        let want: [Outcome] = [.response(tag: 1, values: capture.values(for: standardList), complete: true)]
        for chunks in splits(r, threeWay: true) {
            let assembler = DataSourceAssembler()
            try assembler.expectNotificationAttributes(uid: NotificationUID(capture.uid), attributes: standardList, tag: 1)
            var outcomes: [Outcome] = []
            for (n, c) in chunks.enumerated() {
                feed(assembler, [c], into: &outcomes)
                // The Date comes last: only the whole response can end here.
                let fed = chunks[...n].map(\.count).reduce(0, +)
                if (assembler.tagAwaitingOptionalAttributes != nil) != (fed == r.count) {
                    Issue.record("\(chunks.map(\.count)): awaiting \(String(describing: assembler.tagAwaitingOptionalAttributes)) after \(fed) bytes")
                    return
                }
            }
            // Nothing tells the assembler that the response is over ...
            guard outcomes.isEmpty, assembler.tagAwaitingOptionalAttributes == 1 else {
                Issue.record("\(chunks.map(\.count)): \(outcomes)")
                return
            }
            // ... until its owner says the Data Source went quiet.
            #expect(assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) })
            guard outcomes == want else {
                Issue.record("\(chunks.map(\.count)): \(outcomes)")
                return
            }
            #expect(assembler.pendingCount == 0)
            #expect(!assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) })
        }
    }

    @Test("the optional attributes a response lacks are nil; hasEveryAttribute tells")
    func missingValues() throws {
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosLoading.uid), attributes: standardList, tag: 1)
        iosLoading.bytes.withUnsafeBytes { assembler.feed($0) { _ in Issue.record("not over yet") } }
        var seen = false
        assembler.finishWithoutOptionalAttributes { event in
            guard case .response(let r) = event else { return }
            seen = true
            #expect(r.isComplete)
            #expect(!r.hasEveryAttribute)
            #expect(r.value(for: NotificationAttributeID.positiveActionLabel) == nil)
            #expect(r.value(for: NotificationAttributeID.messageSize) == nil)
            #expect(r.string(for: NotificationAttributeID.negativeActionLabel.rawValue) == "Dismiss")
            #expect(r.string(for: NotificationAttributeID.message.rawValue) == "Loading…")
        }
        #expect(seen)
    }

    @Test("a request with nothing optional missing still waits for everything")
    func requiredStillWaits() throws {
        // The Date was asked for and is not optional: no quiet end.
        let list = AttributeList([.notification(.title, maxLength: 64), .notification(.date, maxLength: 32)])
        let bytes = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(4), [EncodedAttribute(.title, "t")])
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(4), attributes: list, tag: 1)
        var outcomes: [Outcome] = []
        feed(assembler, [bytes], into: &outcomes)
        #expect(outcomes.isEmpty)
        #expect(assembler.tagAwaitingOptionalAttributes == nil)
        #expect(!assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) })
        #expect(assembler.pendingCount == 1)
    }

    @Test("two real iOS responses back to back: the next one's header ends the first, at every pair of boundaries",
          arguments: [(iosCall, iosCalendar), (iosLoading, iosNoContent), (iosCalendar, iosSMS), (iosSMS, iosLoading)])
    func pipelined(first: IOSCapture, second: IOSCapture) throws {
        let all = first.bytes + second.bytes
        let want: [Outcome] = [
            .response(tag: 1, values: first.values(for: standardList), complete: true),
            .response(tag: 2, values: second.values(for: standardList), complete: true),
        ]
        for chunks in splits(all, threeWay: true) {
            let assembler = DataSourceAssembler()
            try assembler.expectNotificationAttributes(uid: NotificationUID(first.uid), attributes: standardList, tag: 1)
            try assembler.expectNotificationAttributes(uid: NotificationUID(second.uid), attributes: standardList, tag: 2)
            var outcomes: [Outcome] = []
            feed(assembler, chunks, into: &outcomes)
            guard outcomes == Array(want.prefix(1)), assembler.tagAwaitingOptionalAttributes == 2 else {
                Issue.record("\(chunks.map(\.count)): \(outcomes)")
                return
            }
            assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
            guard outcomes == want else {
                Issue.record("\(chunks.map(\.count)): \(outcomes)")
                return
            }
        }
    }

    @Test("back to back, one byte per notification: the first response ends with the 5th header byte of the next")
    func pipelinedByteByByte() throws {
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCall.uid), attributes: standardList, tag: 1)
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCalendar.uid), attributes: standardList, tag: 2)
        var outcomes: [Outcome] = []
        for (i, b) in (iosCall.bytes + iosCalendar.bytes).enumerated() {
            feed(assembler, [[b]], into: &outcomes)
            #expect(outcomes.count == (i >= iosCall.bytes.count + 4 ? 1 : 0), "byte \(i)")
        }
        #expect(outcomes == [.response(tag: 1, values: iosCall.values(for: standardList), complete: true)])
    }

    @Test("header-like bytes that are not the next header are attribute bytes after all (every split)")
    func lookaheadMismatch() throws {
        // An unrequested AppIdentifier "hello" encodes as 00 05 00 68 ..., the
        // first three bytes of the next request's header (UID 0x00AA0005).
        let list1 = AttributeList([.notification(.message, maxLength: 64), .notification(.messageSize, maxLength: 10)])
        let list2 = AttributeList([.notification(.title, maxLength: 64)])
        let next = NotificationUID(0x00AA_0005)
        let second = DataSourceResponseEncoder.notificationAttributes(uid: next, [EncodedAttribute(.title, "next")])
        for withSize in [true, false] {
            var attrs = [EncodedAttribute(.message, "body"), EncodedAttribute(.appIdentifier, "hello")]
            if withSize { attrs.append(EncodedAttribute(.messageSize, "42")) }
            let first = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), attrs)
            var values: [UInt8: [UInt8]] = [3: Array("body".utf8)]
            if withSize { values[4] = Array("42".utf8) }
            let want: [Outcome] = [
                .response(tag: 1, values: values, complete: true), .response(tag: 2, values: [1: Array("next".utf8)], complete: true),
            ]
            for chunks in splits(first + second, threeWay: true) + [(first + second).map { [$0] }] {
                let assembler = DataSourceAssembler()
                try assembler.expectNotificationAttributes(uid: NotificationUID(1), attributes: list1, tag: 1)
                try assembler.expectNotificationAttributes(uid: next, attributes: list2, tag: 2)
                var outcomes: [Outcome] = []
                feed(assembler, chunks, into: &outcomes)
                guard outcomes == want else {
                    Issue.record("withSize \(withSize), \(chunks.map(\.count)): \(outcomes)")
                    return
                }
            }
        }
    }

    @Test("quiet end while the next header has begun: those bytes stay the next response's header")
    func quietEndMidHeader() throws {
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCall.uid), attributes: standardList, tag: 1)
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCalendar.uid), attributes: standardList, tag: 2)
        var outcomes: [Outcome] = []
        feed(assembler, [iosCall.bytes + iosCalendar.bytes.prefix(3)], into: &outcomes)
        #expect(outcomes.isEmpty)
        #expect(assembler.tagAwaitingOptionalAttributes == 1)
        assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
        feed(assembler, [Array(iosCalendar.bytes.dropFirst(3))], into: &outcomes)
        assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
        #expect(outcomes == [
            .response(tag: 1, values: iosCall.values(for: standardList), complete: true),
            .response(tag: 2, values: iosCalendar.values(for: standardList), complete: true),
        ])
    }

    /// The call's response (no MessageSize) ended by the quiet period, the
    /// calendar's request pending behind it.
    static func callEndedByTheQuietPeriodCalendarPending() throws -> (DataSourceAssembler, [Outcome]) {
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCall.uid), attributes: standardList, tag: 1)
        var outcomes: [Outcome] = []
        feed(assembler, [iosCall.bytes], into: &outcomes)
        assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCalendar.uid), attributes: standardList, tag: 2)
        return (assembler, outcomes)
    }

    @Test("a late optional attribute after the quiet end is absorbed, and the next response behind it in the same bytes is kept, at every split")
    func lateOptionalAttributeIsAbsorbed() throws {
        // The call lacked MessageSize (ID 4); it comes after the quiet period, and the calendar's response right behind it.
        let late: [UInt8] = [0x04, 0x03, 0x00, 0x31, 0x31, 0x33]
        for split in splits(late + iosCalendar.bytes, threeWay: false) {
            var (assembler, outcomes) = try Self.callEndedByTheQuietPeriodCalendarPending()
            feed(assembler, split, into: &outcomes)
            assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
            #expect(outcomes == [
                .response(tag: 1, values: iosCall.values(for: standardList), complete: true),
                .response(tag: 2, values: iosCalendar.values(for: standardList), complete: true),
            ], "split at \(split[0].count)")
            #expect(assembler.lateAttributesAbsorbed == 1)
        }
    }

    @Test("bytes after the quiet end that are no missing attribute are still a stray episode")
    func strayBytesAfterTheQuietEndAreReported() throws {
        var (assembler, outcomes) = try Self.callEndedByTheQuietPeriodCalendarPending()
        feed(assembler, [[0x01, 0x02, 0x00, 0x41, 0x42]], into: &outcomes)  // a Title: the call has its Title
        feed(assembler, [iosCalendar.bytes], into: &outcomes)
        assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
        #expect(outcomes.count == 3)
        #expect(outcomes.last == .response(tag: 2, values: iosCalendar.values(for: standardList), complete: true))
        #expect(assembler.lateAttributesAbsorbed == 0)
    }

    @Test("cancel while waiting for optional attributes hands out the partial response")
    func cancelWhileAwaiting() throws {
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosLoading.uid), attributes: standardList, tag: 1)
        var outcomes: [Outcome] = []
        feed(assembler, [iosLoading.bytes], into: &outcomes)
        var partial: [UInt8: [UInt8]]? = nil
        #expect(assembler.cancel(tag: 1) { partial = copyValues($0) })
        #expect(partial == iosLoading.values(for: standardList))
        #expect(assembler.tagAwaitingOptionalAttributes == nil)
    }
}

@Suite("Values longer than the max length we sent")
struct OverlongValueTests {
    func lenient() -> DataSourceAssembler {
        var c = DataSourceAssembler.Configuration()
        c.truncatesOverlongValues = true
        return DataSourceAssembler(configuration: c)
    }

    @Test("kept cut at the max length on a UTF-8 boundary, with the other attributes, at every split", arguments: [
        ("much longer than eight bytes", 8, "much lon"),
        ("Tin nhắn mới", 8, "Tin nh"),  // 8 bytes would end inside ắ (E1 BA AF)
        ("Tin nhắn mới", 9, "Tin nhắ"),  // ends right after it
        ("ab😀cd", 5, "ab"),  // 4-byte sequence cut after 3 of its bytes
        ("ab😀cd", 3, "ab"),
        ("éééé", 7, "ééé"),
    ])
    func truncated(title: String, limit: Int, kept: String) throws {
        let list = AttributeList([
            .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: UInt16(limit)),
            .notification(.message, maxLength: 32),
        ])
        let bytes = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(3), [
            EncodedAttribute(.appIdentifier, "com.example"), EncodedAttribute(.title, title), EncodedAttribute(.message, "rest"),
        ])
        for chunks in splits(bytes, threeWay: false) {
            let assembler = lenient()
            try assembler.expectNotificationAttributes(uid: NotificationUID(3), attributes: list, tag: 1)
            var got: [UInt8: [UInt8]] = [:]
            for c in chunks {
                c.withUnsafeBytes {
                    assembler.feed($0) { event in
                        guard case .response(let r) = event else { Issue.record("\(event)"); return }
                        got = copyValues(r)
                        #expect(r.exceededMaxLength(at: 1) && r.isTruncated(at: 1))
                        #expect(r.declaredLength(at: 1) == title.utf8.count)
                        #expect(!r.exceededMaxLength(at: 0) && !r.exceededMaxLength(at: 2) && !r.isTruncated(at: 2))
                    }
                }
            }
            #expect(got == [0: Array("com.example".utf8), 1: Array(kept.utf8), 3: Array("rest".utf8)], "\(chunks.map(\.count))")
        }
    }

    @Test("by default (the decode tool) the request still fails")
    func strictByDefault() throws {
        #expect(!DataSourceAssembler.Configuration().truncatesOverlongValues)
        let list = AttributeList([.notification(.title, maxLength: 2)])
        let bytes = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(3), [EncodedAttribute(.title, "Mom")])
        let e = Exchange(uid: NotificationUID(3), list: list, response: bytes, values: [:])
        let assembler = DataSourceAssembler()
        try e.expect(on: assembler, tag: 1)
        var outcomes: [Outcome] = []
        feed(assembler, [bytes], into: &outcomes)
        #expect(outcomes == [.failed(tag: 1, .attributeTooLong(id: 1, length: 3, limit: 2))])
    }

    @Test("UTF-8 boundary rule", arguments: [
        ([0x41, 0x42], 2), ([0x41, 0xC3], 1), ([0x41, 0xC3, 0xA9], 3), ([0xE1, 0xBA], 0), ([0x41, 0xE1, 0xBA, 0xAF], 4),
        ([0xF0, 0x9F, 0x98], 0), ([0x41, 0xF0, 0x9F, 0x98, 0x80], 5), ([], 0),
        // Not valid UTF-8 anyway: left alone.
        ([0x80, 0x80, 0x80, 0x80], 4), ([0x41, 0xFF], 2), ([0x41, 0x80], 2),
    ] as [([UInt8], Int)])
    func utf8Boundary(bytes: [UInt8], expected: Int) {
        let n = bytes.withUnsafeBytes { DataSourceAssembler.utf8PrefixLength($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: $0.count) }
        #expect(n == expected)
    }
}

@Suite("Optional attributes and overlong values: consumer")
struct OptionalAttributeConsumerTests {
    @Test("action labels are asked for only when the EventFlags offer the action", arguments: [
        (EventFlags(), [UInt8]()), ([.positiveAction], [6]), ([.negativeAction], [7]), ([.positiveAction, .negativeAction], [6, 7]),
    ] as [(EventFlags, [UInt8])])
    func labelsFollowFlags(flags: EventFlags, labels: [UInt8]) {
        let h = Harness()
        h.post(1, title: "t", flags: flags)
        guard case .getNotificationAttributes(_, let attributes)? = h.lastWrite else {
            Issue.record("no request")
            return
        }
        #expect(attributes.map(\.id) == [0, 1] + labels)
        // Modified with other flags: asked for again, per the new flags.
        h.answerAll()
        h.ns(.modified, 1, flags: [.positiveAction])
        guard case .getNotificationAttributes(_, let again)? = h.lastWrite else {
            Issue.record("no request")
            return
        }
        #expect(again.map(\.id) == [0, 1, 6])
    }

    /// The mail notification of `iosLoading`, with both action flags set and
    /// Important: the consumer asks for AppIdentifier, Title, both labels,
    /// Message and MessageSize; the phone leaves out PositiveActionLabel and
    /// MessageSize.
    func postLoading(_ h: Harness) {
        h.ns(.added, iosLoading.uid, flags: [.important, .positiveAction, .negativeAction], category: .email)
        #expect(h.lastWrite == .getNotificationAttributes(uid: NotificationUID(iosLoading.uid), attributes: [
            AttributeRequest(id: 0, maxLength: 0, sendsMaxLength: false), AttributeRequest(id: 1, maxLength: 64, sendsMaxLength: true),
            AttributeRequest(id: 6, maxLength: 0, sendsMaxLength: false), AttributeRequest(id: 7, maxLength: 0, sendsMaxLength: false),
            AttributeRequest(id: 3, maxLength: 256, sendsMaxLength: true), AttributeRequest(id: 4, maxLength: 0, sendsMaxLength: false),
        ]))
        h.ack()
        _ = h.takeEvents()
    }

    @Test("a real response without PositiveActionLabel and MessageSize is stored 250 ms after the Data Source went quiet, at every split")
    func quietPeriod() throws {
        let r = iosLoading.bytes
        let uid = NotificationUID(iosLoading.uid)
        for k in 0...r.count {
            let h = Harness { $0.fetchAppNames = false }
            postLoading(h)
            h.post(2, title: "next")
            _ = h.takeEvents()
            h.consumer.dataSourceReceived(Array(r[..<k]), now: h.now)
            h.advance(.milliseconds(100))
            h.consumer.dataSourceReceived(Array(r[k...]), now: h.now)
            // Every required attribute is there, but the labels might still come.
            #expect(h.consumer.nextDeadline == h.now.advanced(by: .milliseconds(250)), "split \(k)")
            h.advance(.milliseconds(249))
            #expect(h.takeEvents().isEmpty, "split \(k)")
            #expect(h.requestedUIDs == [iosLoading.uid], "split \(k)")
            h.advance(.milliseconds(1))
            #expect(h.takeEvents() == [.attributesReady(uid, [.appIdentifier, .title, .negativeActionLabel, .message])], "split \(k)")
            // The next request goes at once; no timeout, no failure.
            #expect(h.requestedUIDs == [iosLoading.uid, 2], "split \(k)")
            #expect(h.consumer.statistics.timeouts == 0)
            #expect(h.consumer.statistics.responsesWithoutOptionalAttributes == 1)
            let n = try #require(h.consumer.notification(uid))
            #expect(n.title == "Marty")
            #expect(n.appIdentifier == "com.apple.mobilemail")
            #expect(n.negativeActionLabel == "Dismiss")
            #expect(n.positiveActionLabel == nil)
            #expect(n.message == "Loading…")
            #expect(n.messageSize == nil)
            #expect(!n.hasMoreMessage)
            #expect(!n.isFetchPending)
        }
    }

    @Test("the quiet period is configurable, and Data Source traffic restarts it: a late label is still stored")
    func quietPeriodRestarts() {
        let h = Harness { $0.fetchAppNames = false; $0.optionalAttributesQuietPeriod = .milliseconds(100) }
        h.post(1, title: "t", flags: [.negativeAction])
        h.ack()
        _ = h.takeEvents()
        let whole = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "com.apple.mobilemail"), EncodedAttribute(.title, "t"), EncodedAttribute(.negativeActionLabel, "Trash"),
        ])
        let cut = 5 + 3 + 20 + 3 + 1  // after the Title
        h.consumer.dataSourceReceived(Array(whole[..<cut]), now: h.now)
        #expect(h.consumer.nextDeadline == h.now.advanced(by: .milliseconds(100)))
        h.advance(.milliseconds(99))
        h.consumer.dataSourceReceived(Array(whole[cut...]), now: h.now)
        #expect(h.takeEvents() == [.attributesReady(NotificationUID(1), [.appIdentifier, .title, .negativeActionLabel])])
        #expect(h.consumer.notification(NotificationUID(1))?.negativeActionLabel == "Trash")
        #expect(h.consumer.statistics.responsesWithoutOptionalAttributes == 0)

        // Later than the quiet period, the label is absorbed as a late tail
        // (issue 28): not stored, and no stray-data episode either.
        h.ns(.modified, 1, flags: [.negativeAction])
        h.ack()
        _ = h.takeEvents()
        h.consumer.dataSourceReceived(Array(whole[..<cut]), now: h.now)
        h.advance(.milliseconds(100))
        #expect(h.takeEvents() == [.attributesReady(NotificationUID(1), [.appIdentifier, .title])])
        // What the phone left out is not kept from the earlier fetch.
        #expect(h.consumer.notification(NotificationUID(1))?.negativeActionLabel == nil)
        h.consumer.dataSourceReceived(Array(whole[cut...]), now: h.now)
        #expect(h.takeEvents() == [])
        #expect(h.consumer.notification(NotificationUID(1))?.negativeActionLabel == nil)
        #expect(h.consumer.statistics.strayDataSourceEpisodes == 0)
    }

    @Test("a Title longer than the max length we sent is kept cut (UTF-8 safe) with the other attributes; reported once per session")
    func overlongTitle() throws {
        let h = Harness { $0.fetchAppNames = false; $0.titleMaxLength = 8 }
        let long = "Tin nhắn mới"
        h.post(1, title: "one")
        h.post(2, title: "two")
        _ = h.takeEvents()
        h.ack()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "com.example"), EncodedAttribute(.title, long),
        ]))
        #expect(h.takeEvents() == [
            .protocolError(.attributeExceedsMaxLength(NotificationUID(1), attributeID: 1, length: long.utf8.count, maxLength: 8)),
            .attributesReady(NotificationUID(1), [.appIdentifier, .title]),
        ])
        let n = try #require(h.consumer.notification(NotificationUID(1)))
        #expect(n.title == "Tin nh")
        #expect(n.appIdentifier == "com.example")
        #expect(n.truncated == .title)
        #expect(h.consumer.statistics.malformedResponses == 0)
        h.answer()
        #expect(h.consumer.notification(NotificationUID(2))?.title == "two")
        _ = h.takeEvents()

        // Again in the same session: counted, not reported again.
        h.post(3, title: "three")
        h.ack()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(3), [
            EncodedAttribute(.appIdentifier, "com.example"), EncodedAttribute(.title, "overlong again"),
        ]))
        #expect(h.takeEvents() == [
            .notificationAdded(NotificationInfo(uid: NotificationUID(3), flags: [], category: .social, categoryCount: 1)),
            .attributesReady(NotificationUID(3), [.appIdentifier, .title]),
        ])
        #expect(h.consumer.notification(NotificationUID(3))?.title == "overlong")
        #expect(h.consumer.statistics.overlongAttributes == 2)

        // A new session reports it again.
        h.consumer.sessionEnded(.resubscribing, now: h.now)
        h.consumer.sessionStarted(now: h.now)
        h.post(4, title: "four")
        h.ack()
        _ = h.takeEvents()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(4), [
            EncodedAttribute(.appIdentifier, "com.example"), EncodedAttribute(.title, "and once more"),
        ]))
        #expect(h.takeEvents().first == .protocolError(.attributeExceedsMaxLength(NotificationUID(4), attributeID: 1, length: 13, maxLength: 8)))
    }

    @Test("an overlong Message keeps the Title and is marked as cut")
    func overlongMessage() throws {
        let h = Harness { $0.fetchAppNames = false; $0.messageMaxLength = 10 }
        h.post(1, title: "t", flags: [.important])
        h.ack()
        _ = h.takeEvents()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "a"), EncodedAttribute(.title, "Title"),
            EncodedAttribute(.message, "a message of 27 bytes in all"), EncodedAttribute(.messageSize, "27"),
        ]))
        let n = try #require(h.consumer.notification(NotificationUID(1)))
        #expect(n.title == "Title")
        #expect(n.message == "a message ")
        #expect(n.truncated == .message)
        #expect(n.hasMoreMessage)
    }

    @Test("hasMoreMessage: MessageSize larger than the Message bytes that arrived")
    func hasMoreMessage() throws {
        let h = Harness { $0.fetchAppNames = false; $0.messageMaxLength = 16 }
        h.post(1, title: "long", message: String(repeating: "é", count: 40), flags: [.important])  // 80 bytes, cut to 16 by the phone
        h.post(2, title: "short", message: "Dinner?", flags: [.important])
        h.post(3, title: "no message")
        h.answerAll()
        let long = try #require(h.consumer.notification(NotificationUID(1)))
        #expect(long.messageSize == 80)
        #expect(long.bytes(.message).count == 16)
        #expect(long.truncated.isEmpty)  // the phone kept to our max length
        #expect(long.hasMoreMessage)
        #expect(h.consumer.notification(NotificationUID(2))?.hasMoreMessage == false)
        #expect(h.consumer.notification(NotificationUID(3))?.hasMoreMessage == false)

        // Modified: the new answer has a short Message and no MessageSize; the
        // stale size does not survive.
        h.ns(.modified, 1, flags: [.important])
        h.ack()
        h.send(DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(1), [
            EncodedAttribute(.appIdentifier, "a"), EncodedAttribute(.title, "long"), EncodedAttribute(.message, "now short"),
        ]))
        h.advance(.milliseconds(250))
        let modified = try #require(h.consumer.notification(NotificationUID(1)))
        #expect(modified.message == "now short")
        #expect(modified.messageSize == nil)
        #expect(!modified.available.contains(.messageSize))
        #expect(!modified.hasMoreMessage)
    }

    @Test("hasMoreMessage with a real response: the phone cut the Message itself (43 bytes, MessageSize 113)")
    func hasMoreMessageReal() throws {
        let h = Harness { $0.fetchAppNames = false }
        let uid = NotificationUID(iosPodcast.uid)
        h.post(iosPodcast.uid, title: "Overcast")
        h.answerAll()
        h.consumer.notificationShown(uid, now: h.now)
        #expect(h.lastWrite == .getNotificationAttributes(uid: uid, attributes: [
            AttributeRequest(id: 3, maxLength: 256, sendsMaxLength: true), AttributeRequest(id: 4, maxLength: 0, sendsMaxLength: false),
        ]))
        h.ack()
        _ = h.takeEvents()
        h.send(iosPodcast.bytes)  // Date, Title and Subtitle come unasked: skipped
        #expect(h.takeEvents() == [.attributesReady(uid, [.message, .messageSize])])
        let n = try #require(h.consumer.notification(uid))
        #expect(n.message == "The Moth Podcast: Monica Cheru-Mpambawas…")
        #expect(n.messageSize == 113)
        #expect(n.hasMoreMessage)
    }
}

@Suite("Optional attributes: a request cancelled while its header is watched for")
struct LookaheadCancelTests {
    /// The call's response lacks MessageSize, so after its last attribute the
    /// assembler watches for the calendar request's header. That request is
    /// withdrawn midway (its fetch timed out); the entry behind it asks for an
    /// app's name. The rest of the calendar response must be discarded: it
    /// must neither end the call's response as if it were the app request's
    /// header nor be delivered as the app's answer with an AppIdentifier echo
    /// that never arrived.
    @Test("the watch keeps the withdrawn request's header; the app request behind it gets only its own answer",
          arguments: 1...4)
    func cancelDuringLookahead(headerBytesBeforeCancel: Int) throws {
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCall.uid), attributes: standardList, tag: 1)
        try assembler.expectNotificationAttributes(uid: NotificationUID(iosCalendar.uid), attributes: standardList, tag: 2)
        let appID = Array("com.apple.mobilecal".utf8)
        let appList = AttributeList([.app(.displayName, maxLength: 32)])
        try appID.withUnsafeBytes { try assembler.expectAppAttributes(appIdentifier: $0, attributes: appList, tag: 3) }

        var outcomes: [Outcome] = []
        let calendar = iosCalendar.bytes
        feed(assembler, [iosCall.bytes, Array(calendar[..<headerBytesBeforeCancel])], into: &outcomes)
        #expect(outcomes.isEmpty)
        #expect(assembler.cancel(tag: 2))
        feed(assembler, [Array(calendar[headerBytesBeforeCancel...])], into: &outcomes)
        #expect(!outcomes.contains { if case .response(3, _, _) = $0 { true } else { false } }, "\(outcomes)")

        // The app's own answer still arrives whole, with its real echo.
        let answer = DataSourceResponseEncoder.appAttributes(
            appIdentifier: appID, [EncodedAttribute(id: 0, value: Array("Calendar".utf8))])
        feed(assembler, [answer], into: &outcomes)
        assembler.finishWithoutOptionalAttributes { record($0, into: &outcomes) }
        let responses = outcomes.compactMap { o -> UInt32? in if case .response(let t, _, true) = o { t } else { nil } }
        #expect(responses.last == 3, "\(outcomes)")
        #expect(assembler.pendingCount == 0, "\(outcomes)")
    }
}
