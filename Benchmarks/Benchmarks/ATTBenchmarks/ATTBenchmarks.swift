import ANCS
import ATTCodec
import Benchmark
import GATT
import HAL
import LinuxHAL
import LinuxLoop
import Loop

// ATT budget: one ANCS notification through the whole client path, over a
// real SEQPACKET socket pair and the real event loop (LinuxLoop's
// `EpollLoop`, the benchmark's name keeps "EventLoop") — Notification Source
// notification in → ATT decode → GATT routing by handle → ANCS consumer →
// Control Point Write Request out → Write Response and Data Source
// notifications in → attributes delivered → Notification Source "removed"
// in. The ATT bearer and GATT client are GATT's, on ATTCodec's PDUs; the
// watch side is wired exactly as `PhoneSession` (PhoneServices) wires it
// (stored closures, one loop timer re-armed at the consumer's deadline).
//
// The phone is played by an allocation-free raw responder in the same
// process, so `mallocCountTotal` counts both ends: the figure to read is 0
// (per scaled iteration: .kilo means per 1,000 notifications).

/// The phone's end: answers Control Point commands from preallocated tables.
final class RawPhone {
    let channel: SeqPacketChannel
    let mtu: Int
    let rx = UnsafeMutableRawBufferPointer.allocate(byteCount: 600, alignment: 8)
    let tx = UnsafeMutableRawBufferPointer.allocate(byteCount: 600, alignment: 8)
    let response = UnsafeMutableRawBufferPointer.allocate(byteCount: 2048, alignment: 8)
    /// A long write's parts, put together (an attribute value is at most 512 bytes).
    let prepared = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    var preparedLength = 0
    /// Attribute values by NotificationAttributeID.
    let values: [[UInt8]] = [
        Array("com.apple.MobileSMS".utf8), Array("Anna Appleseed".utf8), Array("".utf8),
        Array("Lunch at 12? The usual place, I booked a table by the window.".utf8), Array("61".utf8),
        Array("20240501T120000".utf8), Array("".utf8), Array("Clear".utf8),
    ]
    let displayName = Array("Messages".utf8)
    var notificationSourceHandle: UInt16 = 0
    var dataSourceHandle: UInt16 = 0
    var commands = 0

    init(channel: SeqPacketChannel, mtu: Int) {
        self.channel = channel
        self.mtu = mtu
    }

    deinit {
        rx.deallocate()
        tx.deallocate()
        response.deallocate()
        prepared.deallocate()
    }

    func send(_ count: Int) {
        _ = try? channel.send(UnsafeRawBufferPointer(rebasing: tx[..<count]))
    }

    func sendNotificationSource(event: UInt8, uid: UInt32) {
        tx[0] = 0x1B
        tx[1] = UInt8(notificationSourceHandle & 0xFF)
        tx[2] = UInt8(notificationSourceHandle >> 8)
        let ns: (UInt8, UInt8, UInt8, UInt8) = (event, 0, 4, 1)  // social, count 1
        tx[3] = ns.0
        tx[4] = ns.1
        tx[5] = ns.2
        tx[6] = ns.3
        tx[7] = UInt8(uid & 0xFF)
        tx[8] = UInt8((uid >> 8) & 0xFF)
        tx[9] = UInt8((uid >> 16) & 0xFF)
        tx[10] = UInt8(uid >> 24)
        send(11)
    }

