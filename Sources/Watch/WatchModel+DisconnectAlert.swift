import HAL
import Haptics

/// The disconnect alert: when the phone has been gone for
/// `disconnectAlertDelay` after the link was established, a short vibration
/// and a notice ("Phone disconnected"); nothing at all while quiet hours
/// keep the motor still. A reconnect within the delay says nothing.
///
/// "Established" means encrypted, or an ANCS session started: an iPhone
/// serves ANCS only over an encrypted link, so on real hardware this is the
/// moment the link was encrypted (or just after); the simulated board's
/// link is never encrypted, and there the alert is armed once the simulated
/// phone's ANCS subscription went through. A link that never got that far
/// (a phone that connected and went before pairing) raises no alert.
extension WatchModel {
    /// The notice the alert shows.
    public static let disconnectNotice = "Phone disconnected"

    func linkBecameEstablished() {
        linkEstablished = true
    }

    /// The link went: the alert is due later if the link had been established.
    func startDisconnectAlert(now: MonotonicInstant) {
        defer { linkEstablished = false }
        guard linkEstablished, let delay = disconnectAlertDelay else { return }
        disconnectAlertDeadline = now.advanced(by: delay)
    }

    func cancelDisconnectAlert() {
        disconnectAlertDeadline = nil
    }

    func disconnectAlertDue(now: MonotonicInstant) {
        disconnectAlertDeadline = nil
        guard !isPhoneConnected else { return }
        // Quiet hours: no vibration, and no notice lighting the display either.
        guard vibrate(.short, now: now) else { return }
        if case .pairing = screen { return }
        showNotice(Self.disconnectNotice, now: now)
    }
}

