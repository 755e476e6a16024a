import HAL
import Loop

/// Turns one button's raw edges (contact bounces included) into gestures.
///
/// Debounce: a level counts once it has been stable for `timing.debounce`,
/// judged from the kernel's edge timestamps. Edges drained late in one batch
/// are therefore judged by when they happened, not when they were read, and a
/// timer notices the final settle without needing another edge. When the
/// kernel already debounces (libgpiod v2), set `kernelDebounceActive` and
/// every edge counts at once.
///
/// Gestures, measured from the settled edges:
/// - `.longPress` fires while still held, once held for `timing.longPress`;
///   the release after it produces nothing more.
/// - `.press` fires on a shorter release: at once when `detectsDoublePress` is
///   false, otherwise when the double-press window closes with no second press.
/// - A second press starting inside the window gives one `.doublePress` on its
///   release. If that second press is held into a long press instead, the first
///   press is reported as `.press`, then `.longPress`.
///
/// The three timers are made once in `init` and only armed / disarmed after
/// that, so handling an edge allocates nothing. `deinit` destroys them.
public final class ButtonRecognizer {
    public var timing: ButtonTiming
    public let detectsDoublePress: Bool
    /// True when the line is debounced by the kernel (libgpiod v2 debounce
    /// period): software debounce is then skipped.
    public var kernelDebounceActive: Bool = false
    /// Optional: every settled level change (true: pressed) with its edge
    /// time, for "hold to scroll" style uses. Set it once, up front.
    public var levelHandler: ((Bool, MonotonicInstant) -> Void)?

    /// The settled (debounced) level: true while the button counts as pressed.
    public private(set) var isPressed = false

    private let scheduler: any TimerScheduling
    private let handler: (ButtonGesture) -> Void

    // Raw level as the last edge left it, and when that edge happened.
    private var rawActive = false
    private var lastEdgeTime = MonotonicInstant.zero
    // Gesture state.
    private var longPressFired = false
    /// A short press was released and waits for the double-press window.
    private var pressPending = false
    private var pendingReleaseTime = MonotonicInstant.zero
    /// The current press is the second one of a possible double press.
    private var secondPress = false

    private var settleTimer: TimerID!
    private var longPressTimer: TimerID!
    private var doublePressTimer: TimerID!

    public init(timing: ButtonTiming = .defaults, detectsDoublePress: Bool, scheduler: any TimerScheduling,
                handler: @escaping (ButtonGesture) -> Void) {
        self.timing = timing
        self.detectsDoublePress = detectsDoublePress
        self.scheduler = scheduler
        self.handler = handler
        // unowned(unsafe): self owns these timers and destroys them in deinit,
        // so a handler never runs after self is gone.
        settleTimer = scheduler.makeTimer { [unowned(unsafe) self] in self.settleTimerFired() }
        longPressTimer = scheduler.makeTimer { [unowned(unsafe) self] in self.longPressTimerFired() }
        doublePressTimer = scheduler.makeTimer { [unowned(unsafe) self] in self.doublePressTimerFired() }
    }

    deinit {
        scheduler.destroyTimer(settleTimer)
        scheduler.destroyTimer(longPressTimer)
        scheduler.destroyTimer(doublePressTimer)
    }

    /// The debounce actually applied: zero when the kernel debounces.
    public var effectiveDebounce: Duration { kernelDebounceActive ? .zero : timing.debounce }

    /// Feeds one raw edge (in logical terms: `active` = pressed).
    public func edge(_ e: LineEdge) {
        let debounce = effectiveDebounce
        // A pending level that stayed put for the debounce time before this
        // edge counts first (edges read in a batch, long after they happened).
        if rawActive != isPressed && e.timestamp - lastEdgeTime >= debounce {
            scheduler.disarm(settleTimer)
            settle(rawActive, at: lastEdgeTime)
        }
        rawActive = e.active
        lastEdgeTime = e.timestamp
        if rawActive == isPressed {
            // Bounced back to the settled level: a glitch, ignored.
            scheduler.disarm(settleTimer)
            return
        }
        if debounce <= .zero {
            settle(rawActive, at: e.timestamp)
            return
        }
        scheduler.arm(settleTimer, after: remaining(debounce, since: e.timestamp))
    }

    /// Forgets everything in flight (timers disarmed, nothing reported) and
    /// takes `level` as the settled level, e.g. after a line is re-requested.
    public func reset(level: Bool = false) {
        scheduler.disarm(settleTimer)
        scheduler.disarm(longPressTimer)
        scheduler.disarm(doublePressTimer)
        rawActive = level
        isPressed = level
        lastEdgeTime = scheduler.now
        // A button already held at reset must not produce a release gesture.
        longPressFired = level
        pressPending = false
        secondPress = false
    }

    // MARK: - settled levels

    private func settle(_ active: Bool, at time: MonotonicInstant) {
        isPressed = active
        levelHandler?(active, time)
        if active { pressed(at: time) } else { released(at: time) }
    }

    private func pressed(at time: MonotonicInstant) {
        longPressFired = false
        if pressPending {
            if time - pendingReleaseTime <= timing.doublePress {
                secondPress = true
            } else {
                // The window closed before this press (its timer had not run yet).
                firePendingPress()
            }
            scheduler.disarm(doublePressTimer)
        }
        scheduler.arm(longPressTimer, after: remaining(timing.longPress, since: time))
    }

    private func released(at time: MonotonicInstant) {
        scheduler.disarm(longPressTimer)
        if longPressFired {
            longPressFired = false
            return
        }
        if secondPress {
            secondPress = false
            pressPending = false
            handler(.doublePress)
        } else if detectsDoublePress {
            pressPending = true
            pendingReleaseTime = time
            scheduler.arm(doublePressTimer, after: remaining(timing.doublePress, since: time))
        } else {
            handler(.press)
        }
    }

    private func firePendingPress() {
        pressPending = false
        handler(.press)
    }

    // MARK: - timers

    private func settleTimerFired() {
        guard rawActive != isPressed else { return }
        settle(rawActive, at: lastEdgeTime)
    }

    private func longPressTimerFired() {
        guard isPressed, !longPressFired else { return }
        longPressFired = true
        if secondPress {
            // Press, then press-and-hold: the first press still counts.
            secondPress = false
            firePendingPress()
        }
        handler(.longPress)
    }

    private func doublePressTimerFired() {
        guard pressPending, !secondPress else { return }
        firePendingPress()
    }

    /// `total` minus the time already passed since `start`, within 0...total
    /// (a timestamp from another clock can then only delay a gesture by `total`).
    private func remaining(_ total: Duration, since start: MonotonicInstant) -> Duration {
        let left = total - (scheduler.now - start)
        return left > .zero ? min(left, total) : .zero
    }
}
