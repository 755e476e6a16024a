import Graphics
import HAL
import Notifications
import Timekeeping

/// What one screen of the watch shows. The app decides which screen is up
/// (navigation, calls, pairing); `ScreenRenderer` draws it.
public enum Screen: Sendable, Equatable {
    /// A big clock, the date, and the unread count.
    case idleClock
    /// No phone connected (advertising or Bluetooth off), with the watch's name.
    case waitingForPhone
    /// The notifications, newest first; `selected` indexes that order. The
    /// renderer scrolls to keep it visible and clamps it to the list.
    case list(selected: Int)
    /// One notification: app name, date, then title, subtitle and message as
    /// one scrolling body; `scroll` is the first body line shown (clamped,
    /// see `ScreenRenderer.detailMaxScroll`).
    case detail(NotificationID, scroll: Int)
    /// An incoming call: the caller (the notification's title) and the
    /// phone's action labels over the buttons that perform them.
    case incomingCall(NotificationID)
    /// Numeric-comparison pairing: six digits, zero-padded, and
    /// "Confirm" / "Reject" over the positive / negative buttons.
    case pairing(passkey: UInt32)
    /// A short notice ("Pair again: forget the watch in the phone's
    /// Bluetooth settings"), wrapped and centred under the status bar.
    case message(String)
    /// The Do Not Disturb menu ("For 1 hour", "Until I turn it off",
    /// "Off"); `selected` indexes `DoNotDisturbMenu.entries`.
    case doNotDisturbMenu(selected: Int)
    /// What the phone's media player plays (AMS): player, title, artist, a
    /// progress bar and the play state; "Nothing playing" without a player.
    /// Drawn from the `NowPlayingContent` handed to `render`.
    case nowPlaying
    /// The watch menu ("Weather", "Agenda", "Find phone"), from the clock's
    /// negative long press; `selected` indexes `WatchMenu.entries`.
    case watchMenu(selected: Int)
    /// The phone's last weather report (`PhoneFeeds.weather`).
    case weather
    /// The calendar's events not yet over, by start; `scroll` is the first
    /// one shown (clamped by the renderer).
    case agenda(scroll: Int)
    /// The phone rings (Gadgetbridge's "find phone") until a button stops it.
    case findingPhone
    /// What the phone offers for a notification besides its actions
    /// ("Reply", "Mute this app"; `NotificationMenu`), from the list's
    /// negative long press.
    case notificationMenu(NotificationID, selected: Int)
    /// The canned replies (the settings file's `replies`) for a notification.
    case replyPicker(NotificationID, selected: Int)
    /// The apps muted from the wrist (`AppMutes`), each with how long it
    /// stays muted; the positive button undoes the selected one.
    case mutedApps(selected: Int)
    /// What the watch knows of itself (`StatusReport`): the phone and its
    /// kind, both batteries, the time's source; `scroll` is the first row.
    case status(scroll: Int)
    /// The alarms: the wearer's, then the phone's, then "New alarm"
    /// (`TimekeepingView.alarms`); `selected` indexes those rows.
    case alarms(selected: Int)
    /// An alarm being set: its time and days, the field the buttons change.
    case alarmEditor(AlarmDraft)
    /// An alarm or the timer rings: what rings, "Snooze" / "Dismiss" (the
    /// timer: "Stop") over the buttons that do it.
    case ringing(RingingAlert)
    /// The countdown timer: its length or what is left, and the buttons'
    /// labels (`TimekeepingView.timer`).
    case timer
    /// The stopwatch: the time run and the latest laps (`TimekeepingView.stopwatch`).
    case stopwatch
}

/// An alarm as the editor holds it until it is saved.
public struct AlarmDraft: Sendable, Equatable {
    /// What the buttons change: the hour, the minute, the days, then the
    /// last step's choice (`AlarmDraft.Finish`).
    public enum Field: Int, Sendable, Equatable {
        case hour, minute, days, finish
    }

    /// What the last step does.
    public enum Finish: Int, Sendable, Equatable, CaseIterable {
        case save, delete
    }

    /// The wearer's alarm it edits (its row); nil: a new one.
    public var row: Int?
    public var alarm: Alarm
    public var field: Field
    public var finish: Finish

    public init(row: Int?, alarm: Alarm, field: Field = .hour, finish: Finish = .save) {
        self.row = row
        self.alarm = alarm
        self.field = field
        self.finish = finish
    }
}

/// What rings on the ringing screen.
public enum RingingAlert: Sendable, Equatable {
    /// An alarm set for this time of day (`snoozes`: times snoozed so far).
    case alarm(hour: Int, minute: Int, snoozes: Int)
    /// The countdown timer of this length ended.
    case timer(seconds: Int)
}

/// What the status bar (and the idle clock) shows.
public struct StatusInfo: Sendable, Equatable {
    /// The local wall-clock time, from the phone's Current Time Service when
    /// known, else the system clock; nil: unknown ("--:--"). Fields are not
    /// validated; the renderer clamps what it prints.
    public var time: CivilTime?
    public var link: PhoneLinkState
    /// Unread notifications (0 hides the count).
    public var unread: Int
    /// Do Not Disturb is on: a moon in the status bar.
    public var doNotDisturb = false
    /// The watch's battery (nil: it has none, or it was not read yet): a
    /// battery glyph at the bar's right end.
    public var battery: BatteryReading?

    public init(time: CivilTime?, link: PhoneLinkState, unread: Int, doNotDisturb: Bool = false, battery: BatteryReading? = nil) {
        self.time = time
        self.link = link
        self.unread = unread
        self.doNotDisturb = doNotDisturb
        self.battery = battery
    }
}

/// Where the positive and negative buttons sit next to the panel, so that
/// the labels of call and pairing screens are drawn over the buttons that
/// perform them (from the board file).
public struct ButtonPlacement: Sendable, Equatable {
    public var positive: ButtonCorner
    public var negative: ButtonCorner

    public init(positive: ButtonCorner = .bottomRight, negative: ButtonCorner = .bottomLeft) {
        self.positive = positive
        self.negative = negative
    }

    /// Positive bottom right, negative bottom left.
    public static let standard = ButtonPlacement()
}

extension Screen {
    /// The notification a detail screen, its menu or the reply picker is
    /// about (nil on other screens; a call screen is the call's own).
    public var notification: NotificationID? {
        switch self {
        case .detail(let uid, _), .notificationMenu(let uid, _), .replyPicker(let uid, _): uid
        default: nil
        }
    }
}
