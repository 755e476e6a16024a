import BoardConfig
import HAL
import Input
import Screens
import Timekeeping

/// The countdown timer and the stopwatch (watch menu: "Timer",
/// "Stopwatch"; docs/buttons.md). Both run on the monotonic clock and keep
/// running when their screen is left. The timer's end is one of the model's
/// deadlines and rings like an alarm (never silenced). While one of their
/// screens is shown on a lit panel the model redraws it every second; dark,
/// nothing ticks (the panel shows the right time when it lights).
extension WatchModel {
    /// The timer's screen: positive press starts, pauses or resumes; while
    /// it is stopped the menu's next / previous add or take a minute;
    /// negative press resets a started timer, else goes back (negative long
    /// press, back: back to the menu, the timer keeps running).
    func timerButton(_ role: ButtonRole, _ gesture: ButtonGesture, now: MonotonicInstant) {
        switch (role, gesture) {
        case (.positive, .press), (.select, .press):
            if countdown.isRunning { countdown.pause(now: now) } else { countdown.start(now: now) }
        case (.positive, .longPress), (.up, _):
            countdown.adjust(byMinutes: 1)
        case (.positive, .doublePress), (.down, _):
            countdown.adjust(byMinutes: -1)
        case (.negative, .press) where countdown.state != .stopped:
            countdown.reset()
        case (.negative, _), (.back, _):
            screen = .watchMenu(selected: WatchMenu.Entry.timer.rawValue)
        default:
            break
        }
        restartSecondTick(now: now)
    }

    /// The timer's deadline passed: it rings.
    func timerEnded(now: MonotonicInstant) {
        let length = countdown.length
        countdown.reset()
        startRinging(.timer(seconds: length), now: now)
    }

    /// The stopwatch's screen: positive press starts or stops; negative
    /// press takes a lap while it runs, resets it when stopped, and goes
    /// back when it is at zero (negative long press, back: back to the
    /// menu, the stopwatch keeps running).
    func stopwatchButton(_ role: ButtonRole, _ gesture: ButtonGesture, now: MonotonicInstant) {
        switch (role, gesture) {
        case (.positive, .press), (.select, .press):
            if stopwatch.isRunning { stopwatch.stop(now: now) } else { stopwatch.start(now: now) }
        case (.negative, .press) where stopwatch.isRunning:
            stopwatch.lap(now: now)
        case (.negative, .press) where stopwatch.elapsed(at: now) > .zero:
            stopwatch.reset()
        case (.negative, _), (.back, _):
            screen = .watchMenu(selected: WatchMenu.Entry.stopwatch.rawValue)
        default:
            break
        }
        restartSecondTick(now: now)
    }

    /// Whether the screen shows a running timer or stopwatch on a lit panel.
    private var showsRunningTime: Bool {
        guard displayPower != .off else { return false }
        switch screen {
        case .timer: return countdown.isRunning
        case .stopwatch: return stopwatch.isRunning
        default: return false
        }
    }

    /// Redraws every second while a running timer or stopwatch is shown on
    /// a lit panel, on the second it counts (no tick otherwise).
    func restartSecondTick(now: MonotonicInstant) {
        guard showsRunningTime else {
            secondTickDeadline = nil
            return
        }
        // The timer's display changes when its remaining whole seconds do,
        // the stopwatch's when its elapsed ones do.
        let phase: Duration
        if let end = countdown.deadline, case .timer = screen {
            phase = end.duration(since: now)
        } else {
            phase = .zero - stopwatch.elapsed(at: now)
        }
        let (_, atto) = phase.components
        var wait = Duration(secondsComponent: 0, attosecondsComponent: atto)
        if wait <= .zero { wait += .seconds(1) }
        secondTickDeadline = now.advanced(by: wait)
    }

    func secondTicked(now: MonotonicInstant) {
        secondTickDeadline = nil
        requestRender()
        restartSecondTick(now: now)
    }
}
