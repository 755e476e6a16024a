import ANCS
import Benchmark
import HAL

// ANCS budgets: parsing and reassembly throughput, and 0 heap allocations per
// notification through the consumer in steady state (Notification Source in
// → Control Point bytes out → Data Source fragments in → attributes stored →
// events out). `mallocCountTotal` is per scaled iteration (.kilo: per 1,000
// notifications), so the figure to read is 0.

/// A sink that keeps the last Control Point write in a buffer allocated once
/// and only counts events: what a real app's glue costs at most.
final class CountingSink: ANCSConsumerSink {
    let command = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
    var commandLength = 0
    var events = 0
    var attributeEvents = 0
    deinit { command.deallocate() }
    func ancsWriteControlPoint(_ bytes: UnsafeRawBufferPointer) -> ControlPointWrite {
        command.copyMemory(from: bytes)
        commandLength = bytes.count
        return .sent
    }
    func ancsEvent(_ event: ANCSEvent) {
        events += 1
        if case .attributesReady = event { attributeEvents += 1 }
    }
}

/// A response as the phone sends it for an important call-like notification
/// (AppIdentifier, Title, both action labels, Message, MessageSize).
let callAttributes: [EncodedAttribute] = [
    EncodedAttribute(.appIdentifier, "com.apple.mobilephone"),
    EncodedAttribute(.title, "John Appleseed"),
    EncodedAttribute(.positiveActionLabel, "Answer"),
    EncodedAttribute(.negativeActionLabel, "Decline"),
    EncodedAttribute(.message, "Incoming call from mobile, tap to answer or decline"),
    EncodedAttribute(.messageSize, "51"),
]

/// All eight attributes, message at 256 bytes: a large response.
let mailAttributes: [EncodedAttribute] = [
    EncodedAttribute(.appIdentifier, "com.apple.mobilemail"), EncodedAttribute(.title, "Alice Example"),
    EncodedAttribute(.subtitle, "Re: Quarterly report"),
    EncodedAttribute(.message, String(repeating: "Numbers look fine. ", count: 14).prefix(256).description),
    EncodedAttribute(.messageSize, "4711"), EncodedAttribute(.date, "20231130T090000"),
    EncodedAttribute(.positiveActionLabel, "Archive"), EncodedAttribute(.negativeActionLabel, "Delete"),
]

/// Issue 16 item 6: a Get Notification Attributes response of exactly 111
/// bytes, laid out as the ANCS specification does: CommandID 0, the
/// NotificationUID (u32 LE), then per attribute its ID, a u16 LE length and
/// the value. 5 + 7 x 3 + 85 value bytes = 111: six Data Source notifications
/// at the default ATT MTU of 23 (20-byte values: 5 x 20 + 11).
enum SMSResponse {
    static let uid = NotificationUID(0x0102_0304)
    /// AppIdentifier, Title, Subtitle, Message, MessageSize, Date,
    /// PositiveActionLabel, in request order.
    static let attributes: [(NotificationAttributeID, String)] = [
        (.appIdentifier, "com.apple.MobileSMS"), (.title, "Alice Example"), (.subtitle, "Lunch"),
        (.message, "Running late, order for me"), (.messageSize, "26"), (.date, "20240314T091500"),
        (.positiveActionLabel, "Reply"),
    ]
    static let bytes: [UInt8] = {
        var out: [UInt8] = [CommandID.getNotificationAttributes.rawValue]
        withUnsafeBytes(of: uid.rawValue.littleEndian) { out += $0 }
        for (id, text) in attributes {
            let value = Array(text.utf8)
            out += [id.rawValue, UInt8(value.count & 0xFF), UInt8(value.count >> 8)]
            out += value
        }
        precondition(out.count == 111, "the issue's response is 111 bytes, not \(out.count)")
        precondition(out == DataSourceResponseEncoder.notificationAttributes(
            uid: uid, attributes.map { EncodedAttribute($0.0, $0.1) }))
        return out
    }()
    /// What NotificationConsumer asks for, at its default max lengths.
    static var list: AttributeList {
        let c = NotificationConsumer.Configuration()
        var list = AttributeList()
        list.append(.notification(.appIdentifier, maxLength: c.appIdentifierMaxLength))
        list.append(.notification(.title, maxLength: c.titleMaxLength))
        list.append(.notification(.subtitle, maxLength: c.subtitleMaxLength))
        list.append(.notification(.message, maxLength: c.messageMaxLength))
        list.append(.notification(.messageSize, maxLength: 10))
        list.append(.notification(.date, maxLength: 32))
        list.append(.notification(.positiveActionLabel, maxLength: c.actionLabelMaxLength))
        return list
    }
    /// The assembler as NotificationConsumer configures it.
    static var assemblerConfiguration: DataSourceAssembler.Configuration {
        let c = NotificationConsumer.Configuration()
        var ac = DataSourceAssembler.Configuration()
        ac.maxPending = 2
        ac.appIdentifierCapacity = Int(c.appIdentifierMaxLength)
        ac.valueCapacity = Int(c.appIdentifierMaxLength) + Int(c.titleMaxLength) + Int(c.subtitleMaxLength)
            + Int(c.messageMaxLength) + 10 + 32 + 2 * Int(c.actionLabelMaxLength)
        ac.truncatesOverlongValues = true
        return ac
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput]

