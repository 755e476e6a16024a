/// Capture timestamps: btsnoop counts microseconds since 0000-01-01 (0 AD),
/// we show UTC. Pure integer arithmetic (no Foundation, no time zone).
public enum DecodeTime {
    /// Microseconds from 0000-01-01T00:00:00Z to 1970-01-01T00:00:00Z, as
    /// btsnoop uses them (BlueZ: 0x00E03AB44A676000 is 2000-01-01).
    public static let btsnoopEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// `18:30:05.000120`
    public static func timeOfDay(_ unixMicroseconds: Int64) -> String {
        let (_, _, _, h, m, s, us) = fields(unixMicroseconds)
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(us, 6))"
    }

    /// `2024-03-14T18:30:05.000120Z`
    public static func iso8601(_ unixMicroseconds: Int64) -> String {
        let (y, mo, d, h, m, s, us) = fields(unixMicroseconds)
        return "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(us, 6))Z"
    }

    static func fields(_ t: Int64) -> (Int64, Int64, Int64, Int64, Int64, Int64, Int64) {
        let us = floorMod(t, 1_000_000)
        let seconds = floorDiv(t, 1_000_000)
        let days = floorDiv(seconds, 86_400)
        let sod = floorMod(seconds, 86_400)
        let (y, mo, d) = civil(days: days)
        return (y, mo, d, sod / 3600, sod / 60 % 60, sod % 60, us)
    }

    /// Days since 1970-01-01 → proleptic Gregorian year, month, day
    /// (Howard Hinnant's `civil_from_days`).
    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }

    static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
