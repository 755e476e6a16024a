import HAL

/// Capture timestamps: btsnoop counts microseconds since a nominal 0 AD, we
/// show UTC. Pure integer arithmetic on HAL's `CivilTime` (no Foundation, no
/// time zone).
public enum DecodeTime {
    /// Microseconds from btsnoop's nominal 0 AD to 1970-01-01T00:00:00Z, the
    /// constant BlueZ and Wireshark use (0x00E03AB44A676000 is 2000-01-01):
    /// 719,540 days, which the proleptic Gregorian calendar counts from
    /// -0001-12-20 rather than 0000-01-01.
    public static let btsnoopEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// Microseconds since 1970-01-01T00:00:00Z of a btsnoop record's
    /// timestamp. Unsigned on the wire: the difference is taken without
    /// leaving UInt64, and the few timestamps too late for Int64 (after
    /// year 294,000) give Int64.max rather than wrapping to a date before 1970.
    public static func unixMicroseconds(btsnoop timestamp: UInt64) -> Int64 {
        let offset = UInt64(btsnoopEpochOffset)
        if timestamp >= offset { return Int64(clamping: timestamp - offset) }
        return -Int64(offset - timestamp)  // offset - timestamp ≤ offset < Int64.max
    }

    /// `18:30:05.000120`
    public static func timeOfDay(_ unixMicroseconds: Int64) -> String {
        let (t, us) = split(unixMicroseconds)
        return "\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2)).\(pad(us, 6))"
    }

    /// `2024-03-14T18:30:05.000120Z`
    public static func iso8601(_ unixMicroseconds: Int64) -> String {
        let (t, us) = split(unixMicroseconds)
        return "\(t).\(pad(us, 6))Z"
    }

    /// The UTC civil time and the microseconds past its second.
    static func split(_ unixMicroseconds: Int64) -> (CivilTime, Int) {
        let seconds = CivilTime.floorDivide(unixMicroseconds, by: 1_000_000)
        let us = Int(CivilTime.floorModulo(unixMicroseconds, by: 1_000_000))
        return (CivilTime(secondsSinceEpoch: seconds), us)
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
