import AMS
import WearerSettings
import Notifications
import PhoneFeeds
import BoardConfig
import HAL
import Haptics
import Screens
import Timekeeping

/// The watch's decisions as a pure state machine, built like the ANCS
/// consumer: what is on screen, what a button does there, when the motor
/// runs, when the display dims and sleeps, when a pairing request times out
/// and when static content shifts against burn-in.
///
/// Inputs are method calls taking `now` (button gestures, the phone
/// connecting and going away, ANCS events, pairing requests, notices, link
/// changes); its outputs are values, `WatchEffects`, that the shell takes
/// (`takeEffects()`) and applies after the input returns; what applying
/// them gave comes back as inputs (`actionNotSent`, `remoteCommandNotSent`).
/// It calls nothing outside itself. It owns no timer: after every input the
/// controller arms one loop timer at `nextDeadline` and calls
/// `handleDeadline(now:)` when it fires. The phone's notifications are read
/// from its `any NotificationSource` (counts, flags, list order).
///
/// The rules are split by concern: WatchModel+Navigation (buttons, list and
/// detail), +Calls, +Pairing, +DisplayPower, +BurnInShift, +MinuteTick, +PopUp,
/// +DisconnectAlert, +Media, +VolumeBar.
///
/// A disconnect does not wipe the list: the last phone's store stays the
/// one shown (its notifications kept as "from the previous session") and
/// the next phone's store takes them over (`adoptPreviousSession`), to be
/// reconciled with what that session announces (docs/ancs.md).
/// Allocates only in `init`. Not thread-safe: use it from the loop's thread.
public final class WatchModel {
    /// What the inputs since the last `takeEffects()` decided.
    var effects = WatchEffects()
    public let settings: WatchSettings
    /// The watch's clock (the phone's time, else a synchronised system
    /// clock): the clock face and quiet hours read it.
    public internal(set) var wallClock: WallClock
    /// Vibrations quiet hours kept still (for tests and the week's soak).
    public internal(set) var vibrationsKeptStill = 0
    /// What vibrates for which notification.
    public let policy: VibrationPolicy
    /// The wearer's settings file: per-app rules, Do Not Disturb options
    /// (WatchModel+AppRules); set before the phone connects.
    public var userSettings = UserSettings.defaults
    let detailLayout: any NotificationDetailLayout

    public internal(set) var screen: Screen = .waitingForPhone
    /// The link to the phone as the status bar shows it.
    public internal(set) var link: PhoneLinkState = .off
    /// The notifications the screens show (an empty store without a phone).
    public internal(set) var notifications: any NotificationSource
    public internal(set) var isPhoneConnected = false
    /// Notifications added live and not yet seen in the list (the status
    /// bar's count): removals take theirs out, so it never exceeds the store.
    public var unread: Int { min(unreadNotifications.count, notifications.notificationCount) }
    var unreadNotifications = UnreadNotifications(capacity: WatchModel.unreadCapacity)
    /// The selected row of the list, newest first.
    public internal(set) var listSelection = 0

    /// Notifications counted in `unread` at most (the oldest goes past it).
    static let unreadCapacity = 64

    // Calls (WatchModel+Calls).
    /// The incoming call on the call screen, actionable until the phone
    /// accepts an answer, removes it, or the session ends.
    public internal(set) var activeCall: NotificationID?
    /// The call while it rings: from its arrival until a button answers it
    /// (the motor stops with the press) or it ends.
    public internal(set) var ringingCall: NotificationID?
    /// Shown on the call screen after the phone refused an answer.
    public internal(set) var callNotice: CallNotice?
    /// A call already ringing when the phone connected (PreExisting): it
    /// takes the screen once the pre-existing announcements settle.
    var callInProgress: NotificationID?
    var callInProgressDeadline: MonotonicInstant?

    // Actions on a notification (WatchModel+ActionNotice).
    /// Shown on the detail screen after the phone refused the wearer's action there.
    public internal(set) var actionNotice: ActionNotice?

