import HAL

/// A loop timer that follows a state machine's next deadline: the one idiom
/// behind "after every input, arm the timer at `nextDeadline`" (the ANCS
/// consumer's, the watch model's, Now Playing's progress). `follow` arms it
/// at the new deadline, disarms it for nil, and does nothing when the
/// deadline did not change (so a busy input path costs no heap operation).
///
/// Made once; following and firing allocate nothing. The handler runs on
/// the loop's thread with the timer already disarmed.
public final class DeadlineTimer {
    private let loop: any TimerScheduling
    private var timer: TimerID!
    /// Where the timer is armed (nil: disarmed).
    public private(set) var deadline: MonotonicInstant?

    public init(loop: any TimerScheduling, _ fire: @escaping () -> Void) {
        self.loop = loop
        timer = loop.makeTimer { [unowned(unsafe) self] in
            self.deadline = nil
            fire()
        }
    }

    deinit { loop.destroyTimer(timer) }

    /// Keeps the timer at `next` (nil: disarmed).
    public func follow(_ next: MonotonicInstant?) {
        guard next != deadline else { return }
        deadline = next
        if let next {
            loop.arm(timer, at: next)
        } else {
            loop.disarm(timer)
        }
    }
}
