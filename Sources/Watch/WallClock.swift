import HAL
import PhoneServices
import Screens

/// The wall-clock time the watch shows: the phone's Current Time when the
/// phone sent one, else the system clock (`WatchSettings.systemClock`,
/// injected by the composition root).
public enum WallClock {
    /// The phone's time at `now`, when its date is known.
    static func phone(_ clock: PhoneClock, at now: MonotonicInstant) -> WallClockTime? {
        guard let t = clock.localTime(at: now) else { return nil }
        let weekday = t.dayOfWeek >= 1 && t.dayOfWeek <= 7 ? Int(t.dayOfWeek) : nil
        return WallClockTime(
            year: Int(t.year), month: Int(t.month), day: Int(t.day),
            hour: Int(t.hours), minute: Int(t.minutes), second: Int(t.seconds), weekday: weekday)
    }
}
