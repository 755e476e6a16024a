import HAL

/// Phone time anchored to the watch's monotonic clock: the phone's Current
/// Time as it arrived, advanced by the monotonic time elapsed since. It
/// stays valid after the link goes (the watch keeps it across disconnects:
/// a board without an RTC has no better clock).
public struct PhoneClock: Hashable, Sendable {
    public var time: CurrentTime
    public var receivedAt: MonotonicInstant
    public var localTimeInformation: LocalTimeInformation?

    public init(time: CurrentTime, receivedAt: MonotonicInstant, localTimeInformation: LocalTimeInformation? = nil) {
        self.time = time
        self.receivedAt = receivedAt
        self.localTimeInformation = localTimeInformation
    }

    /// The phone's local wall-clock time at `now` (the time it sent plus the
    /// monotonic time elapsed since); nil when the phone's date is unknown.
    public func localTime(at now: MonotonicInstant) -> CurrentTime? {
        guard let (seconds, _) = localSeconds(at: now) else { return nil }
        return CurrentTime(CivilTime(secondsSinceEpoch: seconds))
    }

    /// The phone's local time at `now` as whole seconds since 1970 (the
    /// local date and time read as if UTC) and the nanoseconds into that
    /// second, fractions256 included; nil when the date is unknown.
    public func localSeconds(at now: MonotonicInstant) -> (seconds: Int64, nanoseconds: Int64)? {
        guard let base = time.secondsSinceEpoch else { return nil }
        let elapsed = now.duration(since: receivedAt).nanosecondsClamped
        let fraction = Int64(time.fractions256) * 1_000_000_000 / 256
        // Whole seconds first, so no elapsed time (even a clamped one) overflows.
        let subsecond = CivilTime.floorModulo(elapsed, by: 1_000_000_000) + fraction  // 0 ..< 2 s
        let seconds = base + CivilTime.floorDivide(elapsed, by: 1_000_000_000) + subsecond / 1_000_000_000
        return (seconds, subsecond % 1_000_000_000)
    }

    /// The first monotonic instant after `now` at which the phone's minute
    /// changes (what `localTime(at:)` says turns hh:mm:59 into the next
    /// minute exactly there); nil when the date is unknown.
    public func nextMinute(after now: MonotonicInstant) -> MonotonicInstant? {
        guard let (seconds, nanoseconds) = localSeconds(at: now) else { return nil }
        let intoMinute = CivilTime.floorModulo(seconds, by: 60) * 1_000_000_000 + nanoseconds
        return now.advanced(by: .nanoseconds(60_000_000_000 - intoMinute))
    }
}
