import AMS
import HAL
import Haptics
import Notifications
import Screens

/// What the model decided during one input, as values: the shell (the
/// controller, or a test) takes them after the input returns and applies
/// them. The model never calls out, so nothing re-enters it or the phone's
/// notification source from inside their own calls, and it holds no
/// reference to its owner (Embedded Swift has no `weak`).
///
/// Each kind has a fixed slot, so the record never allocates and its bounds
/// are the slots: one action, one Remote Command, one pairing answer per
/// input (a second replaces the first and counts in `replaced`); up to
/// `shown.count` (8) notifications shown, past that they are dropped and
/// counted (their message loads when opened). Stopping the motor is a flag
/// that no later effect can drop.
public struct WatchEffects {
    /// Redraws asked for (the display coalesces them into one frame).
    public internal(set) var renderRequests = 0
    /// Stop the motor first (a ringing call was answered, declined or ended).
    public internal(set) var stopMotor = false
    /// Put the panel in this power state: the last one the input reached
    /// (dimming and going dark at the same instant is one step to off).
    public internal(set) var displayPower: DisplayPowerState?
    /// Then vibrate this (quiet hours, Do Not Disturb and the app rules already said yes).
    public internal(set) var play: VibrationPattern?
    /// Send this action on this notification to the phone. When it cannot
    /// be sent, tell the model: `actionNotSent(_:on:now:)`.
    public internal(set) var action: (NotificationAction, NotificationID)?
    /// Send this Remote Command to the phone's media player. When it cannot
    /// be sent, tell the model: `remoteCommandNotSent(_:)`.
    public internal(set) var remoteCommand: RemoteCommandID?
    /// Answer the waiting pairing request.
    public internal(set) var pairingAnswer: PairingAnswer?
    /// Ring the phone (true) or stop it ringing (the menu's "Find phone").
    public internal(set) var findPhone: Bool?
    /// Send a reply (the settings file's `replies[reply]`) or mute the app
    /// of a notification (its menu).
    public internal(set) var notificationRequest: (NotificationRequest, NotificationID, reply: Int)?
    /// The watch's battery is empty: power the board off cleanly (the
    /// board file's `battery.powerOffWhenCritical`).
    public internal(set) var powerOff = false
    /// Do Not Disturb changed on the watch (the menu, the hour ending): keep
    /// this state across restarts (a restored state is not written back).
    public internal(set) var doNotDisturb: DoNotDisturbState?
    /// The wearer muted or unmuted an app on the watch: keep `model.appMutes`.
    public internal(set) var mutesChanged = false
    /// The wearer's alarms changed: keep `model.alarms`.
    public internal(set) var alarmsChanged = false
    /// Notifications that went on screen (the source fetches their message),
    /// `shown[0..<shownCount]`.
    public internal(set) var shown = InlineArray<8, NotificationID>(repeating: NotificationID(0))
    public internal(set) var shownCount = 0
    /// Shown notifications past `shown`'s capacity, dropped.
    public internal(set) var shownDropped = 0
    /// One-per-input effects that replaced an earlier one of the same input.
    public internal(set) var replaced = 0

    public init() {}

    /// Nothing to apply.
    public var isEmpty: Bool {
        renderRequests == 0 && !stopMotor && play == nil && displayPower == nil && action == nil
            && remoteCommand == nil && pairingAnswer == nil && findPhone == nil && notificationRequest == nil && doNotDisturb == nil && shownCount == 0 && !powerOff
            && !mutesChanged && !alarmsChanged
    }

    /// The notifications shown, in the order the model showed them.
    public func forEachShown(_ body: (NotificationID) -> Void) {
        var i = 0
        while i < shownCount {
            body(shown[i])
            i += 1
        }
    }

    mutating func requestRender() { renderRequests += 1 }

    mutating func requestStopMotor() {
        stopMotor = true
        play = nil  // a pattern asked for earlier in this input is over too
    }

    mutating func requestPlay(_ pattern: VibrationPattern) { play = pattern }

    mutating func requestDisplayPower(_ state: DisplayPowerState) { displayPower = state }

    mutating func requestAction(_ action: NotificationAction, on uid: NotificationID) {
        if self.action != nil { replaced += 1 }
        self.action = (action, uid)
    }

    mutating func requestRemoteCommand(_ command: RemoteCommandID) {
        if remoteCommand != nil { replaced += 1 }
        remoteCommand = command
    }

    mutating func requestPairingAnswer(_ answer: PairingAnswer) {
        if pairingAnswer != nil { replaced += 1 }
        pairingAnswer = answer
    }

    mutating func requestFindPhone(_ on: Bool) { findPhone = on }

    mutating func requestPowerOff() { powerOff = true }

    /// The wearer's alarms changed (or a one-time one switched itself off): keep them.
    mutating func keepAlarms() { alarmsChanged = true }

    mutating func requestNotification(_ request: NotificationRequest, on uid: NotificationID, reply: Int) {
        if notificationRequest != nil { replaced += 1 }
        notificationRequest = (request, uid, reply)
    }

    mutating func keepDoNotDisturb(_ state: DoNotDisturbState) { doNotDisturb = state }

    mutating func keepMutes() { mutesChanged = true }

    mutating func requestShown(_ uid: NotificationID) {
        guard shownCount < shown.count else {
            shownDropped += 1
            return
        }
        shown[shownCount] = uid
        shownCount += 1
    }
}

extension WatchModel {
    /// Takes the effects of the inputs since the last call (the record is
    /// empty afterwards). The shell applies them in this order: render,
    /// stop, display power, play, action, Remote Command, pairing, Do Not
    /// Disturb, shown.
    public func takeEffects() -> WatchEffects {
        let taken = effects
        effects = WatchEffects()
        return taken
    }

    /// Whether an input left effects to apply.
    public var hasEffects: Bool { !effects.isEmpty }

    /// The shell could not send the action the model asked for (no link, the
    /// write refused): the call or the detail screen showing it says so.
    public func actionNotSent(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant) {
        if activeCall == uid {
            actionRefused(action, on: uid, nil, now: now)
        } else {
            notificationActionRefused(action, on: uid, nil)
        }
    }

    /// The shell could not send the Remote Command (no AMS, not supported,
    /// queue full): Now Playing says so.
    public func remoteCommandNotSent(_ command: RemoteCommandID) {
        guard media.hasPlayer else { return }
        mediaNotice = MediaNotice(failed: command, playing: isMediaPlaying)
        requestRender()
    }
}
