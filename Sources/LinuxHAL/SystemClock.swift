import CLinux
import HAL

/// The system's wall clock (CLOCK_REALTIME): reading it, whether it is
/// synchronised, and setting it.
///
/// A board without a battery-backed RTC (a Raspberry Pi) boots with a clock
/// that is wrong until NTP or someone sets it: the kernel marks it
/// unsynchronised (STA_UNSYNC in adjtimex(2); `timedatectl` shows "System
/// clock synchronized: no") until an NTP client (systemd-timesyncd,
/// chrony, ntpd) disciplines it.
public enum SystemClock {
    /// CLOCK_REALTIME now.
    public static func now() -> WallClockInstant {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return WallClockInstant(nanosecondsSinceEpoch: Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec))
    }

    /// Whether an NTP client has synchronised the clock since boot (no
    /// allocation):
    /// 1. `/run/systemd/timesync/synchronized` exists: systemd-timesyncd
    ///    (Debian's and Raspberry Pi OS's default) touches it on every
    ///    successful synchronisation; /run is emptied at boot.
    /// 2. Else the kernel's own verdict: adjtimex(2) read-only (modes 0)
    ///    says neither TIME_ERROR nor STA_UNSYNC (what `timedatectl` shows
    ///    as "System clock synchronized"; chrony and ntpd set it too). Not
    ///    asked under a seccomp filter: adjtimex is in systemd's @clock
    ///    group, which the shipped unit refuses (ProtectClock=yes,
    ///    SystemCallFilter=@system-service), and a stricter filter would
    ///    kill the process for trying.
    /// 3. Else: not known to be synchronised (false).
    public static var isSynchronised: Bool {
        if timesyncFlagPath.withUnsafeBufferPointer({ access($0.baseAddress!, F_OK) }) == 0 { return true }
        guard mayAskTheKernel else { return false }
        var tx = timex()
        let state = adjtimex(&tx)
        return state >= 0 && state != TIME_ERROR && tx.status & STA_UNSYNC == 0
    }

    /// `isSynchronised`, asked at most once every `recheckInterval`: the
    /// watch reads it on every minute tick and every notification, and the
    /// answer changes only when an NTP client first synchronises or someone
    /// sets the clock (`clockWasSet()` asks again at once). No system call
    /// in between, and none allocates.
    public static var isSynchronisedRecently: Bool {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let now = Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
        if synchronisedAskedAt == nil || now &- synchronisedAskedAt! >= recheckInterval {
            synchronisedAnswer = isSynchronised
            synchronisedAskedAt = now
        }
        return synchronisedAnswer
    }

    /// Makes the next `isSynchronisedRecently` ask the system: the clock was
    /// set (a wall-clock timer's ECANCELED).
    public static func clockWasSet() { synchronisedAskedAt = nil }

    /// Nanoseconds between two real answers (three minutes).
    public static let recheckInterval: Int64 = 180_000_000_000
    nonisolated(unsafe) private static var synchronisedAnswer = false
    nonisolated(unsafe) private static var synchronisedAskedAt: Int64?

    /// systemd-timesyncd's "synchronised since boot" flag file.
    public static let timesyncFlag = "/run/systemd/timesync/synchronized"
    /// The same path as a C string made once: the clock asks on every minute
    /// and every notification, and Embedded Swift copies a `String` passed as
    /// a C pointer into a new allocation each time.
    private static let timesyncFlagPath: [CChar] = Array(timesyncFlag.utf8CString)

    /// No seccomp filter is loaded ("Seccomp: 0" in /proc/self/status), read once.
    static let mayAskTheKernel: Bool = {
        guard let bytes = try? FileBytes.readIfPresent("/proc/self/status", limit: 64 * 1024) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("Seccomp:") {
            return line.dropFirst("Seccomp:".count).drop(while: { $0 == " " || $0 == "\t" }) == "0"
        }
        return false
    }()

    /// Sets CLOCK_REALTIME (needs CAP_SYS_TIME; the kernel then counts the
    /// clock as unsynchronised until an NTP client disciplines it).
    public static func set(_ instant: WallClockInstant) throws(HALError) {
        var ts = timespec()
        ts.tv_sec = Int(CivilTime.floorDivide(instant.nanosecondsSinceEpoch, by: 1_000_000_000))
        ts.tv_nsec = Int(CivilTime.floorModulo(instant.nanosecondsSinceEpoch, by: 1_000_000_000))
        if clock_settime(CLOCK_REALTIME, &ts) != 0 {
            let e = Errno.current
            throw e.halError(
                "clock_settime(CLOCK_REALTIME)",
                hint: e.rawValue == EPERM
                    ? "setting the clock needs CAP_SYS_TIME (AmbientCapabilities=CAP_SYS_TIME and SystemCallFilter=@clock in the unit), or turn setSystemClock off"
                    : nil)
        }
    }

    /// The instant of a local wall-clock time `localNanoseconds` (ns since
    /// 1970 of the local date and time, read as if UTC): minus
    /// `utcOffsetSeconds` when given, else by the system's time zone rules
    /// (mktime, daylight saving time decided by the rules). Nil when the
    /// zone rules cannot place it.
    public static func instant(localNanoseconds: Int64, utcOffsetSeconds: Int?) -> WallClockInstant? {
        let seconds = CivilTime.floorDivide(localNanoseconds, by: 1_000_000_000)
        let fraction = CivilTime.floorModulo(localNanoseconds, by: 1_000_000_000)
        if let offset = utcOffsetSeconds {
            return WallClockInstant(nanosecondsSinceEpoch: (seconds &- Int64(offset)) &* 1_000_000_000 &+ fraction)
        }
        let civil = CivilTime(secondsSinceEpoch: seconds)
        var parts = tm()
        parts.tm_year = Int32(clamping: civil.year - 1900)
        parts.tm_mon = Int32(civil.month - 1)
        parts.tm_mday = Int32(civil.day)
        parts.tm_hour = Int32(civil.hour)
        parts.tm_min = Int32(civil.minute)
        parts.tm_sec = Int32(civil.second)
        parts.tm_isdst = -1
        let utc = mktime(&parts)
        if utc == -1 && !(civil.year == 1969 && civil.month == 12 && civil.day == 31) { return nil }
        return WallClockInstant(nanosecondsSinceEpoch: Int64(utc) &* 1_000_000_000 &+ fraction)
    }
}
