import ANCS
import Benchmark
import Display
import Graphics
import HAL
import LinuxHAL
import Log
import Screens
import SimBoard
import Watch
import WristCore

// The watch's steady-state budget (issue 6, item 6): a notification arriving,
// vibrating, rendering and flushing, and a button press performing an action,
// allocate nothing after warm-up — measured end to end through the real
// WatchDaemon on the simulated board (see WatchRig), over a real SEQPACKET
// socket to its phone endpoint, on a manual clock.
//
// `mallocCountTotal` counts every malloc in the process (the phone side
// included): the figure to read is 0. Wall clock includes the emulated
// SSD1306 decoding every byte the driver sends and both ends' socket calls.
//
// Custom metrics (per iteration): "bus bytes" (after the I2C address byte:
// control, command and display bytes), "motor pulses", "control point writes".
// Smaller benchmarks isolate the parts, so a regression points at its part.

let busBytes = BenchmarkMetric.custom("bus bytes", polarity: .prefersSmaller, useScalingFactor: false)
let motorPulses = BenchmarkMetric.custom("motor pulses", polarity: .prefersSmaller, useScalingFactor: false)
let controlPointWrites = BenchmarkMetric.custom("control point writes", polarity: .prefersSmaller, useScalingFactor: false)

/// One rig per benchmark, kept across the framework's runs of the closure
/// (set-up starts a daemon and a simulated iPhone: not what is measured).
nonisolated(unsafe) var rigs: [String: WatchRig] = [:]

func rig(
    _ name: String, logLevel: Logger.Level = .info, systemTime: Bool = false, followEvents: Bool = false, battery: Bool = false,
    fullRules: Bool = false, lit: Bool = false, warmUp: (WatchRig) -> Void
) throws -> WatchRig {
    if let r = rigs[name] { return r }
    let r = try WatchRig(logLevel: logLevel, systemTime: systemTime, followEvents: followEvents, battery: battery, fullRules: fullRules, lit: lit)
    warmUp(r)
    rigs[name] = r
    return r
}

/// The counters the custom metrics are computed from.
struct Snapshot {
    let bus: Int
    let motor: Int
    let writes: Int
    init(_ r: WatchRig) {
        bus = r.watch.driver.totals.busBytes
        motor = r.motorOns
        writes = r.phone.attributeRequests + r.phone.appRequests + r.phone.actions
    }

    func record(since before: Snapshot, iterations: Int, _ benchmark: Benchmark) {
        let n = max(1, iterations)
        benchmark.measurement(busBytes, (bus - before.bus) / n)
        benchmark.measurement(motorPulses, (motor - before.motor) / n)
        benchmark.measurement(controlPointWrites, (writes - before.writes) / n)
    }
}

extension WatchRig {
    /// The whole story: an Important message arrives and is fetched, the
    /// motor plays the double pulse, the detail screen is drawn and flushed;
    /// a little later the negative button clears it on the phone, which
    /// removes it; the screen goes back to the list.
    func notificationThenDismiss() {
        notificationArrives()
        wait(.milliseconds(300))  // the double pattern: 80 on, 120 off, 80 on
        wait(.milliseconds(600))  // reading (keeps the motor well under its on-time cap)
        press(.negative)
    }

    /// The notification half: arrives, fetched, vibrates, shown; the phone removes it.
    func notificationThenPhoneRemoves() {
        let uid = notificationArrives()
        wait(.milliseconds(300))
        wait(.milliseconds(700))
        phoneRemoves(uid)
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput, busBytes, motorPulses, controlPointWrites]
    let config = Benchmark.Configuration(metrics: metrics, scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20_000)

    // The same story on a board with a battery too (issue 25 item 2: its
    // glyph drawn in every frame).
    for battery in [false, true] {
        let name = "Watch: notification → fetch → motor → render → flush → button → action" + (battery ? ", with a battery" : "")
        Benchmark(name, configuration: config) { benchmark in
            let r = try rig(battery ? "e2e-battery" : "e2e", battery: battery) { r in for _ in 0..<64 { r.notificationThenDismiss() } }
            precondition(!battery || r.watch.model.watchBattery?.percent == 80, "the gauge was read at start")
            let before = Snapshot(r)
            let actions = r.phone.negativeActions
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { r.notificationThenDismiss() }
            benchmark.stopMeasurement()
            let n = benchmark.scaledIterations.count
            Snapshot(r).record(since: before, iterations: n, benchmark)
            precondition(r.phone.negativeActions - actions == n, "every press must reach the phone as a negative action")
            precondition(r.motorOns - before.motor == 2 * n, "every notification must play the double pulse")
            precondition(r.watch.notifications.notificationCount == 0 && r.phone.otherPDUs == 0)
        }
    }

