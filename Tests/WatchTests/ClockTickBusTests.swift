import ANCS
import Notifications
import Foundation
import BoardConfig
import Display
import Graphics
import HAL
import LinuxHAL
import Log
import Loop
import Screens
import Testing
import Watch

/// Issue 16 item 2, on the bus: the daemon's own idle clock through
/// `WatchController.render` and `OLEDDriver`, minute by minute over a day.
@Suite struct ClockTickBusTests {
    /// Takes every message (a plain I2C adapter).
    final class Bus: I2CTransport {
        let address: UInt8 = 0x3C
        let functionality: I2CFunctionality = .plainI2C
        let maxMessageLength = 4096
        func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError) {}
    }

    /// The wall clock the watch reads (set by the test between renders).
    final class Clock: @unchecked Sendable {
        var minuteOfDay = 0
        var time: CivilTime {
            CivilTime(year: 2024, month: 3, day: 14, hour: minuteOfDay / 60, minute: minuteOfDay % 60)
        }
    }

    struct Day {
        /// Bus bytes of each tick, by how many digits changed (1...4).
        var ticks: [Int: [Int]] = [:]
        /// Each tick of the day in order: "HH:MM bytes transactions pages".
        var lines: [String] = []
        /// Ticks that cost more than the cheaper of one window and per-page windows.
        var dearer: [String] = []
        /// Transactions of each tick, by how many digits changed.
        var transactions: [Int: [Int]] = [:]
        var pages: [Int] = []
        var perMinute: Double { Double(ticks.values.joined().reduce(0, +)) / Double(ticks.values.joined().count) }
        var oneDigitMax: Int { ticks[1]!.max()! }
    }

    /// A day of minute ticks on the idle clock of `spec`.
    static func day(_ spec: ControllerSpec, shiftEvery: Int? = nil) throws -> (Day, WatchController) {
        let clock = Clock()
        let loop = ManualLoop(now: MonotonicInstant(nanoseconds: 1_000_000_000))
        var settings = WatchSettings(systemClock: { clock.time })
        settings.dimAfter = .seconds(1_000_000)
        settings.offAfter = .seconds(1_000_000)
        let driver = OLEDDriver(spec: spec, transport: Bus())
        let framebuffer = Framebuffer(width: spec.width, height: spec.height)
        var logger = Logger(label: "tick")
        logger.logLevel = .critical
        let watch = WatchController(
            loop: loop, logger: logger, settings: settings,
            renderer: ScreenRenderer(width: spec.width, height: spec.height, fonts: WatchControllerTests.Rig.fonts),
            framebuffer: framebuffer, driver: driver, contrast: 0x7F,
            motor: nil, policy: .standard)
        try watch.start(rotation: .r0)
        watch.model.phoneConnected(notifications: NotificationConsumer(), now: loop.now)
        watch.render()
        var day = Day()
        var before = Array(framebuffer.storage)
        for m in 1..<(24 * 60) {
            clock.minuteOfDay = m
            let changed = zip(ClockTickBusTests.digits(m), ClockTickBusTests.digits(m - 1)).filter { $0 != $1 }.count
            watch.render()
            let after = Array(framebuffer.storage)
            let flush = driver.lastFlush
            let label = "\(m / 600)\(m / 60 % 10):\(m % 60 / 10)\(m % 10)"
            day.lines.append("\(label) \(flush.busBytes) \(flush.transactions) \(flush.pages)")
            if spec.addressing == .horizontalWindow {
                let bound = Self.cheaperOfOneAndPerPage(before, after, width: spec.width, pages: spec.pages)
                if flush.busBytes > bound { day.dearer.append("\(label): \(flush.busBytes) > \(bound)") }
            }
            before = after
            day.ticks[changed, default: []].append(driver.lastFlush.busBytes)
            day.transactions[changed, default: []].append(driver.lastFlush.transactions)
            day.pages.append(driver.lastFlush.pages)
        }
        return (day, watch)
    }

    static func digits(_ m: Int) -> [Int] { [m / 600, m / 60 % 10, m % 60 / 10, m % 10] }

    /// What a window-addressed controller needs, at most, for the bytes that
    /// changed between two frames, counting commands: the cheaper of one
    /// window around every change and one window per changed page, each
    /// window with both its 0x21 and 0x22 commands (the driver may leave
    /// one out when the controller already has it).
    static func cheaperOfOneAndPerPage(_ old: [UInt8], _ new: [UInt8], width: Int, pages: Int) -> Int {
        let window = { (data: Int) in ControlByteFraming.windowMessageLength(commands: 6, data: data) }
        var perPage = 0
        var box: (p0: Int, p1: Int, c0: Int, c1: Int)? = nil
        for p in 0..<pages {
            let changed = (0..<width).filter { old[p * width + $0] != new[p * width + $0] }
            guard let lo = changed.first, let hi = changed.last else { continue }
            perPage += window(hi - lo + 1)
            box = box.map { (min($0.p0, p), max($0.p1, p), min($0.c0, lo), max($0.c1, hi)) } ?? (p, p, lo, hi)
        }
        guard let b = box else { return 0 }
        return min(perPage, window((b.p1 - b.p0 + 1) * (b.c1 - b.c0 + 1)))
    }

    @Test("a one-digit tick is at most 40 bus bytes, every tick at most 3 pages, every panel",
          arguments: ControllerSpec.all)
    func oneDigitTick(spec: ControllerSpec) throws {
        let (day, watch) = try Self.day(spec)
        #expect(watch.screen == .idleClock)
        #expect(day.oneDigitMax <= 40, "\(day.ticks[1]!.sorted().suffix(5))")
        #expect(day.pages.allSatisfy { $0 <= 3 })
        // Before: 52...77 bytes a one-digit tick, 76 a minute on average.
        #expect(day.perMinute < 32, "\(day.perMinute) bytes a minute on average")
        if spec.family != .sh1106 {
            #expect(day.transactions[1]!.allSatisfy { $0 == 1 }, "one window, one transaction")
            #expect(day.transactions.values.joined().allSatisfy { $0 <= 2 })
        }
    }

    /// Issue 28 item 11: the driver sends no tick dearer than the cheaper of
    /// one window and per-page windows (commands counted), and the bus bytes
    /// of every tick of a day are a golden file per panel
    /// (Golden/clock-day-PANEL.txt: time, bus bytes, transactions, pages).
    @Test("every tick of a day at most the cheaper of one window and per-page windows; the day's bus bytes are golden",
          arguments: ControllerSpec.all)
    func wholeDay(spec: ControllerSpec) throws {
        let (day, _) = try Self.day(spec)
        #expect(day.dearer.isEmpty, "\(day.dearer.prefix(10))")
        let text = day.lines.joined(separator: "\n") + "\n"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/clock-day-\(spec.name).txt")
        if ProcessInfo.processInfo.environment["WRISTCORE_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        let differing = zip(golden.split(separator: "\n"), text.split(separator: "\n")).filter { $0 != $1 }
        #expect(golden == text, "\(differing.count) ticks differ from Golden/clock-day-\(spec.name).txt, first: \(differing.prefix(3)); WRISTCORE_UPDATE_GOLDEN=1 rewrites it")
    }
}
