import HAL
import WearerSettings
import Haptics
import PhoneServices

// The one place that decides whether the watch buzzes: the category's
// pattern (VibrationPolicy), the app's rule and Do Not Disturb are applied
// by the callers (WatchModel+AppRules, +Calls, +DisconnectAlert); quiet
// hours here, on the watch's own clock. The motor only plays.

extension WatchModel {
    /// Whether `now` falls in the quiet hours by the watch's clock (never
    /// while the time is unknown).
    public func isQuietHours(at now: MonotonicInstant) -> Bool {
        guard let quiet = settings.quietHours, let time = wallClock.time(at: now) else { return false }
        return quiet.contains(weekday: time.weekday, minuteOfDay: time.hour * 60 + time.minute)
    }

    /// Plays `pattern` unless quiet hours keep the motor still (`anyHour`:
    /// an alert the wearer wants at any hour, an `alwaysAlert` app). False
    /// when it stayed still.
    @discardableResult
    func vibrate(_ pattern: VibrationPattern, now: MonotonicInstant, anyHour: Bool = false) -> Bool {
        if !anyHour && isQuietHours(at: now) {
            vibrationsKeptStill += 1
            return false
        }
        effects.requestPlay(pattern)
        return true
    }

    /// The phone sent its time: it becomes the watch's clock (kept after
    /// the phone goes, see `WallClock`).
    public func phoneTimeReceived(_ clock: PhoneClock) {
        wallClock.phoneTimeReceived(clock)
    }
}
