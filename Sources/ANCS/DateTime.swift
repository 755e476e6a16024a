import HAL
import Notifications

/// The Date notification attribute: a wall-clock date-time in the phone's
/// local time zone, sent as `yyyyMMdd'T'HHmmSS` (Unicode Technical Standard
/// #35; the trailing `SS` is seconds in practice: `20140509T193000`).
///
/// It carries no time zone, so it is kept as calendar fields rather than an
/// instant. Parsing is total: anything but 15 bytes of digits with a `T` in
/// the middle, or an impossible calendar value, yields nil.
public struct ANCSDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// Validating initializer; nil for an impossible date or time.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses the attribute's bytes.
    public init?(parsing bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 15, bytes[8] == UInt8(ascii: "T") else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            var i = from
            while i < from + count {
                let c = bytes[i]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(c - UInt8(ascii: "0"))
                i += 1
            }
            return v
        }
        guard let y = digits(0, 4), let mo = digits(4, 2), let d = digits(6, 2),
            let h = digits(9, 2), let mi = digits(11, 2), let s = digits(13, 2)
        else { return nil }
        self.init(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }

    /// Parses a string (convenience for tests and tools).
    public init?(_ text: String) {
        var copy = text
        guard let parsed = copy.withUTF8({ Self(parsing: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// The same wall-clock time, for calendar arithmetic.
    public var civil: CivilTime {
        CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second)
            < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    /// ISO 8601 without a zone, e.g. `2014-05-09T19:30:00`.
    public var description: String { civil.description }
}

/// The MessageSize notification attribute: the full length of the Message,
/// as ASCII decimal digits. nil for anything else (empty, signs, spaces,
/// overflow).
public enum MessageSize {
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var v = 0
        for c in bytes {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(c - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            v = s
        }
        return v
    }

    public static func parse(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}