    // A reading of the gauge that changes the glyph.
    Benchmark("Watch: battery reading (emulated MAX17048 → gauge → model) → status bar glyph → render → flush", configuration: config) { benchmark in
        let r = try rig("battery", battery: true) { r in
            r.notificationArrives()  // it pops up: its detail has no status bar
            r.press(.back)  // the list: the status bar, with the glyph, lit
            if r.watch.screen != .list(selected: 0) { fatalError("not on the list: \(r.watch.screen)") }
            for _ in 0..<64 { r.batteryReadsAnotherLevel() }
        }
        let before = Snapshot(r)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.batteryReadsAnotherLevel() }
        benchmark.stopMeasurement()
        let n = benchmark.scaledIterations.count
        Snapshot(r).record(since: before, iterations: n, benchmark)
        if r.watch.displayState != "on" { fatalError("the display must stay lit for the glyph to be flushed") }
        if r.watch.driver.totals.busBytes - before.bus < n { fatalError("every new level must reach the panel: \(r.watch.driver.totals.busBytes - before.bus) bytes over \(n)") }
    }

    Benchmark("Watch: notification → fetch → motor → render → flush (phone removes it)", configuration: config) { benchmark in
        let r = try rig("notification") { r in for _ in 0..<64 { r.notificationThenPhoneRemoves() } }
        let before = Snapshot(r)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.notificationThenPhoneRemoves() }
        benchmark.stopMeasurement()
        let n = benchmark.scaledIterations.count
        Snapshot(r).record(since: before, iterations: n, benchmark)
        precondition(r.motorOns - before.motor == 2 * n && r.watch.notifications.notificationCount == 0)
    }

    // Issue 28: the same path with the time from the system clock (a phone
    // without Current Time), and with a harness client following `events`.
    for (label, systemTime, follow) in [("system time", true, false), ("an events follower", false, true)] {
        Benchmark("Watch: notification → fetch → motor → render → flush (phone removes it), \(label)", configuration: config) { benchmark in
            let r = try rig("notification, \(label)", systemTime: systemTime, followEvents: follow) { r in
                for _ in 0..<64 { r.notificationThenPhoneRemoves() }
            }
            let before = Snapshot(r)
            let read = r.eventBytesRead
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { r.notificationThenPhoneRemoves() }
            benchmark.stopMeasurement()
            let n = benchmark.scaledIterations.count
            Snapshot(r).record(since: before, iterations: n, benchmark)
            precondition(r.motorOns - before.motor == 2 * n && r.watch.notifications.notificationCount == 0)
            precondition(!follow || r.eventBytesRead - read > 100 * n, "the follower must get the added and removed lines")
        }
    }

    // Issue 25 items 3 and 4: the same story with the settings file's rule
    // tables full (64 apps, 32 filters; the last filter matches) and ten
    // alarms on (every input looks for the next ring): neither allocates.
    Benchmark("Watch: notification → fetch → motor → render → flush (phone removes it), rules table full, ten alarms on", configuration: config) { benchmark in
        let r = try rig("notification, rules table full", fullRules: true) { r in for _ in 0..<64 { r.notificationThenPhoneRemoves() } }
        let settings = r.watch.model.userSettings
        if settings.apps.count != 64 || settings.filters.count != 32 { fatalError("the settings file was not read: \(settings.source)") }
        if r.watch.model.alarms.ownCount != 10 { fatalError("the alarms file was not read") }
        let before = Snapshot(r)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.notificationThenPhoneRemoves() }
        benchmark.stopMeasurement()
        let n = benchmark.scaledIterations.count
        Snapshot(r).record(since: before, iterations: n, benchmark)
        precondition(r.motorOns - before.motor == 2 * n && r.watch.notifications.notificationCount == 0,
                     "the last filter's double pulse must play for every notification")
    }

    // Issue 25 item 4: a running stopwatch on a lit panel redraws once a
    // second (the timer's screen the same way): the tick, the render of the
    // new digits and their flush allocate nothing.
    Benchmark("Watch: stopwatch second tick → render → flush", configuration: config) { benchmark in
        let r = try rig("stopwatch", lit: true) { r in
            r.hold(.negative, milliseconds: 800)  // the watch menu
            r.press(.down)
            r.press(.down)
            r.press(.select)  // Stopwatch
            r.press(.select)  // start
            if r.watch.screen != .stopwatch || !r.watch.model.stopwatch.isRunning { fatalError("no running stopwatch: \(r.watch.screen)") }
            for _ in 0..<64 { r.wait(.seconds(1)) }
        }
        let before = Snapshot(r)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.wait(.seconds(1)) }
        benchmark.stopMeasurement()
        let n = benchmark.scaledIterations.count
        Snapshot(r).record(since: before, iterations: n, benchmark)
        if r.watch.driver.totals.busBytes - before.bus < n { fatalError("every second must reach the panel") }
    }

    Benchmark("Watch: button press → Perform Notification Action → Write Response", configuration: config) { benchmark in
        let r = try rig("button") { r in
            // The phone accepts the action but keeps the notification, so the
            // detail screen stays up and every press acts again.
            r.phone.removeOnAction = false
            r.notificationArrives()
            r.wait(.milliseconds(300))
            for _ in 0..<64 { r.press(.negative) }
        }
        let before = Snapshot(r)
        let actions = r.phone.negativeActions
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.press(.negative) }
        benchmark.stopMeasurement()
        let n = benchmark.scaledIterations.count
        Snapshot(r).record(since: before, iterations: n, benchmark)
        precondition(r.phone.negativeActions - actions == n, "every press must reach the phone as a negative action")
    }

    Benchmark("Watch: render + flush a notification detail screen (ScreenRenderer + OLEDDriver)", configuration: config) { benchmark in
        let d = try detailRig()
        let before = d.driver.totals.busBytes
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try d.next() }
        benchmark.stopMeasurement()
        benchmark.measurement(busBytes, (d.driver.totals.busBytes - before) / max(1, benchmark.scaledIterations.count))
    }

    // Android (issue 26): the same story through Gadgetbridge's UART lines.
    Benchmark("Watch: Gadgetbridge notify line → motor → render → flush → button → DISMISS", configuration: config) { benchmark in
        let r = try androidRig()
        let bus = r.watch.driver.totals.busBytes
        let motor = r.motorOns
        let dismissals = r.dismissals
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { r.notificationThenDismiss() }
        benchmark.stopMeasurement()
        let n = max(1, benchmark.scaledIterations.count)
        benchmark.measurement(busBytes, (r.watch.driver.totals.busBytes - bus) / n)
        benchmark.measurement(motorPulses, (r.motorOns - motor) / n)
        precondition(r.dismissals - dismissals == benchmark.scaledIterations.count, "every press must reach Gadgetbridge as DISMISS")
        precondition(r.motorOns - motor >= benchmark.scaledIterations.count, "every notification must buzz")
        precondition(r.watch.notifications.notificationCount == 0)
    }

    // Music control (MediaBenchmarks.swift).
    mediaBenchmarks(config)
}

