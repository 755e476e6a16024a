import ANCS
import Notifications
import Testing
@testable import ANCS

/// What the assembler reported, copied out of its buffers.
enum Outcome: Equatable, CustomStringConvertible {
    case response(tag: UInt32, values: [UInt8: [UInt8]], complete: Bool)
    case failed(tag: UInt32, DataSourceError)
    case discarded(DataSourceError)

    var description: String {
        switch self {
        case .response(let tag, let values, let complete):
            let v = values.keys.sorted().map { "\($0):\(String(decoding: values[$0]!, as: UTF8.self))" }
            return "response(\(tag), \(v), complete: \(complete))"
        case .failed(let tag, let e): return "failed(\(tag), \(e))"
        case .discarded(let e): return "discarded(\(e))"
        }
    }
}

func copyValues(_ r: DataSourceResponse) -> [UInt8: [UInt8]] {
    var out: [UInt8: [UInt8]] = [:]
    for i in 0..<r.requested.count {
        if let v = r.value(at: i) { out[r.requested[i].id] = Array(v) }
    }
    return out
}

func record(_ event: DataSourceEvent, into outcomes: inout [Outcome]) {
    switch event {
    case .response(let r): outcomes.append(.response(tag: r.tag, values: copyValues(r), complete: r.isComplete))
    case .failed(let tag, let e): outcomes.append(.failed(tag: tag, e))
    case .discarded(let e): outcomes.append(.discarded(e))
    }
}

/// One request and the phone's answer to it.
struct Exchange: Sendable {
    var uid: NotificationUID?
    var appIdentifier: String = ""
    var list: AttributeList
    var response: [UInt8]
    var values: [UInt8: [UInt8]]

    static func notification(_ uid: UInt32, _ list: AttributeList, _ attributes: [EncodedAttribute]) -> Exchange {
        var values: [UInt8: [UInt8]] = [:]
        for a in attributes where list.contains(a.id) { values[a.id] = a.value }
        return Exchange(
            uid: NotificationUID(uid), list: list,
            response: DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(uid), attributes), values: values)
    }

    static func app(_ id: String, _ list: AttributeList, _ attributes: [EncodedAttribute]) -> Exchange {
        var values: [UInt8: [UInt8]] = [:]
        for a in attributes where list.contains(a.id) { values[a.id] = a.value }
        return Exchange(
            uid: nil, appIdentifier: id, list: list,
            response: DataSourceResponseEncoder.appAttributes(appIdentifier: id, attributes), values: values)
    }

    func expect(on assembler: DataSourceAssembler, tag: UInt32) throws {
        if let uid {
            try assembler.expectNotificationAttributes(uid: uid, attributes: list, tag: tag)
        } else {
            let id = Array(appIdentifier.utf8)
            try id.withUnsafeBytes { try assembler.expectAppAttributes(appIdentifier: $0, attributes: list, tag: tag) }
        }
    }
}

/// A deterministic generator for the random splits (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let standardList = AttributeList([
    .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
    .notification(.subtitle, maxLength: 64), .notification(.message, maxLength: 256),
    .notification(.messageSize, maxLength: 10), .notification(.date, maxLength: 32),
    .notification(.positiveActionLabel, maxLength: 32), .notification(.negativeActionLabel, maxLength: 32),
])

