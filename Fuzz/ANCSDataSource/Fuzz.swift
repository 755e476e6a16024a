// libFuzzer target: the Data Source assembler (plus the Date and MessageSize
// parsers on every value it reassembles).
//
// The input is a small program: a header that registers 1–3 expected
// requests (Get Notification Attributes or Get App Attributes, with
// attribute lists, max lengths and optional flags taken from the input; the
// first byte's top bit picks the assembler that truncates overlong values),
// then chunks, each fed as one GATT notification; a chunk-length byte with
// the top bit set cancels the front request instead, or, with 0x40 also
// set, ends it without its optional attributes (the quiet period). The
// checks: responses come in request order, echo what was asked, lack only
// optional attributes, never exceed a max length, stray-data errors and
// request failures are told apart, and nothing traps.
import ANCS

struct Reader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    mutating func next() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }
    mutating func take(_ n: Int) -> UnsafeRawBufferPointer {
        let k = min(n, bytes.count - at)
        defer { at += k }
        return UnsafeRawBufferPointer(rebasing: bytes[at..<(at + k)])
    }
}

struct Expected {
    var tag: UInt32
    var uid: NotificationUID?
    var appID: [UInt8]
    var list: AttributeList
}

func makeAssembler(truncating: Bool) -> DataSourceAssembler {
    var c = DataSourceAssembler.Configuration()
    c.maxPending = 3
    c.appIdentifierCapacity = 16
    c.valueCapacity = 8 * 255
    c.unrequestedAttributeLimit = 64
    c.truncatesOverlongValues = truncating
    return DataSourceAssembler(configuration: c)
}

// libFuzzer calls the target from one thread.
nonisolated(unsafe) let strict = makeAssembler(truncating: false)
nonisolated(unsafe) let truncating = makeAssembler(truncating: true)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var r = Reader(bytes: UnsafeRawBufferPointer(start: data, count: size))
    var expected: [Expected] = []
    guard let first = r.next() else { return 0 }
    let lenient = first & 0x80 != 0
    let assembler = lenient ? truncating : strict
    assembler.reset()
    let requests = 1 + Int(first % 3)
    for n in 0..<requests {
        guard let kind = r.next(), let countByte = r.next() else { return 0 }
        var list = AttributeList()
        for _ in 0..<(1 + Int(countByte % 8)) {
            guard let id = r.next(), let max = r.next() else { return 0 }
            list.append(AttributeRequest(
                id: id % 10, maxLength: UInt16(max), sendsMaxLength: id & 0x80 != 0, isOptional: id & 0x40 != 0))
        }
        let tag = UInt32(n + 1)
        if kind & 1 == 0 {
            let uid = NotificationUID(UInt32(kind >> 1))
            try? assembler.expectNotificationAttributes(uid: uid, attributes: list, tag: tag)
            expected.append(Expected(tag: tag, uid: uid, appID: [], list: list))
        } else {
            let id = Array(r.take(Int(kind >> 1) % 6))
            let ok = id.withUnsafeBytes { b in
                (try? assembler.expectAppAttributes(appIdentifier: b, attributes: list, tag: tag)) != nil
            }
            precondition(ok)
            expected.append(Expected(tag: tag, uid: nil, appID: id, list: list))
        }
    }
    precondition(assembler.pendingCount == expected.count)

    func check(_ event: DataSourceEvent) {
        switch event {
        case .response(let response):
            let e = expected.removeFirst()
            precondition(response.tag == e.tag, "responses out of order")
            precondition(response.isComplete)
            precondition(response.uid == e.uid)
            precondition(Array(response.appIdentifier) == e.appID)
            precondition(response.requested == e.list)
            for i in 0..<e.list.count {
                guard let v = response.value(at: i) else {
                    precondition(e.list[i].isOptional, "missing value")
                    continue
                }
                precondition(v.count <= Int(e.list[i].maxLength))
                precondition(!response.exceededMaxLength(at: i) || (lenient && e.list[i].sendsMaxLength))
                precondition(!response.exceededMaxLength(at: i) || response.declaredLength(at: i)! > Int(e.list[i].maxLength))
                _ = ANCSDateTime(parsing: v)
                _ = MessageSize.parse(v)
            }
        case .failed(let tag, let error):
            precondition(!error.isStrayData)
            if lenient, case .attributeTooLong = error { preconditionFailure("a truncating assembler failed on length") }
            let e = expected.removeFirst()
            precondition(tag == e.tag, "failure out of order")
        case .discarded(let error):
            precondition(error.isStrayData)
        }
    }

    while let lengthByte = r.next() {
        if lengthByte & 0xC0 == 0xC0 {
            let awaiting = assembler.tagAwaitingOptionalAttributes
            precondition(awaiting == nil || awaiting == expected.first?.tag)
            let finished = assembler.finishWithoutOptionalAttributes(check)
            precondition(finished == (awaiting != nil))
            precondition(assembler.pendingCount == expected.count)
            continue
        }
        if lengthByte & 0x80 != 0 {
            if let front = expected.first {
                let found = assembler.cancel(tag: front.tag) { partial in
                    precondition(partial.tag == front.tag && !partial.hasEveryAttribute)
                }
                precondition(found)
                expected.removeFirst()
            }
            continue
        }
        let chunk = r.take(Int(lengthByte))
        assembler.feed(chunk, check)
        precondition(assembler.pendingCount == expected.count)
    }
    return 0
}
