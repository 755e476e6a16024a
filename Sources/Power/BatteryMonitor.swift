import HAL
import Loop

/// Reads the watch's battery gauge now and then on the run loop and hands
/// each reading on. A battery changes slowly, so one reading every
/// `interval` (2 minutes by default) is enough to catch a critical level
/// in time, and is the only wake-up a battery adds to an idle watch.
///
/// A failed reading (a loose wire, a gauge resetting) is reported once,
/// then the monitor keeps trying; the first good reading after failures is
/// reported as a recovery. Nothing is allocated per reading.
public final class BatteryMonitor {
    public static let defaultInterval: Duration = .seconds(120)

    public let gauge: any BatteryGauge
    public let interval: Duration
    /// Every good reading.
    public var readingHandler: ((BatteryReading) -> Void)?
    /// The first failed reading of a run of failures; nil for the first good
    /// reading after them.
    public var failureHandler: ((HALError?) -> Void)?
    /// Readings that failed since the monitor started.
    public private(set) var failures = 0

    private let loop: any TimerScheduling
    private var timer: TimerID!
    private var failing = false

    public init(gauge: any BatteryGauge, loop: any TimerScheduling, interval: Duration = defaultInterval) {
        self.gauge = gauge
        self.loop = loop
        self.interval = interval
        timer = loop.makeTimer { [unowned(unsafe) self] in self.readNow() }
    }

    deinit { loop.destroyTimer(timer) }

    /// Reads now, then every `interval`.
    public func start() {
        readNow()
        loop.arm(timer, after: interval, repeating: interval)
    }

    public func stop() { loop.disarm(timer) }

    /// Reads the gauge now (also when something suggests the level moved).
    public func readNow() {
        do throws(HALError) {
            let reading = try gauge.read()
            if failing {
                failing = false
                failureHandler?(nil)
            }
            readingHandler?(reading)
        } catch {
            failures += 1
            if !failing {
                failing = true
                failureHandler?(error)
            }
        }
    }
}
