import AMS
import ATTCodec
import Benchmark
import GATT
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import PhoneServices

// AMS budgets: 0 heap allocations per media update and per Remote Command
// in steady state. Both are measured through the real PhoneSession over a
// SEQPACKET socket pair and EpollLoop: an Entity Update notification (the
// track title) on the wire → bearer → MediaSession → AMSClient → MediaState
// → `.media(.changed)`; and `sendRemoteCommand` → Write Request on the wire
// → Write Response back → outcome. The phone's side is raw PDUs from
// buffers made before the measurement. `mallocCountTotal` is per scaled
// iteration (.kilo: per 1,000), so the figure to read is 0.

/// The phone: a GATT server with AMS on its own loop for discovery and the
/// subscriptions; afterwards the benchmark talks raw PDUs on its socket.
final class AMSBench {
    let watchLoop: EpollLoop
    let phoneLoop: EpollLoop
    let phoneChannel: SeqPacketChannel
    let phoneBearer: ATTBearer
    let server: GATTServer
    let session: PhoneSession
    var entityUpdateHandle: UInt16 = 0
    var changes = 0
    var failures = 0
    let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 600, alignment: 8)
    var titlePDUs: [[UInt8]] = []
    let writeResponse: [UInt8] = [0x13]

    init() throws {
        watchLoop = try EpollLoop()
        phoneLoop = try EpollLoop()
        let (w, p) = try SeqPacketChannel.pair()
        phoneChannel = p
        phoneBearer = ATTBearer(channel: p, loop: phoneLoop)
        server = GATTServer()
        _ = try server.publishGenericAttributeService()
        let ams = try server.publish(GATTServiceDefinition(uuid: .amsService, characteristics: [
            GATTCharacteristicDefinition(uuid: .amsRemoteCommand, properties: [.write, .notify]),
            GATTCharacteristicDefinition(uuid: .amsEntityUpdate, properties: [.write, .notify]),
            GATTCharacteristicDefinition(uuid: .amsEntityAttribute, properties: [.read, .write]),
        ]))
        entityUpdateHandle = ams.valueHandles[1]
        server.attach(to: phoneBearer)
        session = PhoneSession(channel: w, loop: watchLoop, security: nil)
        var available = false
        session.eventHandler = { [unowned self] e in
            switch e {
            case .media(.available): available = true
            case .media(.changed): self.changes += 1
            case .media(.commandFailed): self.failures += 1
            default: break
            }
        }
        try phoneBearer.start()
        try session.start()
        var spins = 0
        while !available {
            _ = try watchLoop.runOnce(timeout: .milliseconds(5))
            _ = try phoneLoop.runOnce(timeout: .milliseconds(5))
            spins += 1
            precondition(spins < 10_000, "AMS never became available")
        }
        _ = [UInt8]([0, 1, 2, 3, 4, 5, 6]).withUnsafeBytes { server.notify(valueHandle: ams.valueHandles[0], value: $0) }
        while !session.media.supportedCommands.contains(.togglePlayPause) {
            _ = try watchLoop.runOnce(timeout: .milliseconds(5))
        }
        // Let the rest of the set-up traffic (Service Changed subscription ...)
        // finish while the phone's bearer still answers.
        for _ in 0..<40 {
            _ = try watchLoop.runOnce(timeout: .milliseconds(5))
            _ = try phoneLoop.runOnce(timeout: .milliseconds(5))
        }
        // Two titles, alternately, so each update is a real change.
        let h = entityUpdateHandle
        for title in ["Hey Jude", "One More Time"] {
            titlePDUs.append([0x1B, UInt8(h & 0xFF), UInt8(h >> 8), 0x02, 0x02, 0x00] + Array(title.utf8))
        }
    }

    deinit { receiveBuffer.deallocate() }

    /// One Entity Update (the title) in, applied to MediaState.
    @inline(__always)
    func titleUpdate(_ i: Int) {
        let before = changes
        _ = titlePDUs[i & 1].withUnsafeBytes { try? phoneChannel.send($0) }
        while changes == before { _ = try? watchLoop.runOnce(timeout: .milliseconds(100)) }
    }

    /// One Remote Command out and its Write Response back.
    @inline(__always)
    func remoteCommand() {
        precondition(session.sendRemoteCommand(.togglePlayPause))
        // The bearer sends the Write Request at once; the loop only runs if it has not.
        while true {
            if case .packet(let n)? = try? phoneChannel.receive(into: receiveBuffer), n == 4, receiveBuffer[0] == 0x12 {
                break
            }
            _ = try? watchLoop.runOnce(timeout: .milliseconds(100))
        }
        _ = writeResponse.withUnsafeBytes { try? phoneChannel.send($0) }
        while session.mediaSession.client.remoteCommandsInFlight > 0 {
            _ = try? watchLoop.runOnce(timeout: .milliseconds(100))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput]

    Benchmark(
        "AMS: Entity Update (track title) through PhoneSession into MediaState",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let bench = try AMSBench()
        for i in 0..<16 { bench.titleUpdate(i) }  // warm-up
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { bench.titleUpdate(i) }
        benchmark.stopMeasurement()
        precondition(bench.session.media.hasPlayer)
        blackHole(bench.changes)
    }

    Benchmark(
        "AMS: Remote Command encoded, written and answered",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let bench = try AMSBench()
        for _ in 0..<16 { bench.remoteCommand() }  // warm-up
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { bench.remoteCommand() }
        benchmark.stopMeasurement()
        precondition(bench.failures == 0)
    }

    Benchmark(
        "AMS: Entity Update parsed and applied by AMSClient (no I/O)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        final class Sink: AMSClientSink {
            var events = 0
            func amsWriteEntityUpdate(_ c: UnsafeRawBufferPointer) -> Bool { true }
            func amsWriteEntityAttribute(_ c: UnsafeRawBufferPointer) -> Bool { true }
            func amsReadEntityAttribute(limit: Int) -> Bool { true }
            func amsWriteRemoteCommand(_ c: UnsafeRawBufferPointer) -> Bool { true }
            func amsEvent(_ event: MediaEvent) { events += 1 }
        }
        let sink = Sink()
        let client = AMSClient()
        client.sink = sink
        let now = MonotonicInstant(nanoseconds: 1_000_000_000)
        client.sessionStarted(now: now)
        client.entityUpdateWritten(attErrorCode: nil, now: now)
        client.entityUpdateWritten(attErrorCode: nil, now: now)
        let updates: [[UInt8]] = [
            [2, 2, 0] + Array("Hey Jude".utf8), [0, 1, 0] + Array("1,1.0,32.456".utf8),
            [2, 3, 0] + Array("431.333".utf8), [0, 2, 0] + Array("0.5625".utf8),
        ]
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            updates[i & 3].withUnsafeBytes { client.entityUpdateReceived($0, now: now) }
        }
        benchmark.stopMeasurement()
        blackHole(sink.events)
    }
}