/// Realistic responses, including the spec's attribute mix, calls with
/// action labels, zero-length values, unrequested attributes and UTF-8.
let realistic: [(String, Exchange)] = [
    ("iMessage with emoji", .notification(0x43, AttributeList([
        .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
        .notification(.message, maxLength: 256), .notification(.messageSize, maxLength: 10),
        .notification(.date, maxLength: 32),
    ]), [
        EncodedAttribute(.appIdentifier, "com.apple.MobileSMS"), EncodedAttribute(.title, "Mom"),
        EncodedAttribute(.message, "Dinner at 7? 🍝"), EncodedAttribute(.messageSize, "18"),
        EncodedAttribute(.date, "20240314T183005"),
    ])),
    ("incoming call with action labels", .notification(0x1000_0001, AttributeList([
        .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
        .notification(.positiveActionLabel, maxLength: 32), .notification(.negativeActionLabel, maxLength: 32),
    ]), [
        EncodedAttribute(.appIdentifier, "com.apple.mobilephone"), EncodedAttribute(.title, "John Appleseed"),
        EncodedAttribute(.positiveActionLabel, "Answer"), EncodedAttribute(.negativeActionLabel, "Decline"),
    ])),
    ("mail, all eight attributes, message at its max length", .notification(7, standardList, [
        EncodedAttribute(.appIdentifier, "com.apple.mobilemail"), EncodedAttribute(.title, "Alice Example"),
        EncodedAttribute(.subtitle, "Re: Quarterly report"),
        EncodedAttribute(.message, String(repeating: "Numbers look fine. ", count: 14).prefix(256).description),
        EncodedAttribute(.messageSize, "4711"), EncodedAttribute(.date, "20231130T090000"),
        EncodedAttribute(.positiveActionLabel, "Archive"), EncodedAttribute(.negativeActionLabel, "Delete"),
    ])),
    ("zero-length subtitle and message", .notification(99, AttributeList([
        .notification(.title, maxLength: 64), .notification(.subtitle, maxLength: 64), .notification(.message, maxLength: 64),
    ]), [
        EncodedAttribute(.title, "Reminder"), EncodedAttribute(.subtitle, ""), EncodedAttribute(.message, ""),
    ])),
    ("zero-length last attribute", .notification(100, AttributeList([
        .notification(.title, maxLength: 64), .notification(.negativeActionLabel, maxLength: 32),
    ]), [EncodedAttribute(.title, "Timer"), EncodedAttribute(.negativeActionLabel, "")])),
    ("attributes in another order than asked", .notification(5, AttributeList([
        .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
    ]), [EncodedAttribute(.title, "Out of order"), EncodedAttribute(.appIdentifier, "com.example.app")])),
    ("unrequested and unknown attribute IDs are skipped", .notification(6, AttributeList([
        .notification(.title, maxLength: 64),
    ]), [
        EncodedAttribute(id: 0x2A, value: Array("future attribute".utf8)), EncodedAttribute(.subtitle, "not asked"),
        EncodedAttribute(.title, "Asked"),
    ])),
    ("Chinese title", .notification(8, AttributeList([.notification(.title, maxLength: 64)]), [EncodedAttribute(.title, "微信：你好，世界")])),
    ("Japanese title", .notification(9, AttributeList([.notification(.title, maxLength: 64)]), [EncodedAttribute(.title, "新着メッセージ：こんにちは")])),
    ("Vietnamese title", .notification(10, AttributeList([.notification(.title, maxLength: 64)]), [EncodedAttribute(.title, "Tin nhắn mới từ Nguyễn Thị Hương")])),
    ("emoji title (ZWJ sequences, flags)", .notification(11, AttributeList([.notification(.title, maxLength: 64)]), [EncodedAttribute(.title, "👩‍👩‍👧‍👦 🇻🇳 🎉")])),
    ("invalid UTF-8 kept as bytes", .notification(12, AttributeList([
        .notification(.title, maxLength: 64), .notification(.message, maxLength: 64),
    ]), [
        EncodedAttribute(id: 1, value: [0x48, 0xC3, 0x28, 0xFF, 0xE2, 0x82]),  // bad continuation, 0xFF, cut sequence
        EncodedAttribute(id: 3, value: [0xED, 0xA0, 0x80, 0x00, 0x41]),  // a surrogate, NUL
    ])),
    ("app display name", .app("com.apple.mobilemail", AttributeList([.app(.displayName, maxLength: 64)]), [EncodedAttribute(.displayName, "Mail")])),
    ("app display name in Japanese", .app("jp.naver.line", AttributeList([.app(.displayName, maxLength: 64)]), [EncodedAttribute(.displayName, "ＬＩＮＥ")])),
]

