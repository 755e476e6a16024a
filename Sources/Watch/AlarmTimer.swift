import HAL
import Log
import Loop

/// The one timer the alarms need, kept at the model's next ring
/// (`WatchModel.alarmToArm`) after every input. While the time comes from
/// the system clock it is a CLOCK_REALTIME absolute timer at the ring's
/// instant (mktime through `WatchSettings.wallInstant`), cancelled by a
/// clock step, which makes the model look again; while it comes from the
/// phone it is a monotonic timer, as the phone's time is (`WallClock`).
/// No alarm on, or the time unknown: nothing is armed.
final class AlarmTimer {
    private let model: WatchModel
    private let loop: any EventLoop
    private let logger: Logger
    private let settings: WatchSettings
    private var monotonic: TimerID!
    private var wall: WallClockTimerID?
    /// What is armed: the ring (local seconds) and the clock it is on.
    private var armedRing: Int64?
    private var armedSource = TimeSource.unknown
    /// Applies the model's effects after the timer fired (the controller's `afterInput`).
    var afterFiring: () -> Void = {}

    init(model: WatchModel, loop: any EventLoop, logger: Logger, settings: WatchSettings) {
        self.model = model
        self.loop = loop
        self.logger = logger
        self.settings = settings
        monotonic = loop.makeTimer { [unowned(unsafe) self] in self.fired(clockChanged: false) }
    }

    deinit {
        loop.destroyTimer(monotonic)
        if let wall { loop.destroyWallClockTimer(wall) }
    }

    /// Makes the wall-clock timer (once).
    func start() throws(HALError) {
        if wall == nil {
            wall = try loop.makeWallClockTimer { [unowned(unsafe) self] event in self.fired(clockChanged: event == .clockChanged) }
        }
    }

    /// Arms for the model's next ring, unless that is armed already.
    func follow() {
        let now = loop.now
        let ring = model.alarmToArm(now: now)
        let source = model.wallClock.source(at: now)
        guard ring != armedRing || source != armedSource else { return }
        arm(ring, source: source, now: now)
    }

    private func arm(_ ring: Int64?, source: TimeSource, now: MonotonicInstant) {
        armedRing = ring
        armedSource = source
        loop.disarm(monotonic)
        if let wall { loop.disarm(wall) }
        guard let ring else { return }
        switch source {
        case .system:
            guard let wall, let instant = settings.wallInstant(ring) else {
                logger.warning("cannot place the alarm at \(ring) in the local time zone: not armed")
                return
            }
            loop.arm(wall, at: instant)
        case .phone:
            guard let local = model.localSeconds(at: now) else { return }
            // The phone's time has whole seconds: a ring up to a second
            // early is caught by the model, which looks again a second later.
            loop.arm(monotonic, at: now.advanced(by: .seconds(ring - local)))
        case .unknown:
            break
        }
    }

    private func fired(clockChanged: Bool) {
        if clockChanged { logger.info("the system clock was set: looking at the alarms again") }
        let now = loop.now
        model.alarmTimeReached(now: now)
        // Whatever it was armed for has passed (or the clock moved): arm afresh.
        arm(model.alarmToArm(now: now), source: model.wallClock.source(at: now), now: now)
        afterFiring()
    }
}
