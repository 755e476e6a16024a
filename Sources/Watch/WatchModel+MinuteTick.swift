import HAL

/// The minute tick: the controller's one periodic wake-up, on the wall-clock
/// minute, only while the panel is lit (dark, nothing is seen, so nothing
/// ticks: the watch sleeps until an input). It redraws the clock and
/// carries the burn-in shift, so a lit idle watch wakes exactly once a
/// minute.
extension WatchModel {
    /// Whether the controller should keep the minute tick armed.
    public var wantsMinuteTicks: Bool { isStarted && displayPower != .off }

    /// The wall-clock minute changed (or the clock was set): the time on
    /// screen is redrawn, and a burn-in step that fell due is taken.
    public func minuteTicked(now: MonotonicInstant) {
        shiftDeadlinePassed(now: now)
        requestRender()
    }
}