    // Pop-ups (WatchModel+PopUp).
    /// The new alert whose pop-up waits for its attributes.
    public internal(set) var pendingPopUp: NotificationID?
    var popUpDeadline: MonotonicInstant?

    // Per-app rules (WatchModel+AppRules).
    /// The alert whose vibration and pop-up wait for its app.
    var pendingAlert: PendingAlert?
    /// The call whose ring waits for its app (some app is muted).
    var pendingRing: NotificationID?
    var pendingRingPattern: VibrationPattern?
    var pendingRingDeadline: MonotonicInstant?

    // Do Not Disturb (WatchModel+DoNotDisturb).
    public internal(set) var doNotDisturb = DoNotDisturbState.off
    var doNotDisturbDeadline: MonotonicInstant?

    // Pairing (WatchModel+Pairing).
    /// A passkey is on screen and its request waits for an answer.
    public internal(set) var isAwaitingPairingAnswer = false
    var screenBeforePairing: Screen = .waitingForPhone
    var pairingDeadline: MonotonicInstant?

    // Display power (WatchModel+DisplayPower).
    public internal(set) var displayPower: DisplayPowerState = .on
    var dimDeadline: MonotonicInstant?
    var offDeadline: MonotonicInstant?

    // Batteries (WatchModel+Battery).
    /// The board file's battery (thresholds); nil: the watch has none.
    public var battery: BatteryWiring?
    /// The watch's battery at its last reading (nil: none, or not read yet).
    public internal(set) var watchBattery: BatteryReading?
    // What the Status screen explains (WatchModel+Status).
    /// The phone shares its notifications: true once ANCS is subscribed or
    /// Gadgetbridge spoke, false when the phone offers no ANCS (an iPhone
    /// with Share System Notifications off); nil while not known.
    public var notificationsShared: Bool?
    /// The phone forgot this watch (a stale bond): "Pair again", until the
    /// link is encrypted again.
    public internal(set) var bondLost = false
    /// Apps muted from the wrist (WatchModel+AppMutes).
    public internal(set) var appMutes = AppMutes()
    /// Whether some phone is bonded (a link that keeps bonds reports it;
    /// nil: the link keeps none, as the simulated phone endpoint).
    public internal(set) var paired: Bool?
    /// The Bluetooth adapter went away (removed, or switched off by another
    /// program), until it is back.
    public internal(set) var adapterGone = false
    /// New notifications that arrived Silent in a row (a Focus is on, most
    /// likely): listed, not buzzed. A notification that may alert resets it.
    public internal(set) var silentInARow = 0
    /// The kind of phone on the link (the status screen), set by the shell
    /// as the phone shows it; unknown again when it goes.
    public var phoneKind = StatusReport.PhoneKind.unknown
    /// The phone's battery in percent (an iPhone's Battery Service), while known.
    public internal(set) var phoneBattery: Int?
    /// The low-battery notice was given (again below `lowPercent` only
    /// after charging or 5 points above it).
    var batteryLowWarned = false
    /// The critical level was reached: the power-off was asked for, once.
    public internal(set) var batteryCritical = false

    // Disconnect alert (WatchModel+DisconnectAlert).
    /// How long the phone may be gone, after the link was established,
    /// before a short vibration and a notice say so (nil: never). The board
    /// file's `bluetooth.disconnectAlertSeconds`.
    public var disconnectAlertDelay: Duration? = .seconds(10)
    /// The link got far enough for the alert to matter (encrypted, or an
    /// ANCS session started).
    public internal(set) var linkEstablished = false
    var disconnectAlertDeadline: MonotonicInstant?

    // Burn-in shift (WatchModel+BurnInShift), taken on a minute tick.
    /// Steps taken around the 2x2 pixel square so far.
    public internal(set) var shiftStep = 0
    var shiftDeadline: MonotonicInstant?
    /// `start` ran: the minute tick and the burn-in shift are on.
    public internal(set) var isStarted = false

