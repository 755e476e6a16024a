import Notifications
import HAL

/// How the screens write dates, without Foundation: a notification's age
/// ("5m", "2h"), weekday and month abbreviations. The calendar arithmetic is
/// HAL's `CivilTime`. Wall-clock times carry no zone; the phone's
/// notification dates and its Current Time are both local, so their
/// difference is right except across a DST change.
enum DateText {
    /// Seconds from a notification's date to `now` (negative when it is in the future).
    static func age(of date: CivilTime, at now: CivilTime) -> Int {
        Int(now.secondsSinceEpoch - date.secondsSinceEpoch)
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

    /// "09:05"
    static func appendTime(_ t: CivilTime, to out: TextScratch) {
        out.append(decimal: t.hour, width: 2).append(":").append(decimal: t.minute, width: 2)
    }

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
