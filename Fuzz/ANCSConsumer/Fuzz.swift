// libFuzzer target: the whole Notification Consumer state machine.
//
// The input is a program of operations: Notification Source events,
// Data Source chunks (raw, or an answer to the last command the consumer
// wrote, cut into pieces, possibly without its optional attributes or with
// values longer than asked), Control Point write outcomes, time
// passing, UI requests and session changes. The checks are the consumer's
// invariants; the point is that no sequence of phone bytes traps it.
import ANCS
import HAL

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

final class Sink: ANCSConsumerSink {
    var lastCommand: [UInt8] = []
    var writesOutstanding = 0
    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) {
        precondition(writesOutstanding == 0, "a second write before the first one's outcome")
        precondition(!command.isEmpty)
        lastCommand = Array(command)
        writesOutstanding += 1
    }
    func ancsEvent(_ event: ANCSEvent) {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var r = Reader(bytes: UnsafeRawBufferPointer(start: data, count: size))
    var config = NotificationConsumer.Configuration()
    config.storeCapacity = 4
    config.queueCapacity = 3
    config.titleMaxLength = 12
    config.messageMaxLength = 20
    config.appIdentifierMaxLength = 16
    config.appNameCacheCapacity = 2
    config.fetchDate = true
    config.fetchSubtitle = true
    config.liveness = LivenessPolicy(probeAfterQuiet: .seconds(30), resubscribeAfterSilence: .seconds(120))
    // A fresh sink per run: the consumer holds it weakly, and a weak
    // reference's side table lives as long as its object (LeakSanitizer
    // cannot see through the tagged pointer to it).
    let sink = Sink()
    let consumer = NotificationConsumer(configuration: config, sink: sink)
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    consumer.sessionStarted(now: now)

    while let op = r.next() {
        switch op % 10 {
        case 0, 1:  // Notification Source: mostly well-formed, small UIDs
            guard let a = r.next(), let b = r.next(), let c = r.next() else { break }
            let ns: [UInt8] = [a % 4, b, c % 13, 1, a >> 5, 0, 0, 0]
            consumer.notificationSourceReceived(op == 1 ? Array(r.take(Int(a % 10))) : ns, now: now)
        case 2:  // raw Data Source bytes
            guard let n = r.next() else { break }
            consumer.dataSourceReceived(r.take(Int(n % 40)), now: now)
        case 3:  // a well-formed answer to the last command, in pieces
            guard let cut = r.next(), let fill = r.next() else { break }
            guard let command = try? ControlPointCommand(parsing: sink.lastCommand) else { break }
            var response: [UInt8] = []
            switch command {
            case .getNotificationAttributes(let uid, let attributes):
                response = DataSourceResponseEncoder.notificationAttributes(
                    uid: uid,
                    attributes.compactMap { a -> EncodedAttribute? in
                        // Like real iPhones, leave out the optional ones ...
                        if fill & 0x80 != 0 && NotificationAttributeID(rawValue: a.id).isOptional { return nil }
                        // ... or break the max length we sent.
                        let over = fill & 0x40 != 0 && a.sendsMaxLength ? 3 : 0
                        return EncodedAttribute(
                            id: a.id, value: Array(repeating: fill, count: Int(fill) % max(1, Int(a.maxLength) + 1) + over))
                    })
            case .getAppAttributes(let id, let attributes):
                response = DataSourceResponseEncoder.appAttributes(
                    appIdentifier: id, attributes.map { EncodedAttribute(id: $0.id, value: Array("Name".utf8)) })
            case .performNotificationAction:
                break
            }
            let step = 1 + Int(cut % 23)
            var i = 0
            while i < response.count {
                let j = min(response.count, i + step)
                consumer.dataSourceReceived(Array(response[i..<j]), now: now)
                i = j
            }
        case 4:
            if sink.writesOutstanding > 0 {
                sink.writesOutstanding -= 1
                consumer.controlPointWriteSucceeded(now: now)
            }
        case 5:
            guard let code = r.next() else { break }
            if sink.writesOutstanding > 0 {
                sink.writesOutstanding -= 1
                consumer.controlPointWriteFailed(attErrorCode: code, now: now)
            }
        case 6:  // time passes; the timer fires if due
            guard let t = r.next() else { break }
            now = now.advanced(by: .milliseconds(Int64(t) * 250))
            if let d = consumer.nextDeadline, d <= now { consumer.handleDeadline(now: now) }
        case 7:
            guard let u = r.next() else { break }
            try? consumer.performAction(u & 1 == 0 ? .positive : .negative, on: NotificationUID(UInt32(u >> 5)), now: now)
        case 8:
            guard let u = r.next() else { break }
            consumer.notificationShown(NotificationUID(UInt32(u >> 5)), now: now)
        default:
            guard let how = r.next() else { break }
            if how & 1 == 0 {
                let reason: SessionEndReason = how & 2 == 0 ? .disconnected : .resubscribing
                if reason == .disconnected { sink.writesOutstanding = 0 }
                consumer.sessionEnded(reason, now: now)
            } else {
                consumer.sessionStarted(now: now)
            }
        }
        precondition(consumer.notificationCount <= config.storeCapacity)
        consumer.forEachNotification { n in
            precondition(n.bytes(.title).count <= Int(config.titleMaxLength))
            precondition(n.bytes(.message).count <= Int(config.messageMaxLength))
            _ = n.appDisplayNameBytes
        }
        if let d = consumer.nextDeadline { precondition(d >= MonotonicInstant.zero) }
    }
    return 0
}