    Benchmark(
        "ANCS: Notification Source parse",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let events: [[UInt8]] = (0..<16).map { i in
            NotificationSourceEvent(
                eventID: EventID(rawValue: UInt8(i % 3)), flags: EventFlags(rawValue: UInt8(i)),
                category: CategoryID(rawValue: UInt8(i % 12)), categoryCount: 1, uid: NotificationUID(UInt32(i))
            ).bytes
        }
        var sum: UInt32 = 0
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            events[i & 15].withUnsafeBytes { raw in
                if let e = try? NotificationSourceEvent(parsing: raw) { sum &+= e.uid.rawValue }
            }
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    Benchmark(
        "ANCS: Data Source reassembly (460-byte response in 20-byte notifications)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let assembler = DataSourceAssembler()
        let list = AttributeList([
            .notification(.appIdentifier, maxLength: 160), .notification(.title, maxLength: 64),
            .notification(.subtitle, maxLength: 64), .notification(.message, maxLength: 256),
            .notification(.messageSize, maxLength: 10), .notification(.date, maxLength: 32),
            .notification(.positiveActionLabel, maxLength: 32), .notification(.negativeActionLabel, maxLength: 32),
        ])
        let response = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(7), mailAttributes)
        var completed = 0
        var bytes = 0
        func one() {
            try? assembler.expectNotificationAttributes(uid: NotificationUID(7), attributes: list, tag: 1)
            response.withUnsafeBytes { raw in
                var i = 0
                while i < raw.count {
                    let j = min(raw.count, i + 20)
                    assembler.feed(UnsafeRawBufferPointer(rebasing: raw[i..<j])) { event in
                        if case .response(let r) = event { completed += 1; bytes += r.value(at: 3)?.count ?? 0 }
                    }
                    i = j
                }
            }
        }
        for _ in 0..<100 { one() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { one() }
        benchmark.stopMeasurement()
        precondition(completed > 100 && bytes == completed * 256)
        blackHole(response.count)
    }

    Benchmark(
        "ANCS: 111-byte Get Notification Attributes response in 6 fragments, reassembled + decoded",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let assembler = DataSourceAssembler(configuration: SMSResponse.assemblerConfiguration)
        let list = SMSResponse.list
        let response = SMSResponse.bytes
        // Counters in a class: captured `var`s would add the closure's own
        // exclusivity checks to what is measured.
        final class Tally { var completed = 0, valueBytes = 0, decoded = 0 }
        let tally = Tally()
        func one() {
            try? assembler.expectNotificationAttributes(uid: SMSResponse.uid, attributes: list, tag: 1)
            response.withUnsafeBytes { raw in
                var i = 0
                while i < raw.count {
                    let j = min(raw.count, i + 20)
                    assembler.feed(UnsafeRawBufferPointer(rebasing: raw[i..<j])) { event in
                        guard case .response(let r) = event else { return }
                        tally.completed += 1
                        // Value views of all seven, MessageSize and Date decoded.
                        var k = 0
                        while k < r.requested.count {
                            tally.valueBytes += r.value(at: k)?.count ?? 0
                            k += 1
                        }
                        if let v = r.value(at: 4), let size = MessageSize.parse(v) { tally.decoded += size }
                        if let v = r.value(at: 5), let date = ANCSDate.parse(v) { tally.decoded += date.minute }
                    }
                    i = j
                }
            }
        }
        for _ in 0..<100 { one() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { one() }
        benchmark.stopMeasurement()
        precondition(tally.completed > 100 && tally.valueBytes == tally.completed * 85
            && tally.decoded == tally.completed * (26 + 15))
        blackHole(response.count)
    }

    Benchmark(
        "ANCS: notification through the consumer (added, fetch, 4 Data Source fragments, stored, removed)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let sink = CountingSink()
        let consumer = NotificationConsumer(sink: sink)
        var now = MonotonicInstant(nanoseconds: 1_000_000_000)
        consumer.sessionStarted(now: now)
        // Prebuilt phone bytes; the UID is patched in place per notification.
        var response = DataSourceResponseEncoder.notificationAttributes(uid: NotificationUID(0), callAttributes)
        var ns: [UInt8] = [0, 0x1A, 1, 1, 0, 0, 0, 0]  // Added, Important + both actions, IncomingCall
        var uid: UInt32 = 0

        func notification() {
            uid &+= 1
            now = now.advanced(by: .milliseconds(1))
            ns[0] = 0
            withUnsafeBytes(of: uid.littleEndian) { u in
                for k in 0..<4 { ns[4 + k] = u[k]; response[1 + k] = u[k] }
            }
            ns.withUnsafeBytes { consumer.notificationSourceReceived($0, now: now) }
            // The glue writes sink.command to the Control Point; the phone acks.
            precondition(sink.commandLength > 0 && sink.command[0] == 0)
            sink.commandLength = 0
            consumer.controlPointWriteSucceeded(now: now)
            response.withUnsafeBytes { raw in
                var i = 0
                while i < raw.count {
                    let j = min(raw.count, i + 32)
                    consumer.dataSourceReceived(UnsafeRawBufferPointer(rebasing: raw[i..<j]), now: now)
                    i = j
                }
            }
            ns[0] = 2  // Removed
            ns.withUnsafeBytes { consumer.notificationSourceReceived($0, now: now) }
        }

        // Warm up: the first notification also fetches the app's name, once
        // per session; later ones find it in the cache.
        notification()
        precondition(sink.commandLength > 0 && sink.command[0] == 1, "Get App Attributes expected")
        sink.commandLength = 0
        consumer.controlPointWriteSucceeded(now: now)
        DataSourceResponseEncoder.appAttributes(appIdentifier: "com.apple.mobilephone", [EncodedAttribute(.displayName, "Phone")])
            .withUnsafeBytes { consumer.dataSourceReceived($0, now: now) }
        for _ in 0..<100 { notification() }
        let before = sink.attributeEvents
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { notification() }
        benchmark.stopMeasurement()
        precondition(sink.attributeEvents - before == benchmark.scaledIterations.count, "every notification stored")
        blackHole(sink.events)
    }
}