    /// Reads what the watch sent; answers Write Requests to the Control Point,
    /// and long writes to it (Prepare Write Requests, then Execute Write: the
    /// watch's GATT client sends a command longer than ATT_MTU-3 that way, as
    /// the Get App Attributes for com.apple.MobileSMS at MTU 23).
    /// Returns false when nothing was waiting.
    func serviceOne() -> Bool {
        guard case .packet(let n)? = try? channel.receive(into: rx), n >= 1 else { return false }
        switch rx[0] {
        case 0x12 where n >= 3:  // Write Request: the only PDU of the steady state
            tx[0] = 0x13
            send(1)
            answer(UnsafeRawBufferPointer(rebasing: rx[3..<n]))
        case 0x16 where n >= 5:  // Prepare Write Request: handle, offset, part
            let offset = Int(rx[3]) | Int(rx[4]) << 8
            let part = n - 5
            if offset + part <= prepared.count {
                (prepared.baseAddress! + offset).copyMemory(from: rx.baseAddress! + 5, byteCount: part)
                preparedLength = max(preparedLength, offset + part)
            }
            tx[0] = 0x17  // Prepare Write Response echoes handle, offset and part
            (tx.baseAddress! + 1).copyMemory(from: rx.baseAddress! + 1, byteCount: n - 1)
            send(n)
        case 0x18 where n >= 2:  // Execute Write Request: 1 writes, 0 cancels
            tx[0] = 0x19
            send(1)
            let length = preparedLength
            preparedLength = 0
            if rx[1] == 1 && length > 0 { answer(UnsafeRawBufferPointer(rebasing: prepared[..<length])) }
        default:
            break
        }
        return true
    }

    /// Answers a Control Point command: the attributes in Data Source notifications.
    func answer(_ command: UnsafeRawBufferPointer) {
        guard !command.isEmpty else { return }
        commands += 1
        var length = 0
        func put(_ b: UInt8) {
            response[length] = b
            length += 1
        }
        if command[0] == 0 {
            for i in 0..<5 { put(command[i]) }
            var i = 5
            while i < command.count {
                let id = command[i]
                i += 1
                var max = Int.max
                if id >= 1 && id <= 3 {
                    max = Int(command[i]) | Int(command[i + 1]) << 8
                    i += 2
                }
                let v = values[Int(id)]
                let len = min(v.count, max)
                put(id)
                put(UInt8(len & 0xFF))
                put(UInt8(len >> 8))
                for k in 0..<len { put(v[k]) }
            }
        } else if command[0] == 1 {
            var i = 0
            while command[i] != 0 || i == 0 {
                put(command[i])
                i += 1
            }
            put(0)
            put(0)
            put(UInt8(displayName.count))
            put(0)
            for b in displayName { put(b) }
        } else {
            return
        }
        var offset = 0
        while offset < length {
            let chunk = min(mtu - 3, length - offset)
            tx[0] = 0x1B
            tx[1] = UInt8(dataSourceHandle & 0xFF)
            tx[2] = UInt8(dataSourceHandle >> 8)
            (tx.baseAddress! + 3).copyMemory(from: response.baseAddress! + offset, byteCount: chunk)
            send(3 + chunk)
            offset += chunk
        }
    }
}

/// The watch's end, wired like PhoneSession: through the `EventLoop`
/// protocol, as the layers above the loop see it.
final class WatchSide: ANCSConsumerSink {
    /// The loop the benchmark drives (`runOnce`).
    let runner: EpollLoop
    let loop: any EventLoop
    let bearer: ATTBearer
    let client: GATTClient
    let consumer: NotificationConsumer
    var controlPointHandle: UInt16 = 0x35
    var timer: TimerID!
    var completion: ATTResponseHandler!
    var ready = 0

    init(channel: SeqPacketChannel, loop: EpollLoop) throws {
        runner = loop
        self.loop = loop
        bearer = ATTBearer(channel: channel, loop: loop)
        client = GATTClient(bearer: bearer, watching: [.ancsService])
        consumer = NotificationConsumer()
        consumer.sink = self
        timer = loop.makeTimer { [unowned self] in
            self.consumer.handleDeadline(now: self.loop.now)
            self.rearm()
        }
        completion = { [unowned self] outcome in
            switch outcome {
            case .response: self.consumer.controlPointWriteSucceeded(now: self.loop.now)
            case .error(let e): self.consumer.controlPointWriteFailed(attErrorCode: e.error.rawValue, now: self.loop.now)
            case .failed: self.consumer.controlPointWriteFailed(attErrorCode: 0x0E, now: self.loop.now)
            }
            self.rearm()
        }
        client.setNotificationHandler(valueHandle: 0x32) { [unowned self] v in
            self.consumer.notificationSourceReceived(v, now: self.loop.now)
            self.rearm()
        }
        client.setNotificationHandler(valueHandle: 0x38) { [unowned self] v in
            self.consumer.dataSourceReceived(v, now: self.loop.now)
            self.rearm()
        }
        try bearer.start()
        consumer.sessionStarted(now: loop.now)
    }

