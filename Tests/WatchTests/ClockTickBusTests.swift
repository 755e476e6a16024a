import ANCS
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
        var time: WallClockTime {
            WallClockTime(year: 2024, month: 3, day: 14, hour: minuteOfDay / 60, minute: minuteOfDay % 60, weekday: 4)
        }
    }

    struct Day {
        /// Bus bytes of each tick, by how many digits changed (1...4).
        var ticks: [Int: [Int]] = [:]
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
        var logger = Logger(label: "tick")
        logger.logLevel = .critical
        let watch = WatchController(
            loop: loop, logger: logger, settings: settings,
            renderer: ScreenRenderer(width: spec.width, height: spec.height, fonts: WatchControllerTests.Rig.fonts),
            framebuffer: Framebuffer(width: spec.width, height: spec.height), driver: driver, contrast: 0x7F,
            motor: nil, policy: .standard)
        try watch.start(rotation: .r0)
        watch.model.phoneConnected(notifications: NotificationConsumer(), now: loop.now)
        watch.render()
        var day = Day()
        for m in 1..<(24 * 60) {
            clock.minuteOfDay = m
            let changed = zip(ClockTickBusTests.digits(m), ClockTickBusTests.digits(m - 1)).filter { $0 != $1 }.count
            watch.render()
            day.ticks[changed, default: []].append(driver.lastFlush.busBytes)
            day.transactions[changed, default: []].append(driver.lastFlush.transactions)
            day.pages.append(driver.lastFlush.pages)
        }
        return (day, watch)
    }

    static func digits(_ m: Int) -> [Int] { [m / 600, m / 60 % 10, m % 60 / 10, m % 10] }

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
}
