import AMS
import HAL
import Notifications
import PhoneFeeds
import Screens
import Timekeeping

/// What the watch is doing now, read once, as a value: what the harness
/// reports (`state`) and a test can compare. Taking one reads the model,
/// the panel driver's counters and the motor; nothing is kept.
public struct WatchSnapshot: Sendable {
    public var screen: Screen
    public var displayPower: DisplayPowerState
    public var link: PhoneLinkState
    /// A phone session is running.
    public var isPhoneConnected: Bool
    /// Which phone the session has turned out to be ("iPhone", "android",
    /// "unknown"; nil without a session).
    public var phoneKind: String?
    public var notificationCount: Int
    public var ringingCall: NotificationID?
    public var isMotorOn: Bool
    /// The display bus as the driver counted it.
    public var displayBus: DisplayBusCounters
    /// The notification source's health.
    public var sourceHealth: NotificationSourceHealth
    public var doNotDisturb: DoNotDisturbState
    public var media: MediaState
    /// The phone's last weather report, and how many calendar events the watch holds.
    public var weather: WeatherReport?
    public var calendarEvents: Int
    /// Alarms the phone set.
    public var phoneAlarms: Int
    /// The wearer's alarms and the phone's; the next ring (local seconds, nil: none).
    public var alarms: AlarmList
    public var nextAlarm: Int64?
    /// What rings (an alarm or the timer), a snoozed alarm, the timer, the stopwatch.
    public var ringing: RingingAlert?
    public var snoozed: RingingAlert?
    public var timer: CountdownTimer
    public var stopwatch: Stopwatch
    /// The watch's battery at its last reading, and the phone's level.
    public var watchBattery: BatteryReading?
    public var phoneBattery: Int?
    /// What the Status screen says (its causes among it).
    public var status: StatusReport
    /// The loop's time when it was taken.
    public var now: MonotonicInstant
}

extension WatchController {
    /// The watch's state now, as a value (the harness's `state`).
    public var snapshot: WatchSnapshot {
        WatchSnapshot(
            screen: model.screen, displayPower: model.displayPower, link: model.link, isPhoneConnected: session != nil,
            phoneKind: session?.phoneKind.rawValue,
            notificationCount: model.notifications.notificationCount, ringingCall: model.ringingCall,
            isMotorOn: motor?.isMotorOn == true, displayBus: displayBus, sourceHealth: model.notifications.health,
            doNotDisturb: model.doNotDisturb, media: model.media,
            weather: model.feeds.weather, calendarEvents: model.feeds.agenda.count,
            phoneAlarms: model.alarms.phoneCount, alarms: model.alarms, nextAlarm: model.nextAlarmRing(now: now),
            ringing: model.ringing, snoozed: model.snoozedAlert, timer: model.countdown, stopwatch: model.stopwatch,
            watchBattery: model.watchBattery, phoneBattery: model.phoneBattery,
            status: model.statusReport(now: now), now: now)
    }
}
