import BoardConfig
import Haptics

/// The settings file's quiet-hours windows as text: "22:00-07:00" (every
/// day), or days first: "mon-fri 22:00-07:00", "sat,sun 23:00-09:00",
/// "mon,wed,fri 13:00-14:00". Days are mon tue wed thu fri sat sun, as a
/// list, a range (wrapping: "fri-mon") or both ("mon-wed,sat").
enum QuietHoursText {
    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let allowed = "\"HH:MM-HH:MM\" every day, or days first: \"mon-fri 22:00-07:00\", \"sat,sun 23:00-09:00\" (days: mon tue wed thu fri sat sun, a list or a range)"

    /// One window, or nil when `text` is not one.
    static func window(_ text: String) -> QuietHours.Window? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        guard let (start, end) = BoardValidator.quietHours(String(parts[parts.count - 1])) else { return nil }
        var days = QuietHours.Weekdays.everyDay
        if parts.count == 2 {
            guard let given = Self.days(parts[0]) else { return nil }
            days = given
        }
        return QuietHours.Window(days: days, startMinute: start, endMinute: end)
    }

    /// "mon-fri", "sat,sun", "fri-mon", "mon-wed,sat" → the days; nil when malformed.
    static func days(_ text: Substring) -> QuietHours.Weekdays? {
        var days: QuietHours.Weekdays = []
        for item in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 1 || ends.count == 2,
                  let first = dayNames.firstIndex(of: String(ends[0])),
                  let last = dayNames.firstIndex(of: String(ends[ends.count - 1])) else { return nil }
            var d = first
            while true {
                days.insert(QuietHours.Weekdays(weekday: d + 1))
                if d == last { break }
                d = (d + 1) % 7
            }
        }
        return days.isEmpty ? nil : days
    }
}
