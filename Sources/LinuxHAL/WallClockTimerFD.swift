import CLinux
import HAL

/// One CLOCK_REALTIME timerfd, armed at an absolute wall-clock instant with
/// TFD_TIMER_CANCEL_ON_SET: it fires when the wall clock reaches the
/// deadline, and a read fails with ECANCELED when the clock was set
/// (stepped) while it was armed. The run loop keeps one per wall-clock timer.
public final class WallClockTimerFD {
    private let fd: FileDescriptor
    public var rawValue: Int32 { fd.rawValue }

    /// What a read found.
    public enum Expiry: Equatable, Sendable {
        /// The deadline passed.
        case expired
        /// The wall clock was set while armed (ECANCELED).
        case clockChanged
        /// Nothing yet (a spurious wake-up).
        case notReady
    }

    public init() throws(HALError) {
        let raw = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        if raw < 0 { throw Errno.current.halError("timerfd_create(CLOCK_REALTIME)") }
        fd = FileDescriptor(adopting: raw)
    }

    /// Arms at `deadline` (one in the past fires at once), cancelled by a clock change.
    public func arm(at deadline: WallClockInstant) throws(HALError) {
        // Times before 1970 do not occur; the helper keeps 0 (disarm) out.
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        try armTimerFD(fd.rawValue, atNanoseconds: UInt64(clamping: deadline.nanosecondsSinceEpoch), flags: flags, operation: "timerfd_settime(CLOCK_REALTIME)")
    }

    /// Disarms, which also stops clock changes from being reported.
    public func disarm() {
        var spec = itimerspec()
        _ = timerfd_settime(fd.rawValue, 0, &spec, nil)
    }

    /// Reads the expiration (clearing readiness).
    public func read() -> Expiry {
        var count: UInt64 = 0
        while true {
            let n = CLinux.read(fd.rawValue, &count, 8)
            if n == 8 { return count > 0 ? .expired : .notReady }
            if n < 0 && wc_errno() == EINTR { continue }
            if n < 0 && wc_errno() == ECANCELED {
                SystemClock.clockWasSet()  // whether it is synchronised may have changed too
                return .clockChanged
            }
            return .notReady
        }
    }
}
