import HAL
/// Hours during which the motor stays still (the watch model asks before it
/// plays): one window every day ("22:00-07:00"), or windows by weekday
/// ("mon-fri 22:00-07:00", "sat,sun 23:00-09:00"), on the watch's own time.
/// A window that crosses midnight belongs to the day it starts on: Friday's
/// "22:00-07:00" keeps Saturday 03:00 quiet too. Alarms the wearer set and
/// `alwaysAlert` apps ignore them (the model's decision).
public struct QuietHours: Sendable, Equatable {
    /// One window: on `days`, from `startMinute` to `endMinute` (minutes of
    /// the day; an end at or before the start is the next morning's).
    public struct Window: Sendable, Equatable {
        public var days: Weekdays
        public var startMinute: Int
        public var endMinute: Int

        public init(days: Weekdays = .everyDay, startMinute: Int, endMinute: Int) {
            precondition((0..<1440).contains(startMinute) && (0..<1440).contains(endMinute), "minutes of the day are 0...1439")
            self.days = days
            self.startMinute = startMinute
            self.endMinute = endMinute
        }

        /// Whether minute `m` of `weekday` (1 Monday ... 7 Sunday) falls in it.
        func contains(weekday: Int, minuteOfDay m: Int) -> Bool {
            if startMinute <= endMinute { return days.contains(weekday: weekday) && m >= startMinute && m < endMinute }
            // Crosses midnight: this day's evening, or the morning after a day it starts on.
            let yesterday = weekday == 1 ? 7 : weekday - 1
            return (days.contains(weekday: weekday) && m >= startMinute) || (days.contains(weekday: yesterday) && m < endMinute)
        }
    }

    /// The days of the week a window starts on: bit 0 Monday ... bit 6 Sunday.
    public typealias Weekdays = HAL.Weekdays

    /// The most windows a schedule holds (two a day).
    public static let maxWindows = 14

    /// At least one, at most `maxWindows`.
    public let windows: [Window]

    /// One window every day.
    public init(startMinute: Int, endMinute: Int) {
        windows = [Window(startMinute: startMinute, endMinute: endMinute)]
    }

    /// Windows by weekday; nil when there are none or more than `maxWindows`.
    public init?(windows: [Window]) {
        guard !windows.isEmpty, windows.count <= Self.maxWindows else { return nil }
        self.windows = windows
    }

    /// "22:00" to "07:00" style, for configuration files. Nil when malformed.
    public init?(start: String, end: String) {
        guard let s = Self.minute(of: start), let e = Self.minute(of: end) else { return nil }
        self.init(startMinute: s, endMinute: e)
    }

    /// Whether minute `m` of `weekday` (1 Monday ... 7 Sunday) is quiet.
    /// Allocation-free (the motor's hot path asks).
    public func contains(weekday: Int, minuteOfDay m: Int) -> Bool {
        var i = 0
        while i < windows.count {
            if windows[i].contains(weekday: weekday, minuteOfDay: m) { return true }
            i += 1
        }
        return false
    }

    /// Whether minute `m` is quiet on every day (a schedule without weekdays).
    public func contains(minuteOfDay m: Int) -> Bool {
        (1...7).allSatisfy { contains(weekday: $0, minuteOfDay: m) }
    }

    /// "HH:MM" → minute of the day.
    static func minute(of text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }
}
