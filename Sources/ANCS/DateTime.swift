import HAL
import Notifications

/// The Date notification attribute: a wall-clock date-time in the phone's
/// local time zone, sent as `yyyyMMdd'T'HHmmSS` (Unicode Technical Standard
/// #35; the trailing `SS` is seconds in practice: `20140509T193000`).
///
/// It carries no time zone, so it is read into HAL's `CivilTime` (the one
/// calendar type: the phone's Current Time, the system clock and the screens
/// use it too), not an instant. Parsing is total: anything but 15 bytes of
/// digits with a `T` in the middle, or an impossible calendar value, yields nil.
public enum ANCSDate {
    /// Parses the attribute's bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> CivilTime? {
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
        let date = CivilTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        return date.isValid ? date : nil
    }

    /// Parses a string (convenience for tests and tools).
    public static func parse(_ text: String) -> CivilTime? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
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
