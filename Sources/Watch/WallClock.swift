
import Glibc
import HAL
import PhoneServices
import Screens

/// The wall-clock time the watch shows: the phone's Current Time when the
/// phone sent one, else the system clock in the local time zone.
public enum WallClock {
    /// The system's local time now (no allocation).
    public static func system() -> WallClockTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = ts.tv_sec
        var parts = tm()
        localtime_r(&t, &parts)
        // tm_wday: 0 = Sunday; WallClockTime weekday: 1 = Monday ... 7 = Sunday.
        let weekday = parts.tm_wday == 0 ? 7 : Int(parts.tm_wday)
        return WallClockTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec), weekday: weekday)
    }

    /// The phone's time at `now`, when its date is known.
    static func phone(_ clock: PhoneClock, at now: MonotonicInstant) -> WallClockTime? {
        guard let t = clock.localTime(at: now) else { return nil }
        let weekday = t.dayOfWeek >= 1 && t.dayOfWeek <= 7 ? Int(t.dayOfWeek) : nil
        return WallClockTime(
            year: Int(t.year), month: Int(t.month), day: Int(t.day),
            hour: Int(t.hours), minute: Int(t.minutes), second: Int(t.seconds), weekday: weekday)
    }
}
