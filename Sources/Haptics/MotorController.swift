import HAL
import Loop

/// Plays vibration patterns on the motor line, within safety limits.
///
/// - One pattern at a time; a new `play` replaces the current one.
/// - A repeating pattern (the ring) stops after `ringMaxDuration`.
/// - The on-time of any 60 s window is capped: pulses are cut short when the
///   budget runs out, and `play` refuses while it is used up. A ring keeps its
///   rhythm meanwhile and buzzes again as budget frees up.
/// - It only plays: quiet hours, Do Not Disturb and the app rules are the
///   watch model's (WatchModel+Vibration), which decides before calling.
/// - The motor is never left on: any line error turns it off (`forceOff`)
///   and reports through `errorHandler`; `deinit` turns it off too. Shutdown
///   and error paths elsewhere should call `forceOff()`.
///
/// Two timers are made in `init` and only re-armed afterwards; playing a
/// pattern made up front (the built-ins) allocates nothing.
public final class MotorController {
    public var configuration: HapticsConfiguration
    /// Every actual on/off change of the motor, with the loop's time.
    public var stateHandler: ((Bool, MonotonicInstant) -> Void)?
    /// A line failure; the motor has already been forced off when this runs.
    public var errorHandler: ((HALError) -> Void)?

    public private(set) var isMotorOn = false
    /// The pattern being played, nil when idle.
    public private(set) var currentPattern: VibrationPattern?
    public var isPlaying: Bool { currentPattern != nil }

    private let line: any MotorLine
    private let scheduler: any TimerScheduling

    private enum Phase { case on, cappedRest, off }
    private var phase = Phase.off
    private var pulseIndex = 0
    /// How long the current pulse actually runs the motor (≤ its `on`).
    private var pulseOnTime = Duration.zero
    private var onSince = MonotonicInstant.zero
    private var onTime = OnTimeWindow()

    private var stepTimer: TimerID!
    private var ringTimer: TimerID!

    public init(line: any MotorLine, scheduler: any TimerScheduling, configuration: HapticsConfiguration = .defaults) {
        self.line = line
        self.scheduler = scheduler
        self.configuration = configuration
        // unowned(unsafe): self owns these timers and destroys them in deinit,
        // so a handler never runs after self is gone.
        stepTimer = scheduler.makeTimer { [unowned(unsafe) self] in self.step() }
        ringTimer = scheduler.makeTimer { [unowned(unsafe) self] in self.stop() }
    }

    deinit {
        forceOff()
        scheduler.destroyTimer(stepTimer)
        scheduler.destroyTimer(ringTimer)
    }

    /// Motor-on time still allowed in the current 60 s window.
    public var remainingOnTime: Duration {
        let left = configuration.maxOnTimePerMinute - onTime.used(at: scheduler.now, onSince: isMotorOn ? onSince : nil)
        return left > .zero ? left : .zero
    }

    /// Starts `pattern`, replacing the current one, unless the on-time cap
    /// forbids it. Whether to buzz at all (quiet hours, Do Not Disturb, the
    /// app's rule) is the watch model's decision, made before this call.
    @discardableResult
    public func play(_ pattern: VibrationPattern) -> PlayOutcome {
        if remainingOnTime <= .zero { return .suppressedCap }
        endPattern()
        if isMotorOn, let error = turnOff() { return .lineFailed(error) }
        // A pattern with no time in it would spin; it plays as nothing.
        guard pattern.length > .zero else { return .started }
        currentPattern = pattern
        pulseIndex = 0
        if pattern.repeats { scheduler.arm(ringTimer, after: configuration.ringMaxDuration) }
        if let error = startPulse() { return .lineFailed(error) }
        return .started
    }

    /// Ends the current pattern and turns the motor off.
    public func stop() {
        endPattern()
        if isMotorOn { _ = turnOff() }
    }

    /// Safety: ends everything and drives the line inactive. Never throws;
    /// for shutdown, signal and error paths. A failing line is still marked off.
    public func forceOff() {
        endPattern()
        do { try line.setActive(false) } catch {}  // already on a failure path; keep going
        if isMotorOn { markOff() }
    }

    // MARK: - pattern steps

    private func endPattern() {
        scheduler.disarm(stepTimer)
        scheduler.disarm(ringTimer)
        currentPattern = nil
        phase = .off
    }

    /// Begins pulse `pulseIndex`: motor on for as much of it as the budget allows.
    private func startPulse() -> HALError? {
        guard let pattern = currentPattern else { return nil }
        let pulse = pattern.pulses[pulseIndex]
        pulseOnTime = min(pulse.on, remainingOnTime)
        if pulseOnTime > .zero {
            if let error = turnOn() { return error }
            phase = .on
            scheduler.arm(stepTimer, after: pulseOnTime)
        } else if pulse.on > .zero {
            phase = .cappedRest
            scheduler.arm(stepTimer, after: pulse.on)
        } else {
            return beginRest()
        }
        return nil
    }

    private func step() {
        guard let pattern = currentPattern else { return }
        switch phase {
        case .on:
            if turnOff() != nil { return }
            let planned = pattern.pulses[pulseIndex].on
            if pulseOnTime < planned {
                // Cut short by the cap: keep the pattern's rhythm.
                phase = .cappedRest
                scheduler.arm(stepTimer, after: planned - pulseOnTime)
                return
            }
            _ = beginRest()
        case .cappedRest:
            _ = beginRest()
        case .off:
            _ = nextPulse()
        }
    }

    private func beginRest() -> HALError? {
        guard let pattern = currentPattern else { return nil }
        let off = pattern.pulses[pulseIndex].off
        if off > .zero {
            phase = .off
            scheduler.arm(stepTimer, after: off)
            return nil
        }
        return nextPulse()
    }

    private func nextPulse() -> HALError? {
        guard let pattern = currentPattern else { return nil }
        pulseIndex += 1
        if pulseIndex == pattern.pulses.count {
            guard pattern.repeats else {
                endPattern()
                return nil
            }
            pulseIndex = 0
        }
        return startPulse()
    }

    // MARK: - the line

    private func turnOn() -> HALError? {
        do {
            try line.setActive(true)
        } catch {
            fail(error)
            return error
        }
        isMotorOn = true
        onSince = scheduler.now
        stateHandler?(true, onSince)
        return nil
    }

    private func turnOff() -> HALError? {
        do {
            try line.setActive(false)
        } catch {
            fail(error)
            return error
        }
        markOff()
        return nil
    }

    private func markOff() {
        let now = scheduler.now
        isMotorOn = false
        onTime.record(from: onSince, to: now)
        stateHandler?(false, now)
    }

    private func fail(_ error: HALError) {
        forceOff()
        errorHandler?(error)
    }
}
