/// A point on the system's wall clock (CLOCK_REALTIME): nanoseconds since
/// 1970-01-01T00:00:00 UTC.
///
/// Unlike `MonotonicInstant` this clock can jump: `settimeofday`, NTP
/// stepping it at boot, the watch setting it from the phone. Timeouts use the
/// monotonic clock; only things tied to what a clock on the wall says (the
/// minute changing) use this one.
public struct WallClockInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanosecondsSinceEpoch: Int64

    public init(nanosecondsSinceEpoch: Int64) { self.nanosecondsSinceEpoch = nanosecondsSinceEpoch }

    public init(secondsSinceEpoch: Int64) { nanosecondsSinceEpoch = secondsSinceEpoch &* 1_000_000_000 }

    public static func < (a: Self, b: Self) -> Bool { a.nanosecondsSinceEpoch < b.nanosecondsSinceEpoch }

    /// `self + d`, saturating instead of trapping.
    public func advanced(by d: Duration) -> WallClockInstant {
        let (sum, overflow) = nanosecondsSinceEpoch.addingReportingOverflow(d.nanosecondsClamped)
        if overflow { return WallClockInstant(nanosecondsSinceEpoch: d > .zero ? .max : .min) }
        return WallClockInstant(nanosecondsSinceEpoch: sum)
    }

    /// The duration from `other` to `self` (negative when `other` is later).
    public func duration(since other: WallClockInstant) -> Duration {
        let (diff, overflow) = nanosecondsSinceEpoch.subtractingReportingOverflow(other.nanosecondsSinceEpoch)
        if overflow { return .nanoseconds(self > other ? Int64.max : Int64.min) }
        return .nanoseconds(diff)
    }

    /// The first whole minute strictly after this instant (a minute's own
    /// first nanosecond is the next one's start, not "now").
    public var nextWholeMinute: WallClockInstant {
        let minute: Int64 = 60_000_000_000
        let q = nanosecondsSinceEpoch / minute
        let floor = nanosecondsSinceEpoch % minute < 0 ? q - 1 : q
        return WallClockInstant(nanosecondsSinceEpoch: (floor + 1) &* minute)
    }

    /// The civil time (UTC) of this instant, to the second (floored).
    public var utc: CivilTime {
        let ns = nanosecondsSinceEpoch
        let seconds = ns / 1_000_000_000 - (ns % 1_000_000_000 < 0 ? 1 : 0)
        return CivilTime(secondsSinceEpoch: seconds)
    }

    public var description: String {
        let ms = CivilTime.floorModulo(nanosecondsSinceEpoch, by: 1_000_000_000) / 1_000_000
        let pad = ms < 10 ? "00" : ms < 100 ? "0" : ""
        return "\(utc).\(pad)\(ms)Z"
    }
}
