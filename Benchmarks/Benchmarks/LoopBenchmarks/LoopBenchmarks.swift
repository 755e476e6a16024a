import Benchmark
import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Loop

// The run loop's budget: dispatching a descriptor event or a timer expiry
// allocates nothing once warmed up. Measured on `EpollLoop` (LinuxLoop), the
// loop every WristCore process runs; its timer heap is Loop's `TimerQueue`.
// The names keep their "RunLoop:" prefix (the module's old name) so figures
// compare with earlier runs. `mallocCountTotal` is per iteration
// (scaled: per 1,000 events with .kilo), so the figure to read is 0.

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .syscalls, .throughput]

    Benchmark(
        "RunLoop: fd event dispatch (write 1 byte, epoll, handler reads it)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let loop = try EpollLoop()
        let pair = try SeqPacketPair()
        let reader = pair.second.rawValue
        let writer = pair.first.rawValue
        var byte: UInt8 = 1
        var received = 0
        try loop.addSource(fd: reader, events: .readable) { _ in
            var sink: UInt8 = 0
            received += Glibc.read(reader, &sink, 1)
        }
        // Warm up: let every table reach its steady size.
        for _ in 0..<100 { _ = Glibc.write(writer, &byte, 1); try loop.runOnce(timeout: .zero) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            _ = Glibc.write(writer, &byte, 1)
            try loop.runOnce(timeout: .zero)
        }
        benchmark.stopMeasurement()
        blackHole(received)
    }

    Benchmark(
        "RunLoop: timer expiry through the timerfd (arm, epoll, fire)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let loop = try EpollLoop()
        var fired = 0
        let timer = loop.makeTimer { fired += 1 }
        // Many other armed timers, so the heap is realistic.
        for _ in 0..<64 { loop.arm(loop.makeTimer({}), after: .seconds(3600)) }
        for _ in 0..<100 { loop.arm(timer, after: .zero); try loop.runOnce(timeout: nil) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            loop.arm(timer, after: .zero)
            try loop.runOnce(timeout: nil)
        }
        benchmark.stopMeasurement()
        blackHole(fired)
    }

    Benchmark(
        "RunLoop: repeating timer expiry on the test clock (heap only)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))
    ) { benchmark in
        let loop = try EpollLoop(clock: .manual(ManualClock()))
        var fired = 0
        let timer = loop.makeTimer { fired += 1 }
        for i in 0..<1000 { loop.arm(loop.makeTimer({}), after: .milliseconds(Int64(i) + 7), repeating: .seconds(1)) }
        loop.arm(timer, after: .milliseconds(1), repeating: .milliseconds(1))
        loop.advanceClock(by: .seconds(2))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            loop.advanceClock(by: .milliseconds(1))
        }
        benchmark.stopMeasurement()
        blackHole(fired)
    }
}
