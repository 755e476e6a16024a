import ANCS

/// Calendar arithmetic for ages ("5m", "2h") and weekdays, without
/// Foundation: days since 1970-01-01 in the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil`). Wall-clock times carry no zone; the
/// phone's notification dates and its Current Time are both local, so their
/// difference is right except across a DST change.
enum CivilTime {
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = month > 2 ? month - 3 : month + 9
        let doy = (153 * m + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Seconds since 1970-01-01T00:00:00 of the same (unknown) zone.
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    static func seconds(_ t: WallClockTime) -> Int {
        seconds(year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second)
    }

    static func seconds(_ t: ANCSDateTime) -> Int {
        seconds(year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second)
    }

    /// 1 Monday ... 7 Sunday (1970-01-01 was a Thursday).
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let d = days(year: year, month: month, day: day)
        let fromMonday = ((d + 3) % 7 + 7) % 7
        return fromMonday + 1
    }

    /// The weekday a time says, or the one its date falls on.
    static func weekday(_ t: WallClockTime) -> Int {
        if let w = t.weekday, (1...7).contains(w) { return w }
        return weekday(year: t.year, month: t.month, day: t.day)
    }

    /// Appends a notification's age: "now" under a minute (or in the
    /// future), then "5m", "2h", "3d", "9w" (over 99 days).
    static func appendAge(seconds delta: Int, to out: TextScratch) {
        if delta < 60 {
            out.append("now")
        } else if delta < 3_600 {
            out.append(decimal: delta / 60).append("m")
        } else if delta < 86_400 {
            out.append(decimal: delta / 3_600).append("h")
        } else if delta < 100 * 86_400 {
            out.append(decimal: delta / 86_400).append("d")
        } else {
            out.append(decimal: min(delta / (7 * 86_400), 999)).append("w")
        }
    }

    static let weekdayNames: StaticString = "MonTueWedThuFriSatSun"
    static let monthNames: StaticString = "JanFebMarAprMayJunJulAugSepOctNovDec"

    /// "Thu"
    static func appendWeekday(_ w: Int, to out: TextScratch) {
        let i = min(max(w, 1), 7) - 1
        out.append(UnsafeRawBufferPointer(rebasing: weekdayNames.rawBytes[(3 * i)..<(3 * i + 3)]))
    }

    /// "Mar"
    static func appendMonth(_ m: Int, to out: TextScratch) {
        let i = min(max(m, 1), 12) - 1
        out.append(UnsafeRawBufferPointer(rebasing: monthNames.rawBytes[(3 * i)..<(3 * i + 3)]))
    }
}
