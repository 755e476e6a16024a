// libFuzzer target: the whole AMS client state machine.
//
// The input is a program of operations: Entity Update and Remote Command
// notifications (raw bytes), outcomes of the client's writes and reads
// (success, an ATT error, or a value read back), Remote Commands sent,
// and the session ending and starting again. The checks are the client's
// invariants: at most one Entity Attribute fetch at a time, reads only
// after their write, bounded queues, texts within MediaText's capacity.
import AMS
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

final class Sink: AMSClientSink {
    var registrationsOutstanding = 0
    var attributeWritesOutstanding = 0
    var readsOutstanding = 0
    var commandsOutstanding = 0
    var accept = true
    func amsWriteEntityUpdate(_ c: UnsafeRawBufferPointer) -> Bool {
        precondition(registrationsOutstanding == 0 && c.count >= 2)
        if accept { registrationsOutstanding += 1 }
        return accept
    }
    func amsWriteEntityAttribute(_ c: UnsafeRawBufferPointer) -> Bool {
        precondition(attributeWritesOutstanding == 0 && readsOutstanding == 0, "one Entity Attribute fetch at a time")
        precondition(c.count == 2)
        if accept { attributeWritesOutstanding += 1 }
        return accept
    }
    func amsReadEntityAttribute(limit: Int) -> Bool {
        precondition(readsOutstanding == 0 && attributeWritesOutstanding == 0, "a read only after its write")
        if accept { readsOutstanding += 1 }
        return accept
    }
    func amsWriteRemoteCommand(_ c: UnsafeRawBufferPointer) -> Bool {
        precondition(c.count == 1)
        if accept { commandsOutstanding += 1 }
        return accept
    }
    func amsEvent(_ event: MediaEvent) {}
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var r = Reader(bytes: UnsafeRawBufferPointer(start: data, count: size))
    let sink = Sink()
    let client = AMSClient()
    client.sink = sink
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    client.sessionStarted(now: now)

    while let op = r.next() {
        now = now + .milliseconds(Int64(op & 0x0F) * 100)
        switch op >> 4 {
        case 0, 1, 2, 3:
            let n = Int(r.next() ?? 0) % 160
            client.entityUpdateReceived(r.take(n), now: now)
        case 4:
            let n = Int(r.next() ?? 0) % 20
            client.remoteCommandReceived(r.take(n), now: now)
        case 5:
            if sink.registrationsOutstanding > 0 {
                sink.registrationsOutstanding -= 1
                client.entityUpdateWritten(attErrorCode: op & 1 == 0 ? nil : 0xA1, now: now)
            }
        case 6:
            if sink.attributeWritesOutstanding > 0 {
                sink.attributeWritesOutstanding -= 1
                client.entityAttributeWritten(attErrorCode: op & 1 == 0 ? nil : 0xA2, now: now)
            }
        case 7, 8:
            if sink.readsOutstanding > 0 {
                sink.readsOutstanding -= 1
                let n = Int(r.next() ?? 0)
                client.entityAttributeRead(op & 1 == 0 ? r.take(n) : nil, now: now)
            }
        case 9:
            if let id = RemoteCommandID(rawValue: (r.next() ?? 0) % 16) { _ = client.sendRemoteCommand(id) }
        case 10:
            if sink.commandsOutstanding > 0 {
                sink.commandsOutstanding -= 1
                client.remoteCommandWritten(attErrorCode: op & 1 == 0 ? nil : 0xA0 + (op & 3), failed: op & 2 != 0, now: now)
            }
        case 11:
            sink.accept.toggle()
        case 12:
            client.sessionEnded()
            sink.registrationsOutstanding = 0
            sink.attributeWritesOutstanding = 0
            sink.readsOutstanding = 0
            sink.commandsOutstanding = 0
        case 13:
            if !client.isSessionActive { client.sessionStarted(now: now) }
        default:
            break
        }
        let m = client.state
        precondition(m.title.count <= MediaText.capacity && m.playerName.count <= MediaText.capacity)
        precondition(client.pendingAttributeReads <= 9)
        precondition(client.remoteCommandsInFlight <= 8)
        if let v = m.volumePercent { precondition(v >= 0 && v <= 100) }
        _ = m.elapsedMilliseconds(at: now)
    }
    client.sessionEnded()
    precondition(client.state == MediaState())
    return 0
}
