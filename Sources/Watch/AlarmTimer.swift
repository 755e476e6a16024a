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
        // Alarms restored before the start could not be armed on the wall clock yet.
        arm(model.alarmToArm(now: loop.now), source: model.wallClock.source(at: loop.now), now: loop.now)
    }

    /// Arms for the model's next ring, unless that is armed already. A new
    /// source of time (the phone's first time, the system clock becoming
    /// synchronised) moves the clock: the model looks at what came due.
    func follow() {
        // No alarm, none armed (the common case): nothing to look at on this input.
        if model.alarms.count == 0 && armedRing == nil { return }
        let now = loop.now
        let source = model.wallClock.source(at: now)
        if source != armedSource && armedSource != .unknown { return timeChanged() }
        let ring = model.alarmToArm(now: now)
        guard ring != armedRing || source != armedSource else { return }
        // The ring moved: an edit, or the time passed it a moment before
        // the timer would have fired (an input at 07:00:00.1): the model
        // looks at what came due first.
        if armedRing != nil { return timeChanged() }
        arm(ring, source: source, now: now)
    }

    /// The watch's time jumped (the phone sent its time): as a clock step.
    func timeChanged() { fired(clockChanged: false) }

    private func arm(_ ring: Int64?, source: TimeSource, now: MonotonicInstant) {
        logger.debug("alarm timer: \(ring.map { "\($0)" } ?? "none") on \(source.rawValue)")
        armedRing = ring
        armedSource = source
        loop.disarm(monotonic)
        if let wall { loop.disarm(wall) }
        guard let ring else { return }
        guard let local = model.localSeconds(at: now) else { return }
        // Whole seconds: a ring up to a second early is caught by the
        // model, which looks again a second later.
        var inMonotonicTime = now.advanced(by: .seconds(ring - local))
        // On the phone's time, exact: a ring is on a whole minute, and the
        // phone clock knows when its next minute starts.
        if source == .phone, let minute = model.wallClock.nextPhoneMinute(after: now) {
            let localAtMinute = (local / 60 + 1) * 60
            inMonotonicTime = minute.advanced(by: .seconds(ring - localAtMinute))
        }
        switch source {
        case .system:
            guard let wall else { return }  // before `start`: armed there
            // The zone's rules place the local time (mktime). An instant not
            // ahead of the wall clock means the watch's clock and the system's
            // disagree (a pinned clock in the demo): counted from now instead,
            // so a timer in the past cannot fire again and again.
            if let instant = settings.wallInstant(ring), instant > loop.wallClockNow {
                loop.arm(wall, at: instant)
            } else {
                logger.notice("the alarm at local \(ring) is not ahead of the system clock: timed from now")
                loop.arm(monotonic, at: inMonotonicTime)
            }
        case .phone:
            loop.arm(monotonic, at: inMonotonicTime)
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
