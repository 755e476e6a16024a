import ANCS
import Benchmark
import Display
import Graphics
import HAL
import LinuxHAL
import Screens
import SimBoard

// Issue 16 items 2 and 7: the bus cost of the daemon's own screens, drawn by
// the real ScreenRenderer (not a face of the benchmark's own) and flushed by
// OLEDDriver to the emulated SSD1306 128x64 of the simulated board:
//
// - the idle clock's minute tick (what the daemon sends every minute with
//   the display on);
// - the status bar's minute tick on the list (and the list's ages);
// - a vertical burn-in step on the idle clock (the start line alone);
// - a full frame (one transaction per window: 1,025 bytes when the
//   controller's window is already the whole panel).
//
// One rig per benchmark lives across samples, so each sample of a tick
// benchmark is the next minute of the day: the percentiles of "bus bytes"
// are over minutes (p100 = the worst tick, an hour change), and
// "bus bytes, day average" is the mean over the rig's warm-up day.
//
// Metrics per operation: "bus bytes" (after the address byte),
// "bus transactions", "wire us @400kHz" (9 bit times a byte, address bytes
// included, plus a start and a stop per transaction). Mallocs: 0 expected.

let daemonBusBytes = BenchmarkMetric.custom("bus bytes", polarity: .prefersSmaller, useScalingFactor: false)
let daemonTransactions = BenchmarkMetric.custom("bus transactions", polarity: .prefersSmaller, useScalingFactor: false)
let daemonWire = BenchmarkMetric.custom("wire us @400kHz", polarity: .prefersSmaller, useScalingFactor: false)
let daemonDayAverage = BenchmarkMetric.custom("bus bytes, day average", polarity: .prefersSmaller, useScalingFactor: false)

/// The daemon's renderer and driver on the simulated board's panel.
final class DaemonScreens {
    let bus = EmulatedI2CDisplay(panel: .ssd1306_128x64)
    let driver: OLEDDriver
    let fb = Framebuffer(width: 128, height: 64)
    let renderer: ScreenRenderer
    let store = NotificationConsumer()
    var minuteOfDay = 9 * 60

    init() throws {
        driver = OLEDDriver(spec: .ssd1306_128x64, transport: bus)
        let loader = FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent)
        renderer = ScreenRenderer(width: 128, height: 64, fonts: try ScreenFonts.standard(loader: loader))
        try driver.initialize()
    }

    func status() -> StatusInfo {
        StatusInfo(time: CivilTime(year: 2024, month: 3, day: 14, hour: minuteOfDay / 60, minute: minuteOfDay % 60),
                   link: .encrypted, unread: 0)
    }

    /// One minute later, drawn and flushed.
    func tick(_ screen: Screen) throws {
        minuteOfDay = (minuteOfDay + 1) % (24 * 60)
        renderer.render(screen, status: status(), notifications: store, into: fb)
        try driver.flush(fb)
    }

    func record(_ benchmark: Benchmark, since before: FlushStats, operations: Int) {
        let n = max(1, operations)
        let t = driver.totals
        var d = FlushStats()
        d.busBytes = t.busBytes - before.busBytes
        d.transactions = t.transactions - before.transactions
        benchmark.measurement(daemonBusBytes, d.busBytes / n)
        benchmark.measurement(daemonTransactions, d.transactions / n)
        benchmark.measurement(daemonWire, d.wireMicroseconds() / n)
    }
}

let daemonScreenBenchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput, daemonBusBytes, daemonTransactions, daemonWire]
    let config = Benchmark.Configuration(metrics: metrics, scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 20_000)
    var tickConfig = config
    tickConfig.metrics.append(daemonDayAverage)

    for (name, screen) in [("idle clock", Screen.idleClock), ("status bar (list)", Screen.list(selected: 0))] {
        var rig: DaemonScreens?
        var dayAverage = 0
        Benchmark("Display: daemon \(name) minute tick, ScreenRenderer + flush", configuration: tickConfig) { benchmark in
            if rig == nil {
                let d = try DaemonScreens()
                try d.tick(screen)
                let start = d.driver.totals.busBytes
                for _ in 0..<1440 { try d.tick(screen) }   // warm up: a whole day
                dayAverage = (d.driver.totals.busBytes - start) / 1440
                rig = d
            }
            let d = rig!
            let before = d.driver.totals
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try d.tick(screen) }
            benchmark.stopMeasurement()
            d.record(benchmark, since: before, operations: benchmark.scaledIterations.count)
            benchmark.measurement(daemonDayAverage, dayAverage)
        }
    }

    var shiftRig: DaemonScreens?
    var y = 0
    Benchmark("Display: daemon idle clock, vertical burn-in step (start line)", configuration: config) { benchmark in
        if shiftRig == nil {
            let d = try DaemonScreens()
            try d.tick(.idleClock)
            shiftRig = d
        }
        let d = shiftRig!
        let before = d.driver.totals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            y ^= 1
            d.driver.setShift(PanelShift(x: 0, y: y))
            try d.driver.flush(d.fb)
        }
        benchmark.stopMeasurement()
        d.record(benchmark, since: before, operations: benchmark.scaledIterations.count)
    }

    var frameRig: DaemonScreens?
    Benchmark("Display: daemon full frame (one transaction per window)", configuration: config) { benchmark in
        if frameRig == nil {
            let d = try DaemonScreens()
            try d.tick(.idleClock)
            try d.driver.flush(d.fb, full: true)
            frameRig = d
        }
        let d = frameRig!
        let before = d.driver.totals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try d.driver.flush(d.fb, full: true) }
        benchmark.stopMeasurement()
        d.record(benchmark, since: before, operations: benchmark.scaledIterations.count)
    }
}
