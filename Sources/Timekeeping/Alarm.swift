import HAL

/// One alarm the wearer set: a time of day and the weekdays it repeats on
/// (none: it rings once, then switches itself off). Times are local civil
/// time, counted as "local seconds": seconds since 1970-01-01 00:00 of the
/// local date and time read as if UTC (`CivilTime.secondsSinceEpoch`), so
/// finding the next ring is arithmetic on days; turning it into an instant
/// (the time zone, daylight saving time) is the shell's job.
public struct Alarm: Sendable, Equatable {
    /// 0...23.
    public var hour: Int
    /// 0...59.
    public var minute: Int
    /// The weekdays it rings on; empty: once.
    public var days: AlarmDays
    public var enabled: Bool

    public init(hour: Int, minute: Int, days: AlarmDays = [], enabled: Bool = true) {
        self.hour = hour
        self.minute = minute
        self.days = days
        self.enabled = enabled
    }

    /// Whether the time is one (hour 0-23, minute 0-59).
    public var isValid: Bool { (0...23).contains(hour) && (0...59).contains(minute) }

    /// The first minute it rings strictly after `local` (local seconds);
    /// nil when switched off or not a time. At most 8 days ahead.
    public func nextRing(after local: Int64) -> Int64? {
        guard enabled, isValid else { return nil }
        let today = CivilTime.floorDivide(local, by: 86_400)
        let offset = Int64(hour * 3_600 + minute * 60)
        for d in Int64(0)...7 {
            let ring = (today + d) * 86_400 + offset
            guard ring > local else { continue }
            if days.isEmpty || days.contains(weekday: CivilTime.weekday(daysSinceEpoch: today + d)) { return ring }
        }
        return nil
    }
}

/// The days an alarm repeats on: the weekday bit set quiet hours use too
/// (HAL's `Weekdays`, Monday bit 0 ... Sunday bit 6, Gadgetbridge's order).
public typealias AlarmDays = Weekdays

extension Weekdays {
    public static let weekdays = Weekdays(rawValue: 0x1F)
    public static let weekend = Weekdays(rawValue: 0x60)

    /// The choices the alarm editor offers, in the order the buttons move
    /// through them: once, every day, Monday to Friday, the weekend, then
    /// each day alone. Other sets (from the phone) are shown, not offered.
    public static let choices: [AlarmDays] = [
        [], .everyDay, .weekdays, .weekend,
        AlarmDays(weekday: 1), AlarmDays(weekday: 2), AlarmDays(weekday: 3), AlarmDays(weekday: 4),
        AlarmDays(weekday: 5), AlarmDays(weekday: 6), AlarmDays(weekday: 7),
    ]

    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// How a screen says it: "Once", "Every day", "Mon-Fri", "Sat,Sun",
    /// "Tue", or the days listed ("Mon,Wed,Fri").
    public var text: String {
        switch self {
        case []: return "Once"
        case .everyDay: return "Every day"
        case .weekdays: return "Mon-Fri"
        case .weekend: return "Sat,Sun"
        default:
            var out = ""
            for d in 1...7 where contains(weekday: d) {
                if !out.isEmpty { out += "," }
                out += Self.dayNames[d - 1]
            }
            return out
        }
    }
}
