import AMS
import Notifications
import Haptics

/// Where the watch model's decisions go: the controller draws, drives the
/// motor, talks to the phone and powers the panel. Called synchronously from
/// inside the model's inputs, with the model's state already updated; no call
/// allocates.
public protocol WatchModelSink: AnyObject {
    /// The screen or the status bar changed (the controller coalesces redraws).
    func watchRenderRequested()
    /// Vibrate (a notification, a call, the disconnect alert): the model
    /// already decided it should (quiet hours, Do Not Disturb, the app).
    func watchPlay(_ pattern: VibrationPattern)
    /// Stop the motor: the ringing call was answered, declined or ended.
    func watchStopMotor()
    /// Send the notification's positive or negative action to the phone.
    /// Returns false when the phone link could not take it.
    func watchPerformAction(_ action: NotificationAction, on uid: NotificationID) -> Bool
    /// The notification is on screen: fetch its message.
    func watchNotificationShown(_ uid: NotificationID)
    /// Answer the pairing request that is waiting.
    func watchAnswerPairing(_ answer: PairingAnswer)
    /// Put the panel in this power state.
    func watchApplyDisplayPower(_ state: DisplayPowerState)
    /// Send a Remote Command to the phone's media player (AMS). Returns
    /// false when it could not be sent (no AMS, not supported, queue full).
    func watchSendRemoteCommand(_ id: RemoteCommandID) -> Bool
}

/// How a numeric-comparison pairing request was answered.
public enum PairingAnswer: Sendable, Equatable {
    /// The positive button: the passkeys match.
    case confirmed
    /// The negative button, or a newer request replaced this one.
    case rejected
    /// Nobody answered within `WatchSettings.pairingTimeout`.
    case timedOut

    /// What the pairing agent is told.
    public var accepts: Bool { self == .confirmed }
}

