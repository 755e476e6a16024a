import HAL
import Log
import Loop
import PhoneServices

/// The watch's clock on the loop: the minute tick that redraws the clock
/// face (and carries the burn-in shift) on the wall-clock minute while the
/// panel is lit, and the board option that sets an unsynchronised system
/// clock from the phone's time. The time itself is the model's `WallClock`.
///
/// The tick is a wall-clock timer (CLOCK_REALTIME, cancelled by a clock
/// step, which redraws at once) while the time comes from the system clock
/// or is unknown, a monotonic one on the phone's minute while it comes from
/// the phone. Dark, nothing ticks.
final class MinuteTick {
    private let model: WatchModel
    private let loop: any EventLoop
    private let logger: Logger
    private let settings: WatchSettings
    /// The minute tick while the phone's time is shown (monotonic).
    private var phoneMinuteTimer: TimerID!
    /// The minute tick on the system clock (made in `start`).
    private var wallMinuteTimer: WallClockTimerID?
    private var systemClockSetFailed = false
    /// Applies the model's effects after a tick (the controller's `afterInput`).
    var afterTick: () -> Void = {}

    init(model: WatchModel, loop: any EventLoop, logger: Logger, settings: WatchSettings) {
        self.model = model
        self.loop = loop
        self.logger = logger
        self.settings = settings
        phoneMinuteTimer = loop.makeTimer { [unowned(unsafe) self] in self.ticked() }
    }

    deinit {
        loop.destroyTimer(phoneMinuteTimer)
        if let wallMinuteTimer { loop.destroyWallClockTimer(wallMinuteTimer) }
    }

    /// Makes the wall-clock timer (once); `arm` then arms the first tick.
    func start() throws(HALError) {
        if wallMinuteTimer == nil {
            wallMinuteTimer = try loop.makeWallClockTimer { [unowned(unsafe) self] event in
                if event == .clockChanged { self.logger.debug("the system clock was set: redrawing") }
                self.ticked()
            }
        }
    }

    /// The phone sent its time: it becomes the watch's clock; an
    /// unsynchronised system clock is set from it if the board asks.
    func phoneTimeReceived(_ clock: PhoneClock) {
        model.phoneTimeReceived(clock)
        setSystemClockIfAsked(from: clock)
        arm()
    }

    /// Arms the tick for the clock the time comes from, or nothing while
    /// the panel is dark (call after the display power changed).
    func arm() {
        guard let wallMinuteTimer else { return }
        guard model.wantsMinuteTicks else {
            loop.disarm(phoneMinuteTimer)
            loop.disarm(wallMinuteTimer)
            return
        }
        if let next = model.wallClock.nextPhoneMinute(after: loop.now) {
            loop.disarm(wallMinuteTimer)
            loop.arm(phoneMinuteTimer, at: next)
        } else {
            // The system clock, or no time yet: tick on the system clock's
            // minute anyway (the burn-in shift rides on it, and a clock
            // that becomes synchronised shows up within a minute).
            loop.disarm(phoneMinuteTimer)
            loop.arm(wallMinuteTimer, at: loop.wallClockNow.nextWholeMinute)
        }
    }

    /// The minute changed, or the system clock was set: redraw (and the
    /// burn-in step, when due), then wait for the next minute.
    private func ticked() {
        model.minuteTicked(now: loop.now)
        arm()
        afterTick()
    }

    /// Board option `setSystemClock`: the phone's time sets an
    /// unsynchronised system clock (a synchronised one is left to NTP).
    private func setSystemClockIfAsked(from phone: PhoneClock) {
        guard let set = settings.setSystemClock, settings.systemClock() == nil,
            let (seconds, nanoseconds) = phone.localSeconds(at: loop.now)
        else { return }
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return }
        do {
            try set(ns + nanoseconds, phone.localTimeInformation?.utcOffsetSeconds)
            logger.notice("set the system clock from the phone's time (\(phone.time))")
        } catch {
            // Once per run: every later phone time would fail the same way.
            if !systemClockSetFailed { logger.warning("cannot set the system clock from the phone's time: \(error)") }
            systemClockSetFailed = true
        }
    }
}