    // Media (WatchModel+Media).
    /// The phone's media player as AMS last reported it (empty without AMS).
    public internal(set) var media = MediaState()
    /// Shown on Now Playing after a Remote Command failed.
    public internal(set) var mediaNotice: MediaNotice?
    /// Shown on Now Playing in place of the progress line until
    /// `volumeBarDeadline` (WatchModel+VolumeBar).
    public internal(set) var volumeBar: VolumeBar?
    var volumeBarDeadline: MonotonicInstant?

    // The phone's weather and calendar, and the watch menu (WatchModel+Feeds).
    /// Kept across phone links (the weather says how old it is).
    public let feeds = PhoneFeeds()
    /// The connected phone can be rung from the watch (Gadgetbridge).
    public internal(set) var canFindPhone = false
    /// The phone rings (the menu's "Find phone") until a button stops it.
    public internal(set) var isFindingPhone = false
    /// Calendar events left out because the agenda was full.
    public internal(set) var calendarEventsLeftOut = 0

    // Alarms, the timer, the stopwatch (WatchModel+Alarms, +AlarmEditor, +Timer).
    /// The wearer's alarms and the phone's.
    public internal(set) var alarms = AlarmList()
    public internal(set) var countdown = CountdownTimer()
    public internal(set) var stopwatch = Stopwatch()
    /// What rings now (an alarm or the timer), until a button or `ringDeadline`.
    public internal(set) var ringing: RingingAlert?
    var ringDeadline: MonotonicInstant?
    /// A snoozed alarm rings again at `snoozeDeadline`.
    public internal(set) var snoozedAlert: RingingAlert?
    var snoozeDeadline: MonotonicInstant?
    var screenBeforeRinging: Screen = .idleClock
    /// Local seconds up to which alarms were looked at (nil: not since the time became known).
    var alarmsCheckedUpTo: Int64?
    /// Alarms whose minute the clock stepped past by more than `alarmLateLimit`.
    public internal(set) var alarmsSkipped = 0
    /// A running timer or stopwatch on a lit panel redraws each second.
    var secondTickDeadline: MonotonicInstant?

    private let noPhone = NoNotifications()

    /// - Parameters:
    ///   - detailLayout: how far a notification scrolls (the renderer).
    ///   - now: the display is on from here; it dims `settings.dimAfter` later.
    public init(
        settings: WatchSettings, policy: VibrationPolicy, detailLayout: any NotificationDetailLayout,
        now: MonotonicInstant
    ) {
        self.settings = settings
        wallClock = WallClock(systemClock: settings.systemClock)
        self.policy = policy
        self.detailLayout = detailLayout
        notifications = noPhone
        restartPowerDeadlines(now: now)
    }

    /// The watch is running: the minute tick starts (while the panel is
    /// lit), and static content starts moving against burn-in.
    public func start(now: MonotonicInstant) {
        isStarted = true
        startBurnInShift(now: now)
    }

    // MARK: - The phone

    /// A phone connected; `notifications` is its source's store (which took
    /// over what the store shown until now kept from earlier sessions).
    // Not inlined: called for every new link and again when it turns out
    // to be Gadgetbridge's (one copy in the firmware, not two).
    @inline(never)
    public func phoneConnected(notifications store: any NotificationSource, now: MonotonicInstant) {
        notifications = store
        isPhoneConnected = true
        linkEstablished = false
        cancelDisconnectAlert()
        notificationsCleared()
        switch screen {
        case .pairing:
            break
        case .ringing:
            screenBeforeRinging = .idleClock
        case .list, .detail, .notificationMenu, .replyPicker:
            // Kept notifications were renumbered: back to the list's top.
            listSelection = 0
            screen = store.notificationCount > 0 ? .list(selected: 0) : .idleClock
        default:
            listSelection = 0
            screen = .idleClock
        }
        if link == .off || link == .advertising { linkChanged(.connected, now: now) }
        requestRender()
    }

