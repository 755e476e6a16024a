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
    /// Vibrate: a notification or a call arrived.
    func watchPlay(_ pattern: VibrationPattern)
    /// Vibrate for a watch alert (the phone went away). False when quiet
    /// hours keep the motor still: the alert then stays silent altogether
    /// (the default implementation plays and says true).
    func watchPlayAlert(_ pattern: VibrationPattern) -> Bool
    /// Vibrate for an `alwaysAlert` app: quiet hours do not keep it still.
    func watchPlayIgnoringQuietHours(_ pattern: VibrationPattern)
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

extension WatchModelSink {
    /// By default an ordinary `watchPlay` (a sink without quiet hours).
    public func watchPlayIgnoringQuietHours(_ pattern: VibrationPattern) { watchPlay(pattern) }
}
