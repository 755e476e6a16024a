import CLinux
import HAL

/// The system's wall clock in the local time zone (CLOCK_REALTIME, then
/// localtime_r with the system's zone rules): the time the watch shows until
/// the phone sends its own. The composition root injects it; everything
/// above LinuxHAL sees a `CivilTime`.
public enum LocalClock {
    /// The local time now (no allocation).
    public static func now() -> CivilTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var seconds = ts.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        return CivilTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}