    /// The link went away. Its store stays the one shown: what its session
    /// showed is kept as "from the previous session" (the consumer did that
    /// when the session ended), so the list and its screens stay; other
    /// screens go to waiting for the phone. The status bar no longer shows a
    /// connection (the link waits for the phone again, unless it already
    /// reported something else, such as Bluetooth off). If the link was
    /// established, the disconnect alert is due `disconnectAlertDelay` later.
    public func phoneDisconnected(now: MonotonicInstant) {
        guard isPhoneConnected else { return }
        isPhoneConnected = false
        canFindPhone = false
        isFindingPhone = false
        phoneBattery = nil  // the next phone says its own
        phoneKind = .unknown
        notificationsShared = nil
        silentInARow = 0
        media.reset()  // the phone's player went with it (Now Playing says "Nothing playing")
        mediaNotice = nil
        hideVolumeBar()
        startDisconnectAlert(now: now)
        endCall(now: now)
        notificationsCleared()
        if screen.isRinging {
            screenBeforeRinging = .waitingForPhone
        } else if !keepList() {
            listSelection = 0
            screen = .waitingForPhone
        }
        if link == .connected || link == .encrypted { link = .advertising }
        requestRender()
    }

    /// Where "back to the clock" goes: the clock, or without a phone the
    /// screen that waits for one.
    var clockScreen: Screen { isPhoneConnected ? .idleClock : .waitingForPhone }

    /// The store was emptied (a new phone, the session ended, the link
    /// went): nothing is unread, and no call in progress is waiting.
    func notificationsCleared() {
        cancelPopUp()
        unreadNotifications.removeAll()
        actionNotice = nil
        callInProgress = nil
        callInProgressDeadline = nil
    }

    /// The status bar's link indicator changed (advertising, connected, encrypted...).
    public func linkChanged(_ new: PhoneLinkState, now: MonotonicInstant) {
        guard new != link else { return }
        link = new
        if new == .encrypted {
            linkBecameEstablished()
            bondLost = false  // paired again
        }
        requestRender()
    }

    /// An event from the notification source (its store already updated).
    public func notificationEvent(_ event: NotificationEvent, now: MonotonicInstant) {
        switch event {
        case .added(let info):
            notificationAdded(info, now: now)
        case .modified:
            requestRender()
        case .contentArrived(let uid, _):
            if pendingRing == uid { ringAttributesArrived(uid, now: now) }
            // A pop-up waiting for them is drawn when it opens, not before.
            if pendingPopUp == uid { return popUpAttributesArrived(uid, now: now) }
            requestRender()
        case .removed(let uid, .reannounced(let same)):
            // A kept notification announced again: it is that one now.
            if case .detail(let shown, let scroll) = screen, shown == uid { screen = .detail(same, scroll: scroll) }
            clampSelection()
            requestRender()
        case .removed(let uid, _):
            if pendingPopUp == uid { cancelPopUp() }
            if actionNotice?.uid == uid { actionNotice = nil }
            unreadNotifications.remove(uid)
            if callInProgress == uid { callInProgress = nil }
            if activeCall == uid { endCall(now: now) }
            if screen.notification == uid { screen = .list(selected: listSelection) }
            clampSelection()
            requestRender()
        case .actionSent(let uid, _):
            if activeCall == uid { endCall(now: now) }
        case .actionFailed(let uid, let action, let error):
            actionRefused(action, on: uid, error, now: now)
            notificationActionRefused(action, on: uid, error)
        case .sessionEnded:
            sessionEnded(now: now)
        case .sessionStarted:
            if isPhoneConnected { linkBecameEstablished() }
            requestRender()  // the status bar's health mark
        case .healthChanged:
            requestRender()  // the status bar's health mark
        case .fetchFailed:
            break
        }
    }

    /// The session ended (unsubscribed, ANCS gone, re-subscribing): its
    /// UIDs are void. For a re-subscription what it showed is kept as "from
    /// the previous session" under the watch's own UIDs, so the list stays
    /// (a detail goes back to it); ANCS gone leaves nothing. A call screen goes.
    private func sessionEnded(now: MonotonicInstant) {
        endCall(now: now)
        notificationsCleared()
        switch screen {
        case .list, .detail, .incomingCall, .notificationMenu, .replyPicker:
            if !keepList() {
                listSelection = 0
                screen = clockScreen
            }
        case .idleClock, .waitingForPhone, .pairing, .message, .doNotDisturbMenu, .nowPlaying, .watchMenu, .weather, .agenda,
             .findingPhone, .status, .mutedApps, .alarms, .alarmEditor, .ringing, .timer, .stopwatch:
            break
        }
        requestRender()
    }

