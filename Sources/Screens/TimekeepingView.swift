import HAL
import Timekeeping

/// What the alarm, timer and stopwatch screens show, as the model holds it
/// at `now` (the renderer has no clock of its own).
public struct TimekeepingView: Sendable {
    public var alarms: AlarmList
    public var timer: CountdownTimer
    public var stopwatch: Stopwatch
    public var now: MonotonicInstant

    public init(alarms: AlarmList, timer: CountdownTimer, stopwatch: Stopwatch, now: MonotonicInstant) {
        self.alarms = alarms
        self.timer = timer
        self.stopwatch = stopwatch
        self.now = now
    }
}
