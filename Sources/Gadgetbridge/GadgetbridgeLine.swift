/// One line the phone wrote, told apart (docs/android.md, "The protocol").
/// Gadgetbridge writes Espruino JavaScript: its messages as `GB({...})`,
/// and on connecting a line that sets the clock, `setTime(<UTC seconds>);
/// E.setTimeZone(<hours>);...`. Lines may start with 0x10 (Espruino's
/// "do not echo this line"; older Gadgetbridge also sent Ctrl-C, 0x03).
/// Anything else is JavaScript for a Bangle.js
/// that this watch does not run: it is logged and dropped.
public enum GadgetbridgeLine {
    /// The JSON inside `GB(...)`, still to be read (the bytes are the line's own).
    case message(UnsafeRawBufferPointer)
    /// The phone's clock: UTC seconds since 1970, and its time zone's offset
    /// in seconds east of UTC when the line sets one.
    case setTime(utcSeconds: Int64, zoneOffsetSeconds: Int32?)
    /// Nothing but white space (and 0x10).
    case empty
    /// JavaScript for the Bangle.js itself.
    case other

    /// Tells `line` apart. The bytes stay where they are.
    public init(_ line: UnsafeRawBufferPointer) {
        var start = 0
        var end = line.count
        while start < end && (line[start] == 0x10 || line[start] == 0x03 || Self.isSpace(line[start])) { start += 1 }
        while end > start && (Self.isSpace(line[end - 1]) || line[end - 1] == UInt8(ascii: ";")) { end -= 1 }
        guard start < end else {
            self = .empty
            return
        }
        let text = UnsafeRawBufferPointer(rebasing: line[start..<end])
        if Self.hasPrefix(text, "GB(") {
            // Without its `)` it is still a message, cut: the reader says how.
            let end = text[text.count - 1] == UInt8(ascii: ")") ? text.count - 1 : text.count
            self = .message(UnsafeRawBufferPointer(rebasing: text[3..<end]))
            return
        }
        // A clock between 1970 and the end of year 9999 (what a calendar date holds).
        if let seconds = Self.argument(of: "setTime(", in: text, scale: 0), seconds >= 0 && seconds <= 253_402_300_799 {
            var zone: Int32? = nil
            // Hours, possibly fractional (India is 5.5): to seconds.
            if let milliHours = Self.argument(of: "E.setTimeZone(", in: text, scale: 3),
                milliHours >= -24_000 && milliHours <= 24_000
            {
                zone = Int32(milliHours * 3600 / 1000)
            }
            self = .setTime(utcSeconds: seconds, zoneOffsetSeconds: zone)
            return
        }
        self = .other
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

    private static func hasPrefix(_ text: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        guard text.count >= prefix.utf8CodeUnitCount else { return false }
        for k in 0..<prefix.utf8CodeUnitCount where text[k] != prefix.utf8Start[k] { return false }
        return true
    }

    /// The decimal number right after `call` (the first occurrence), times
    /// 10^scale toward zero; nil when absent or not a number that fits.
    private static func argument(of call: StaticString, in text: UnsafeRawBufferPointer, scale: Int) -> Int64? {
        let n = call.utf8CodeUnitCount
        guard text.count > n else { return nil }
        var at = 0
        while at + n <= text.count {
            var k = 0
            while k < n && text[at + k] == call.utf8Start[k] { k += 1 }
            if k == n { break }
            at += 1
        }
        guard at + n <= text.count else { return nil }
        var k = at + n
        var negative = false
        if k < text.count && text[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        var value: Int64 = 0
        var digits = 0
        var places = -1  // digits after the point taken so far (-1: no point yet)
        while k < text.count {
            let b = text[k]
            if b == UInt8(ascii: ".") && places < 0 {
                places = 0
            } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 18 else { return nil }
                if places < 0 || places < scale {
                    value = value * 10 + Int64(b - UInt8(ascii: "0"))
                    if places >= 0 { places += 1 }
                }
            } else {
                break
            }
            k += 1
        }
        guard digits > 0 else { return nil }
        for _ in max(0, places)..<scale {
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }  // found by Fuzz/GadgetbridgeLine: 18 digits, times 1000
            value = scaled
        }
        return negative ? -value : value
    }
}
