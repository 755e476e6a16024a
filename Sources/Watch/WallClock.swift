import HAL
import PhoneServices
import Screens

/// Where the time the watch shows comes from.
public enum TimeSource: String, Sendable {
    /// The phone's Current Time (CTS), advanced with the monotonic clock.
    case phone
    /// The system clock, synchronised by NTP.
    case system
    /// Neither: the watch shows `--:--` rather than a wrong time.
    case unknown
}

/// The watch's notion of "now" for the clock face and quiet hours.
///
/// A board without an RTC (a Raspberry Pi) boots with a wrong system clock
/// until NTP sets it, so the order is: the phone's time when it ever sent
/// one (kept across disconnects, advanced with the monotonic clock); else
/// the system clock when it is synchronised (`WatchSettings.systemClock`
/// returns nil when it is not); else unknown.
public struct WallClock {
    /// The phone's latest time, kept when the phone goes away.
    public private(set) var phoneClock: PhoneClock?
    /// The system clock in local time, nil while unsynchronised.
    let systemClock: @Sendable () -> CivilTime?

    public init(systemClock: @escaping @Sendable () -> CivilTime?) {
        self.systemClock = systemClock
    }

    /// The phone sent its time (a read or a notification); a phone that
    /// sends an unknown date leaves the last known one in place.
    public mutating func phoneTimeReceived(_ clock: PhoneClock) {
        guard clock.time.isDateKnown || phoneClock == nil else { return }
        phoneClock = clock
    }

    /// Which clock `time(at:)` reads.
    public func source(at now: MonotonicInstant) -> TimeSource {
        if phoneTime(at: now) != nil { return .phone }
        return systemClock() != nil ? .system : .unknown
    }

    /// The local time at `now`; nil when unknown.
    public func time(at now: MonotonicInstant) -> CivilTime? {
        phoneTime(at: now) ?? systemClock()
    }

    /// Minutes since local midnight (quiet hours); nil when the time is unknown.
    public func minuteOfDay(at now: MonotonicInstant) -> Int? {
        time(at: now).map { $0.hour * 60 + $0.minute }
    }

    /// When the phone's minute changes next; nil unless the phone is the source.
    public func nextPhoneMinute(after now: MonotonicInstant) -> MonotonicInstant? {
        phoneClock?.nextMinute(after: now)
    }

    private func phoneTime(at now: MonotonicInstant) -> CivilTime? {
        guard let t = phoneClock?.localTime(at: now) else { return nil }
        // The characteristic's own day-of-week is not kept: the date decides
        // the weekday (CivilTime.weekday).
        return CivilTime(
            year: Int(t.year), month: Int(t.month), day: Int(t.day),
            hour: Int(t.hours), minute: Int(t.minutes), second: Int(t.seconds))
    }
}
