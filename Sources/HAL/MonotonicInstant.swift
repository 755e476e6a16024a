/// A point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds.
///
/// Every layer above the HAL reasons about time with this value type, so a
/// test can drive timer-based logic by handing in instants instead of sleeping.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }

    /// `self + d`, saturating at the ends instead of trapping.
    public func advanced(by d: Duration) -> MonotonicInstant {
        let delta = d.nanosecondsClamped
        if delta >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(UInt64(delta))
            return MonotonicInstant(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = UInt64(-(delta + 1)) + 1
        return MonotonicInstant(nanoseconds: nanoseconds > magnitude ? nanoseconds - magnitude : 0)
    }

    /// The duration from `other` to `self` (negative when `other` is later).
    public func duration(since other: MonotonicInstant) -> Duration {
        if self >= other { return .nanoseconds(Int64(clamping: nanoseconds - other.nanoseconds)) }
        return .nanoseconds(-Int64(clamping: other.nanoseconds - nanoseconds))
    }

    public static func + (a: Self, d: Duration) -> Self { a.advanced(by: d) }
    public static func - (a: Self, b: Self) -> Duration { a.duration(since: b) }

    public var description: String {
        let ms = nanoseconds / 1_000_000
        return "\(ms / 1000).\(String(ms % 1000).leftPadded(to: 3))s"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to Int64.
    public var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflow2) = ns.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return total
    }

    /// The duration in whole milliseconds, clamped to Int64.
    public var millisecondsClamped: Int64 { nanosecondsClamped / 1_000_000 }

    /// What the host's `"\(duration)"` prints ("0.5 seconds", "120.0 seconds"):
    /// Embedded Swift's Duration is not CustomStringConvertible.
    public var secondsText: String {
        let (seconds, attoseconds) = components
        return (Double(seconds) + Double(attoseconds) / 1e18).description + " seconds"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