    func rearm() {
        if let d = consumer.nextDeadline { loop.arm(timer, at: d) } else { loop.disarm(timer) }
    }

    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        do {
            try client.write(handle: controlPointHandle, value: command, then: completion)
            return .sent
        } catch {
            return .notSent(attErrorCode: 0x0E)
        }
    }

    func ancsEvent(_ event: ANCSEvent) {
        if case .attributesReady = event { ready += 1 }
    }
}

/// One notification: added, fetched (Control Point + Data Source), removed.
@inline(__always)
func oneNotification(_ uid: UInt32, phone: RawPhone, watch: WatchSide) {
    let before = watch.ready
    phone.sendNotificationSource(event: 0, uid: uid)
    var spins = 0
    while watch.ready == before {
        _ = try? watch.runner.runOnce(timeout: .milliseconds(100))
        while phone.serviceOne() {}
        spins += 1
        precondition(spins < 10_000, "the notification never completed")
    }
    phone.sendNotificationSource(event: 2, uid: uid)
    while watch.consumer.notificationCount > 0 {
        _ = try? watch.runner.runOnce(timeout: .milliseconds(100))
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput]

    for mtu in [185, 23] {
        Benchmark(
            "ATT: one ANCS notification through the client path (MTU \(mtu), SEQPACKET + EventLoop)",
            configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(5))
        ) { benchmark in
            let loop = try EpollLoop()
            let (w, p) = try SeqPacketChannel.pair()
            let phone = RawPhone(channel: p, mtu: mtu)
            phone.notificationSourceHandle = 0x32
            phone.dataSourceHandle = 0x38
            let watch = try WatchSide(channel: w, loop: loop)
            // MTU exchange, then warm up: the app's display name is fetched and cached once per session.
            try watch.bearer.exchangeMTU()
            do {
                var buf = [UInt8](repeating: 0, count: 8)
                while true {
                    if case .packet = try buf.withUnsafeMutableBytes({ try p.receive(into: $0) }) { break }
                }
                buf = [0x03, UInt8(mtu & 0xFF), UInt8(mtu >> 8)]
                _ = try buf.withUnsafeBytes { try p.send($0) }
                while watch.bearer.mtu != mtu { try loop.runOnce(timeout: .milliseconds(100)) }
            }
            for uid in UInt32(1)...40 { oneNotification(uid, phone: phone, watch: watch) }
            var uid: UInt32 = 1000
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                uid &+= 1
                oneNotification(uid, phone: phone, watch: watch)
            }
            benchmark.stopMeasurement()
            blackHole(phone.commands)
            precondition(watch.bearer.statistics.malformedReceived == 0)
        }
    }

    Benchmark(
        "ATT: decode + route one Handle Value Notification (no socket)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let loop = try EpollLoop()
        let (w, _) = try SeqPacketChannel.pair()
        let bearer = ATTBearer(channel: w, loop: loop)
        let client = GATTClient(bearer: bearer, watching: [.ancsService])
        var sum = 0
        client.setNotificationHandler(valueHandle: 0x32) { v in sum &+= Int(v[7]) }
        let pdu: [UInt8] = [0x1B, 0x32, 0x00, 0x00, 0x00, 0x04, 0x01, 0x2A, 0x00, 0x00, 0x00]
        benchmark.startMeasurement()
        pdu.withUnsafeBytes { raw in
            for _ in benchmark.scaledIterations { bearer.process(raw) }
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