nonisolated(unsafe) var androidRigInstance: AndroidRig?

/// One Android rig, warmed up (its first notifications allocate: the screens' caches).
func androidRig() throws -> AndroidRig {
    if let r = androidRigInstance { return r }
    let r = try AndroidRig()
    for _ in 0..<64 { r.notificationThenDismiss() }
    androidRigInstance = r
    return r
}

/// The watch's store (two fetched notifications, kept by the phone) drawn by
/// a renderer of its own onto a second emulated panel, alternating between
/// the two (different texts), so every frame changes.
final class DetailRenderRig {
    let rig: WatchRig
    let renderer: ScreenRenderer
    let framebuffer = Framebuffer(width: 128, height: 64)
    let panel = EmulatedI2CDisplay(panel: .ssd1306_128x64)
    let driver: OLEDDriver
    let status = StatusInfo(time: CivilTime(year: 2024, month: 5, day: 1, hour: 12, minute: 34), link: .encrypted, unread: 2)
    let uids: (NotificationUID, NotificationUID)
    var k = 0

    init() throws {
        rig = try WatchRig()
        rig.phone.removeOnAction = false
        rig.notificationArrives()
        rig.notificationArrives()
        rig.wait(.milliseconds(300))
        uids = (NotificationUID(rig.nextUID - 2), NotificationUID(rig.nextUID - 1))
        precondition(rig.watch.notifications.notification(uids.0) != nil && rig.watch.notifications.notification(uids.1) != nil)
        let fonts = FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent)
        renderer = ScreenRenderer(width: 128, height: 64, fonts: try ScreenFonts.standard(loader: fonts), placement: .standard)
        driver = OLEDDriver(spec: .ssd1306_128x64, transport: panel)
        try driver.initialize()
        for _ in 0..<16 { try next() }
    }

    func next() throws {
        let screen = Screen.detail(k & 1 == 0 ? uids.0 : uids.1, scroll: 0)
        renderer.render(screen, status: status, notifications: rig.watch.notifications, into: framebuffer)
        try driver.flush(framebuffer)
        k += 1
    }
}

nonisolated(unsafe) var detailRigInstance: DetailRenderRig?

func detailRig() throws -> DetailRenderRig {
    if let d = detailRigInstance { return d }
    let d = try DetailRenderRig()
    detailRigInstance = d
    return d
}
