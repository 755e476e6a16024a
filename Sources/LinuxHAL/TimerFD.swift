import CLinux
import HAL

/// One CLOCK_MONOTONIC timerfd, armed at an absolute deadline. The run loop
/// keeps every timer in a heap and arms this single descriptor at the earliest.
public struct TimerFD: ~Copyable {
    private let fd: FileDescriptor
    public var rawValue: Int32 { fd.rawValue }

    public init() throws(HALError) {
        let raw = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        if raw < 0 { throw Errno.current.halError("timerfd_create") }
        fd = FileDescriptor(adopting: raw)
    }

    /// Arms at an absolute monotonic instant (an instant in the past fires at once).
    public func arm(at deadline: MonotonicInstant) throws(HALError) {
        try armTimerFD(fd.rawValue, atNanoseconds: deadline.nanoseconds, flags: Int32(TFD_TIMER_ABSTIME), operation: "timerfd_settime")
    }

    public func disarm() {
        var spec = itimerspec()
        _ = timerfd_settime(fd.rawValue, 0, &spec, nil)
    }

    /// Reads the expiration count, clearing readiness. 0 if it was not ready.
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        let n = CLinux.read(fd.rawValue, &count, 8)
        return n == 8 ? count : 0
    }
}

/// Arms a timerfd at an absolute time in nanoseconds of its clock. A time of
/// 0 would disarm it, so the earliest deadline is 1 ns (a past one fires at once).
func armTimerFD(_ fd: Int32, atNanoseconds nanoseconds: UInt64, flags: Int32, operation: String) throws(HALError) {
    let ns = max(nanoseconds, 1)
    var spec = itimerspec()
    spec.it_value.tv_sec = Int(ns / 1_000_000_000)
    spec.it_value.tv_nsec = Int(ns % 1_000_000_000)
    if timerfd_settime(fd, flags, &spec, nil) != 0 {
        throw Errno.current.halError(operation)
    }
}

/// CLOCK_MONOTONIC, read from the kernel.
public final class SystemMonotonicClock: MonotonicClock {
    public init() {}
    public var now: MonotonicInstant { Self.read() }

    public static func read() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }
}