@Suite("Data Source assembler")
struct AssemblerTests {
    func run(_ exchanges: [Exchange], chunks: [[UInt8]], assembler: DataSourceAssembler = DataSourceAssembler()) throws -> [Outcome] {
        for (i, e) in exchanges.enumerated() { try e.expect(on: assembler, tag: UInt32(i + 1)) }
        var outcomes: [Outcome] = []
        for c in chunks { c.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } } }
        return outcomes
    }

    func expected(_ exchanges: [Exchange]) -> [Outcome] {
        exchanges.enumerated().map { .response(tag: UInt32($0.offset + 1), values: $0.element.values, complete: true) }
    }

    @Test("a realistic response in one notification", arguments: realistic.map(\.1))
    func whole(exchange: Exchange) throws {
        #expect(try run([exchange], chunks: [exchange.response]) == expected([exchange]))
    }

    @Test("a realistic response split at every byte boundary", arguments: realistic.map(\.1))
    func everyTwoWaySplit(exchange: Exchange) throws {
        let r = exchange.response
        for k in 0...r.count {
            let outcomes = try run([exchange], chunks: [Array(r[..<k]), Array(r[k...])])
            #expect(outcomes == expected([exchange]), "split at \(k)")
        }
    }

    @Test("a realistic response split at every pair of boundaries", arguments: realistic.map(\.1).filter { $0.response.count <= 120 })
    func everyThreeWaySplit(exchange: Exchange) throws {
        let r = exchange.response
        let want = expected([exchange])
        for a in 0...r.count {
            for b in a...r.count {
                let outcomes = try run([exchange], chunks: [Array(r[..<a]), Array(r[a..<b]), Array(r[b...])])
                if outcomes != want {
                    Issue.record("split at \(a), \(b): \(outcomes)")
                    return
                }
            }
        }
    }

    @Test("one byte per notification, and random 2- and 3-way splits", arguments: realistic.map(\.1))
    func randomSplits(exchange: Exchange) throws {
        let r = exchange.response
        #expect(try run([exchange], chunks: r.map { [$0] }) == expected([exchange]))
        var rng = SplitMix(state: UInt64(r.count))
        for _ in 0..<200 {
            var cuts = [Int.random(in: 0...r.count, using: &rng), Int.random(in: 0...r.count, using: &rng)]
            if Bool.random(using: &rng) { cuts.removeLast() }
            cuts.sort()
            var chunks: [[UInt8]] = []
            var start = 0
            for c in cuts { chunks.append(Array(r[start..<c])); start = c }
            chunks.append(Array(r[start...]))
            #expect(try run([exchange], chunks: chunks) == expected([exchange]), "cuts \(cuts)")
        }
    }

    @Test("MTU-sized notifications (20 and 182 bytes) as the phone sends them")
    func mtuSplits() throws {
        for (_, e) in realistic {
            for mtu in [20, 182] {
                let chunks = stride(from: 0, to: e.response.count, by: mtu).map { Array(e.response[$0..<min($0 + mtu, e.response.count)]) }
                #expect(try run([e], chunks: chunks) == expected([e]))
            }
        }
    }

    @Test("responses back to back, in one notification and split everywhere")
    func backToBack() throws {
        let exchanges = [realistic[0].1, realistic[12].1, realistic[3].1]
        let all = exchanges.flatMap(\.response)
        #expect(try run(exchanges, chunks: [all]) == expected(exchanges))
        for k in 0...all.count {
            #expect(try run(exchanges, chunks: [Array(all[..<k]), Array(all[k...])]) == expected(exchanges), "split at \(k)")
        }
        var rng = SplitMix(state: 42)
        for _ in 0..<300 {
            var cuts = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Int.random(in: 0...all.count, using: &rng) }
            cuts.sort()
            var chunks: [[UInt8]] = []
            var start = 0
            for c in cuts { chunks.append(Array(all[start..<c])); start = c }
            chunks.append(Array(all[start...]))
            #expect(try run(exchanges, chunks: chunks) == expected(exchanges), "cuts \(cuts)")
        }
    }

    @Test("values are exactly the sent bytes, including invalid UTF-8; strings repair only on request")
    func bytesKept() throws {
        let e = realistic[11].1
        let assembler = DataSourceAssembler()
        try e.expect(on: assembler, tag: 1)
        var seen = false
        e.response.withUnsafeBytes {
            assembler.feed($0) { event in
                guard case .response(let r) = event else { return }
                seen = true
                #expect(Array(r.value(for: NotificationAttributeID.title)!) == [0x48, 0xC3, 0x28, 0xFF, 0xE2, 0x82])
                #expect(Array(r.value(for: NotificationAttributeID.message)!) == [0xED, 0xA0, 0x80, 0x00, 0x41])
                #expect(r.string(for: 1) == "H\u{FFFD}(\u{FFFD}\u{FFFD}")
                #expect(r.uid == NotificationUID(12))
                #expect(r.command == .getNotificationAttributes)
                #expect(r.appIdentifier.isEmpty)
            }
        }
        #expect(seen)
    }

    @Test("the AppIdentifier echo is handed out")
    func appEcho() throws {
        let e = realistic[12].1
        let assembler = DataSourceAssembler()
        try e.expect(on: assembler, tag: 9)
        var echoed: [UInt8] = []
        e.response.withUnsafeBytes {
            assembler.feed($0) { event in
                if case .response(let r) = event {
                    echoed = Array(r.appIdentifier)
                    #expect(r.uid == nil)
                    #expect(r.command == .getAppAttributes)
                    #expect(r.string(for: 0) == "Mail")
                }
            }
        }
        #expect(echoed == Array("com.apple.mobilemail".utf8))
    }

    @Test("wrong echoed UID is stray data: reported once, the request stays pending and completes later")
    func wrongUID() throws {
        let e = realistic[0].1
        let wrong = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(0x44), [EncodedAttribute(.title, "other")])
        let outcomes = try run([e], chunks: [wrong, Array(wrong.prefix(3)), e.response])
        #expect(outcomes == [.discarded(.mismatchedUID(expected: NotificationUID(0x43), received: NotificationUID(0x44)))] + expected([e]))
    }

    @Test("wrong echoed AppIdentifier or command is stray data")
    func wrongAppIdentifier() throws {
        let e = realistic[12].1
        let other = DataSourceResponseEncoder.appAttributes(appIdentifier: "com.apple.mobilemai", [EncodedAttribute(.displayName, "Mail")])
        #expect(try run([e], chunks: [other, e.response]) == [.discarded(.mismatchedAppIdentifier)] + expected([e]))
        let longer = DataSourceResponseEncoder.appAttributes(appIdentifier: "com.apple.mobilemail2", [])
        #expect(try run([e], chunks: [longer, e.response]) == [.discarded(.mismatchedAppIdentifier)] + expected([e]))
        #expect(try run([e], chunks: [realistic[0].1.response, e.response]) == [.discarded(.mismatchedCommand(expected: 1, received: 0))] + expected([e]))
    }

    @Test("bytes with nothing pending are discarded once per episode")
    func unexpectedData() throws {
        let assembler = DataSourceAssembler()
        var outcomes: [Outcome] = []
        for chunk: [UInt8] in [[0x00, 1, 2], [0x00], [0xFF, 0xFF]] {
            chunk.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
        }
        #expect(outcomes == [.discarded(.unexpectedData(firstByte: 0))])
        // The next request's response is read normally.
        let e = realistic[1].1
        #expect(try run([e], chunks: [e.response], assembler: assembler) == expected([e]))
    }

    @Test("garbage does not trap and the assembler recovers at the next response")
    func garbage() throws {
        var rng = SplitMix(state: 7)
        let e = realistic[2].1
        for _ in 0..<200 {
            let junk = (0..<Int.random(in: 1...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let assembler = DataSourceAssembler()
            var outcomes: [Outcome] = []
            try e.expect(on: assembler, tag: 1)
            junk.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
            if assembler.pendingCount == 0 {
                // The junk broke the request (for example an oversized length): next request.
                try e.expect(on: assembler, tag: 2)
            }
            e.response.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
            guard case .response(_, let values, true)? = outcomes.last else {
                // Junk that happens to start with a valid header and lengths
                // can only be resolved by the consumer's timeout.
                #expect(junk.first == 0x00 && junk.count >= 5 && Array(junk[1..<5]) == [7, 0, 0, 0], "junk \(junk): \(outcomes)")
                continue
            }
            #expect(values == e.values)
        }
    }

    @Test("a Title longer than the max length we sent drops the response; the tail is discarded; the next response is read")
    func oversizedLength() throws {
        let list = AttributeList([.notification(.title, maxLength: 8), .notification(.message, maxLength: 32)])
        let bad = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(3), [
            EncodedAttribute(.title, "this title is far too long"), EncodedAttribute(.message, "rest"),
        ])
        let next = Exchange.notification(4, list, [EncodedAttribute(.title, "ok"), EncodedAttribute(.message, "fine")])
        let assembler = DataSourceAssembler()
        try assembler.expectNotificationAttributes(uid: NotificationUID(3), attributes: list, tag: 1)
        var outcomes: [Outcome] = []
        // The bad response arrives in 10-byte notifications; the consumer
        // sends the next request as soon as the failure is reported.
        for start in stride(from: 0, to: bad.count, by: 10) {
            Array(bad[start..<min(start + 10, bad.count)]).withUnsafeBytes {
                assembler.feed($0) { event in
                    record(event, into: &outcomes)
                    if case .failed = event { try? next.expect(on: assembler, tag: 2) }
                }
            }
        }
        next.response.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
        #expect(outcomes == [
            .failed(tag: 1, .attributeTooLong(id: 1, length: 26, limit: 8)),
            .response(tag: 2, values: next.values, complete: true),
        ])
    }

    @Test("the maximum declared length 0xFFFF never overruns: error for bounded attributes")
    func maxDeclaredLength() throws {
        let list = AttributeList([.notification(.title, maxLength: 64)])
        let bytes: [UInt8] = [0x00, 1, 0, 0, 0, 0x01, 0xFF, 0xFF, 0x41, 0x42]
        let e = Exchange(uid: NotificationUID(1), list: list, response: bytes, values: [:])
        #expect(try run([e], chunks: [bytes]) == [.failed(tag: 1, .attributeTooLong(id: 1, length: 0xFFFF, limit: 64))])
    }

    @Test("attributes without a max length on the wire are cut to our bound and marked truncated")
    func truncatedUnbounded() throws {
        let list = AttributeList([.app(.displayName, maxLength: 4)])
        let e = Exchange.app("com.example", list, [EncodedAttribute(.displayName, "Example App")])
        let assembler = DataSourceAssembler()
        try e.expect(on: assembler, tag: 1)
        var got: [UInt8]? = nil
        for b in e.response {
            [b].withUnsafeBytes {
                assembler.feed($0) { event in
                    if case .response(let r) = event {
                        got = r.value(at: 0).map(Array.init)
                        #expect(r.isTruncated(at: 0))
                    }
                }
            }
        }
        #expect(got == Array("Exam".utf8))
    }

    @Test("an unrequested attribute longer than the skip limit means lost sync")
    func unrequestedTooLong() throws {
        let list = AttributeList([.notification(.title, maxLength: 64)])
        let bytes = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(2), [
            EncodedAttribute(id: 0x30, value: [UInt8](repeating: 0x61, count: 600)), EncodedAttribute(.title, "x"),
        ])
        let e = Exchange(uid: NotificationUID(2), list: list, response: bytes, values: [:])
        #expect(try run([e], chunks: [bytes]) == [.failed(tag: 1, .unrequestedAttributeTooLong(id: 0x30, length: 600))])
    }

    @Test("the same attribute twice drops the response")
    func duplicate() throws {
        let list = AttributeList([.notification(.title, maxLength: 64), .notification(.message, maxLength: 64)])
        let bytes = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(2), [
            EncodedAttribute(.title, "a"), EncodedAttribute(.title, "b"), EncodedAttribute(.message, "c"),
        ])
        let e = Exchange(uid: NotificationUID(2), list: list, response: bytes, values: [:])
        #expect(try run([e], chunks: [bytes]) == [.failed(tag: 1, .duplicateAttribute(id: 1))])
    }

    @Test("a truncated response (missing last attributes) stays pending; cancel hands out what fully arrived")
    func truncatedResponse() throws {
        let e = realistic[1].1  // call: appID, title, positive, negative
        for cut in 0..<e.response.count {
            let assembler = DataSourceAssembler()
            try e.expect(on: assembler, tag: 1)
            var outcomes: [Outcome] = []
            Array(e.response[..<cut]).withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
            #expect(outcomes.isEmpty)
            #expect(assembler.pendingCount == 1)
            var partial: [UInt8: [UInt8]]? = nil
            var complete = false
            // (The action labels are optional: without them the response is
            // `isComplete`, but it never had every attribute.)
            let found = assembler.cancel(tag: 1) { partial = copyValues($0); complete = $0.hasEveryAttribute }
            #expect(found)
            #expect(!complete)
            #expect(assembler.pendingCount == 0)
            // Whatever fully arrived is exactly a prefix of the attributes.
            if let partial {
                for (id, v) in partial { #expect(e.values[id] == v) }
                #expect(partial.count < 4)
            }
            // The rest of that response, arriving late, is discarded quietly
            // (a fresh notification that does not start with a header).
            let next = realistic[0].1
            try next.expect(on: assembler, tag: 2)
            Array(e.response[cut...]).withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
            next.response.withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
            #expect(outcomes.last == .response(tag: 2, values: next.values, complete: true), "cut \(cut): \(outcomes)")
        }
    }

    @Test("cancel of a request not at the front keeps the others in order")
    func cancelMiddle() throws {
        let exchanges = [realistic[0].1, realistic[12].1, realistic[13].1]
        let assembler = DataSourceAssembler()
        for (i, e) in exchanges.enumerated() { try e.expect(on: assembler, tag: UInt32(i + 1)) }
        #expect(assembler.cancel(tag: 2))
        #expect(!assembler.cancel(tag: 2))
        var outcomes: [Outcome] = []
        (exchanges[0].response + exchanges[2].response).withUnsafeBytes { assembler.feed($0) { record($0, into: &outcomes) } }
        #expect(outcomes == [
            .response(tag: 1, values: exchanges[0].values, complete: true),
            .response(tag: 3, values: exchanges[2].values, complete: true),
        ])
    }

    @Test("expect refuses what does not fit, instead of overrunning")
    func expectLimits() throws {
        var c = DataSourceAssembler.Configuration()
        c.maxPending = 1
        c.valueCapacity = 100
        c.appIdentifierCapacity = 4
        let assembler = DataSourceAssembler(configuration: c)
        #expect(throws: DataSourceAssembler.ExpectError.valuesExceedCapacity(needed: 101, capacity: 100)) {
            try assembler.expectNotificationAttributes(uid: NotificationUID(1), attributes: AttributeList([.notification(.title, maxLength: 101)]), tag: 1)
        }
        #expect(throws: DataSourceAssembler.ExpectError.appIdentifierTooLong(length: 5, capacity: 4)) {
            try Array("abcde".utf8).withUnsafeBytes { try assembler.expectAppAttributes(appIdentifier: $0, attributes: AttributeList(), tag: 1) }
        }
        try assembler.expectNotificationAttributes(uid: NotificationUID(1), attributes: AttributeList([.notification(.title, maxLength: 100)]), tag: 1)
        #expect(throws: DataSourceAssembler.ExpectError.tooManyPending) {
            try assembler.expectNotificationAttributes(uid: NotificationUID(2), attributes: AttributeList(), tag: 2)
        }
    }

    @Test("reset inside the handler stops the current feed")
    func resetInHandler() throws {
        let exchanges = [realistic[0].1, realistic[1].1]
        let assembler = DataSourceAssembler()
        for (i, e) in exchanges.enumerated() { try e.expect(on: assembler, tag: UInt32(i + 1)) }
        var outcomes: [Outcome] = []
        (exchanges[0].response + exchanges[1].response).withUnsafeBytes {
            assembler.feed($0) { event in
                record(event, into: &outcomes)
                assembler.reset()
            }
        }
        #expect(outcomes == [.response(tag: 1, values: exchanges[0].values, complete: true)])
        #expect(assembler.pendingCount == 0)
    }
}