    /// On the list or a detail (which goes back to it) with entries left:
    /// stays on the list and says true.
    private func keepList() -> Bool {
        let count = notifications.notificationCount
        switch screen {
        case .list, .detail, .notificationMenu, .replyPicker:
            guard count > 0 else { return false }
            listSelection = min(listSelection, count - 1)
            screen = .list(selected: listSelection)
            return true
        default:
            return false
        }
    }

    private func notificationAdded(_ info: NotificationInfo, now: MonotonicInstant) {
        if !info.isPreExisting { silentInARow = info.flags.contains(.silent) ? min(silentInARow + 1, 99) : 0 }
        if info.isPreExisting {
            preExistingAdded(info, now: now)
        } else {
            unreadNotifications.insert(info.uid)
        }
        if info.category == .incomingCall && info.shouldAlert {
            liveCallArrived(info, now: now)
        } else if info.shouldAlert {
            // Vibration and pop-up, after the app's rule (WatchModel+AppRules).
            if alertArrived(info, now: now) { return }
        }
        requestRender()
    }

    /// Shows a one-line notice (for example "Pair again" after a stale bond).
    public func showNotice(_ text: String, now: MonotonicInstant) {
        wake(now: now)
        // A ringing alarm keeps the screen: the notice waits behind it.
        if ringing != nil { screenBeforeRinging = .message(text) } else { screen = .message(text) }
        requestRender()
    }

    // MARK: - Time

    /// When `handleDeadline` must run next: display dim / off, the pairing
    /// timeout, a call in progress settling, a pop-up's wait, the disconnect
    /// alert, Now Playing's volume bar, the countdown timer, a ring's minute,
    /// a snooze, the running timer's or stopwatch's second. nil when nothing
    /// is timed. Alarms are not here: they ring on the wall clock
    /// (`alarmToArm`).
    /// The burn-in shift is not here: it rides on the minute tick
    /// (`minuteTicked(now:)`), so an idle watch has no timer of its own.
    public var nextDeadline: MonotonicInstant? {
        earliest(
            earliest(
                earliest(earliest(dimDeadline, offDeadline), pairingDeadline),
                earliest(
                    earliest(earliest(callInProgressDeadline, popUpDeadline), disconnectAlertDeadline),
                    earliest(earliest(pendingRingDeadline, doNotDisturbDeadline), volumeBarDeadline))),
            earliest(earliest(countdown.deadline, ringDeadline), earliest(snoozeDeadline, secondTickDeadline)))
    }

    /// Runs whatever is due at `now`, earliest first (as separate timers would).
    public func handleDeadline(now: MonotonicInstant) {
        while let due = nextDeadline, due <= now {
            // Ties go dim, off, pairing, call in progress, disconnect alert, ring, Do Not Disturb, volume bar, pop-up.
            if dimDeadline == due {
                dimDeadlinePassed()
            } else if offDeadline == due {
                offDeadlinePassed()
            } else if pairingDeadline == due {
                pairingTimedOut(now: now)
            } else if callInProgressDeadline == due {
                callInProgressSettled(now: now)
            } else if disconnectAlertDeadline == due {
                disconnectAlertDue(now: now)
            } else if pendingRingDeadline == due {
                pendingRingDeadlinePassed(now: now)
            } else if doNotDisturbDeadline == due {
                doNotDisturbDeadlinePassed(now: now)
            } else if volumeBarDeadline == due {
                hideVolumeBar()
            } else if countdown.deadline == due {
                timerEnded(now: now)
            } else if ringDeadline == due {
                ringTimedOut(now: now)
            } else if snoozeDeadline == due {
                snoozeEnded(now: now)
            } else if secondTickDeadline == due {
                secondTicked(now: now)
            } else {
                popUpDeadlinePassed(now: now)
            }
        }
    }

    private func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    func requestRender() {
        effects.requestRender()
    }
}
