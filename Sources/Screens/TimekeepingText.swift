import Timekeeping

/// How the alarm, timer and stopwatch screens write times, into a
/// `TextScratch` (no String, no allocation): an alarm's "07:30" and its
/// days ("Mon-Fri"), a timer's "4:59" or "99:00", a stopwatch's "0:41.2"
/// or "1:02:03".
enum TimekeepingText {
    /// "07:05" (clamped to 00:00...23:59).
    static func appendClock(hour: Int, minute: Int, to out: TextScratch) {
        out.append(decimal: min(max(hour, 0), 23), width: 2).append(":").append(decimal: min(max(minute, 0), 59), width: 2)
    }

    /// The days as `AlarmDays.text` says them: "Once", "Every day",
    /// "Mon-Fri", "Sat,Sun", or the days listed ("Mon,Wed,Fri"); longer
    /// than `maxCharacters`, cut with an ellipsis.
    static func appendDays(_ days: AlarmDays, maxCharacters: Int = .max, to out: TextScratch) {
        var length = 0
        forEachByte(of: days) { _ in length += 1 }
        let keep = length <= maxCharacters ? length : max(0, maxCharacters - 1)
        var n = 0
        forEachByte(of: days) { b in
            if n < keep { out.append(byte: b) }
            n += 1
        }
        if keep < length { out.append("\u{2026}") }
    }

    /// The bytes of the days' text (ASCII), in order.
    static func forEachByte(of days: AlarmDays, _ body: (UInt8) -> Void) {
        if days.isEmpty {
            for b in StaticString("Once").rawBytes { body(b) }
        } else if days == .everyDay {
            for b in StaticString("Every day").rawBytes { body(b) }
        } else if days == .weekdays {
            for b in StaticString("Mon-Fri").rawBytes { body(b) }
        } else if days == .weekend {
            for b in StaticString("Sat,Sun").rawBytes { body(b) }
        } else {
            let names = DateText.weekdayNames.rawBytes
            var first = true
            for d in 1...7 where days.contains(weekday: d) {
                if !first { body(UInt8(ascii: ",")) }
                first = false
                for i in (3 * (d - 1))..<(3 * d) { body(names[i]) }
            }
        }
    }

    /// A timer's length or what is left: "M:SS", minutes up to 99
    /// ("99:00", the longest the buttons set); from 100 minutes "H:MM:SS".
    static func appendLength(seconds: Int, to out: TextScratch) {
        let s = max(seconds, 0)
        if s >= 100 * 60 {
            appendHours(seconds: s, to: out)
        } else {
            out.append(decimal: s / 60).append(":").append(decimal: s % 60, width: 2)
        }
    }

    /// "M:SS" under an hour, else "H:MM:SS" (hours up to 99).
    static func appendHours(seconds: Int, to out: TextScratch) {
        let s = min(max(seconds, 0), 99 * 3600 + 59 * 60 + 59)
        if s >= 3600 {
            out.append(decimal: s / 3600).append(":").append(decimal: s / 60 % 60, width: 2)
        } else {
            out.append(decimal: s / 60)
        }
        out.append(":").append(decimal: s % 60, width: 2)
    }

    /// A time run: "M:SS" / "H:MM:SS", with the tenths ("0:41.2") when
    /// `tenths` (cut, not rounded: the display never runs ahead).
    static func appendElapsed(_ d: Duration, tenths: Bool, to out: TextScratch) {
        let (seconds, atto) = d.components
        let whole = seconds < 0 ? 0 : Int(min(seconds, Int64(99 * 3600 + 59 * 60 + 59)))
        appendHours(seconds: whole, to: out)
        if tenths {
            let tenth = seconds < 0 ? 0 : Int(atto / 100_000_000_000_000_000)
            out.append(".").append(decimal: min(max(tenth, 0), 9))
        }
    }
}
