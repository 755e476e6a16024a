import TextFormat

/// A date and time of day in the proleptic Gregorian calendar, with no time
/// zone: what a clock on the wall says. The phone's Current Time, its
/// notification dates, the system's local time and a capture's UTC
/// timestamps are all turned into and out of this one type, so the calendar
/// arithmetic exists once.
///
/// Pure integer arithmetic (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), no Foundation, no allocation. Fields are not
/// validated: `days(year:month:day:)` counts day 31 of February as 3 March
/// (or 2 March in a leap year), the way `mktime` normalises.
public struct CivilTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1 January ... 12 December.
    public var month: Int
    /// 1...31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The civil time `seconds` after 1970-01-01T00:00:00 (before it when
    /// negative). Total over Int64 (with a 64-bit Int).
    public init(secondsSinceEpoch seconds: Int64) {
        let days = Self.floorDivide(seconds, by: Self.secondsPerDay)
        let secondOfDay = Int(Self.floorModulo(seconds, by: Self.secondsPerDay))
        self.init(daysSinceEpoch: days)
        hour = secondOfDay / 3_600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    /// Midnight of the day `days` after 1970-01-01. Total over Int64 (with a 64-bit Int).
    public init(daysSinceEpoch days: Int64) {
        // Count from 0000-03-01, so a leap day ends its 400-year era: split
        // into eras before shifting, so no Int64 input overflows.
        let shifted = Self.floorModulo(days, by: 146_097) + 719_468
        let era = Self.floorDivide(days, by: 146_097) + shifted / 146_097
        let dayOfEra = shifted % 146_097  // 0...146_096
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from 1 March
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 March ... 11 February
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(
            year: Int(year), month: Int(month), day: Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1))
    }

    /// Days from 1970-01-01 to this date (negative before it).
    public var daysSinceEpoch: Int64 { Self.days(year: year, month: month, day: day) }

    /// Seconds from 1970-01-01T00:00:00 to this time, as if it were UTC.
    public var secondsSinceEpoch: Int64 {
        let days = daysSinceEpoch
        let secondOfDay = Int64(hour) * 3_600 + Int64(minute) * 60 + Int64(second)
        // days * 86_400 alone may leave Int64 for the earliest representable
        // day while the sum does not: step in from the negative side.
        if days < 0 { return (days + 1) * Self.secondsPerDay + (secondOfDay - Self.secondsPerDay) }
        return days * Self.secondsPerDay + secondOfDay
    }

    /// 1 Monday ... 7 Sunday, the day the date falls on (a clock's own
    /// day-of-week, such as the Current Time characteristic's, is not kept:
    /// the date decides).
    public var weekday: Int { Self.weekday(daysSinceEpoch: daysSinceEpoch) }

    /// Every field within its calendar range (the month has that day, 0...23
    /// hours, 0...59 minutes and seconds): what a parser of outside bytes
    /// checks before using the value.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= Self.daysIn(month: month, year: year)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// Earlier on the calendar, field by field (meaningful for valid times).
    public static func < (a: Self, b: Self) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second)
            < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    /// `2024-03-14T18:30:05` (ISO 8601 without a zone; years beyond four
    /// digits and before year 0 get more digits and a sign).
    public var description: String {
        NumberText.format(
            "%04d-%02d-%02dT%02d:%02d:%02d", Int64(year), Int64(month), Int64(day), Int64(hour), Int64(minute), Int64(second))
    }
}

extension CivilTime {
    public static let secondsPerDay: Int64 = 86_400

    /// Days from 1970-01-01 to `year`-`month`-`day` (negative before it).
    /// Months outside 1...12 and days outside the month carry over into the
    /// neighbouring year or month. Every Int64 day count has a date that
    /// maps back to it; dates further out (beyond about 25 quadrillion
    /// years) trap.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        // Normalise the month first so any month number works.
        let y = Int64(year) + floorDivide(Int64(month) - 1, by: 12)
        let m = floorModulo(Int64(month) - 1, by: 12) + 1
        // Count from 1 March: February (and its leap day) ends the year.
        let shiftedYear = m <= 2 ? y - 1 : y
        let era = floorDivide(shiftedYear, by: 400)
        let yearOfEra = shiftedYear - era * 400  // 0...399
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // Back to 1970-01-01 without leaving Int64 on the way to the
        // first and last representable days.
        if era < 0 { return era * 146_097 + (dayOfEra - 719_468) }
        return (era - 5) * 146_097 + (dayOfEra + 5 * 146_097 - 719_468)
    }

    /// 1 Monday ... 7 Sunday of the day `days` after 1970-01-01 (a Thursday).
    public static func weekday(daysSinceEpoch days: Int64) -> Int {
        Int(floorModulo(days, by: 7) + 3) % 7 + 1
    }

    /// 1 Monday ... 7 Sunday.
    public static func weekday(year: Int, month: Int, day: Int) -> Int {
        weekday(daysSinceEpoch: days(year: year, month: month, day: day))
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// 28...31.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `a / b` rounded towards negative infinity, for `b > 0`. Total over
    /// Int64 (a negation-based version overflows at Int64.min).
    @inlinable
    public static func floorDivide(_ a: Int64, by b: Int64) -> Int64 {
        precondition(b > 0, "floorDivide needs a positive divisor")
        let q = a / b
        return a % b < 0 ? q - 1 : q
    }

    /// `a mod b` in 0..<b, for `b > 0`. Total over Int64.
    @inlinable
    public static func floorModulo(_ a: Int64, by b: Int64) -> Int64 {
        precondition(b > 0, "floorModulo needs a positive divisor")
        let r = a % b
        return r < 0 ? r + b : r
    }
}
