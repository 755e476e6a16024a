import HAL
import Haptics
import Screens

/// How the watch behaves, beyond the wiring: display power, burn-in
/// protection, and what the buttons' gestures mean. Defaults suit a wrist;
/// tests shorten them.
public struct WatchSettings: Sendable {
    /// Dim the display after this long without a button press or an alert.
    public var dimAfter: Duration = .seconds(15)
    /// Switch the display off after this long (counted from the last activity).
    public var offAfter: Duration = .seconds(30)
    /// Contrast when dimmed (0...255); the board's contrast otherwise.
    public var dimContrast: UInt8 = 0x08
    /// Move static content by a pixel this often (OLED burn-in protection).
    public var pixelShiftInterval: Duration = .seconds(180)
    /// How long a new alert's pop-up waits for its attributes before it
    /// opens with what has arrived (WatchModel+PopUp); zero opens it at once.
    public var popUpWait: Duration = .milliseconds(150)
    /// How long a pairing request waits for a button before it is rejected.
    public var pairingTimeout: Duration = .seconds(30)
    /// A call already ringing when the phone connects (flagged PreExisting)
    /// takes the screen once the phone's pre-existing announcements have
    /// been quiet this long, if it is still there (see WatchModel+Calls).
    public var callInProgressSettle: Duration = .seconds(1)
    /// Where the time comes from while the phone has never sent its own:
    /// the system clock in the local time zone, or nil while it is not
    /// synchronised (the watch then shows `--:--`). The composition root
    /// injects LinuxHAL's `LocalClock` gated by `SystemClock.isSynchronised`;
    /// by default a fixed time, so nothing built without the root (a test)
    /// reads the host's clock. See `WallClock`.
    public var systemClock: @Sendable () -> CivilTime?
    /// Inside these hours (on the watch's clock, `WallClock`) nothing
    /// vibrates but an `alwaysAlert` app; nil, or the time unknown: never quiet.
    public var quietHours: QuietHours?
    /// Sets the system clock from the phone's time (the board option
    /// `setSystemClock`; needs CAP_SYS_TIME), called when the phone's time
    /// arrives while the system clock is unsynchronised. Takes the phone's
    /// local time (nanoseconds since 1970 of its date and time read as if
    /// UTC) and its UTC offset when the phone sent one. nil: never.
    public var setSystemClock: (@Sendable (_ localNanoseconds: Int64, _ utcOffsetSeconds: Int?) throws(HALError) -> Void)?

    /// The instant of a local time (local seconds: the local date and time
    /// read as if UTC), by the system's time zone rules: where the alarm
    /// timer is armed while the time comes from the system clock. The
    /// composition root injects LinuxHAL's `SystemClock.instant` (mktime);
    /// by default the local time is UTC, as `systemClock`'s fixed time is.
    public var wallInstant: @Sendable (_ localSeconds: Int64) -> WallClockInstant?

    /// What `systemClock` says unless one is injected: 2000-01-01 00:00, a Saturday.
    public static let fixedTime = CivilTime(year: 2000, month: 1, day: 1)

    public init(systemClock: @escaping @Sendable () -> CivilTime? = { WatchSettings.fixedTime },
                wallInstant: @escaping @Sendable (_ localSeconds: Int64) -> WallClockInstant? = { WallClockInstant(secondsSinceEpoch: $0) }) {
        self.systemClock = systemClock
        self.wallInstant = wallInstant
    }
}
