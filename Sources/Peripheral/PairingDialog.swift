import HAL
import Log
import Loop

/// Numeric-comparison pairing as a dialog on the watch: the kernel's User
/// Confirmation Request shows a 6-digit number (`onRequest`), the user's
/// answer (`answer`) goes back to the kernel, and a request nobody
/// answers within `timeout` is rejected. Just Works requests (no display, or
/// the kernel's confirm hint) are accepted without asking: the phone's own
/// "Pair" dialog is the consent. One request at a time.
///
/// Owned by `BluetoothPeripheral`: its `onPairingRequest` and
/// `onPairingEnded` are this dialog's callbacks, and it sets `controller`
/// while it runs.
final class PairingDialog {
    /// Show this 6-digit number, then call `answer`.
    var onRequest: ((UInt32) -> Void)?
    /// The dialog is over (answered, timed out, or ended): close the screen.
    var onEnded: ((_ accepted: Bool) -> Void)?
    /// Where the answer goes (nil while the peripheral is stopped).
    var controller: BluetoothController?

    /// The user rejected a pairing on the current link: an authentication
    /// failure that follows is that rejection, not a stale bond.
    private(set) var userRejected = false

    private var pending: (address: BluetoothAddress, type: BluetoothAddressType)?
    private let ioCapability: IOCapability
    private let timeout: Duration
    private let loop: any EventLoop
    private let logger: Logger
    private var timer: TimerID!

    init(ioCapability: IOCapability, timeout: Duration, loop: any EventLoop, logger: Logger) {
        self.ioCapability = ioCapability
        self.timeout = timeout
        self.loop = loop
        self.logger = logger
        timer = loop.makeTimer { [unowned(unsafe) self] in self.timedOut() }
    }

    deinit {
        loop.destroyTimer(timer)
    }

    /// mgmt User Confirmation Request: ask the user, or accept Just Works.
    func requested(by address: BluetoothAddress, _ type: BluetoothAddressType, confirmHint: UInt8, value: UInt32) {
        if confirmHint == 1 || ioCapability == .noInputNoOutput {
            // Just Works: nothing to compare; the phone's own dialog is the consent.
            logger.info("Just Works pairing with \(address): accepted")
            controller?.send(UserConfirmationReply(address: address, addressType: type, accept: true)) { _, _ in }
            return
        }
        pending = (address, type)
        loop.arm(timer, after: timeout)
        logger.info("pairing request from \(address): confirm \(Self.sixDigits(value)) on the watch")
        onRequest?(value)
    }

    /// The user's answer to the number shown; ignored when nothing is asked.
    func answer(_ accept: Bool) {
        guard let p = pending else { return }
        pending = nil
        loop.disarm(timer)
        userRejected = !accept
        logger.info("pairing with \(p.address) \(accept ? "confirmed" : "rejected") on the watch")
        controller?.send(UserConfirmationReply(address: p.address, addressType: p.type, accept: accept)) { [logger] status, _ in
            if status != .success { logger.warning("User Confirmation Reply failed: \(status)") }
        }
        onEnded?(accept)
    }

    /// Pairing failed, or the link or the adapter went away: an open dialog
    /// closes as not accepted (the kernel needs no answer any more).
    func end() {
        guard pending != nil else { return }
        pending = nil
        loop.disarm(timer)
        onEnded?(false)
    }

    /// A new phone connected: a rejection on an earlier link no longer counts.
    func linkOpened() {
        userRejected = false
    }

    private func timedOut() {
        guard pending != nil else { return }
        logger.info("pairing not confirmed within \(timeout.secondsText): rejected")
        answer(false)
    }

    /// "000042": the number as the phone shows it.
    static func sixDigits(_ v: UInt32) -> String {
        let s = String(v % 1_000_000)
        return String(repeating: "0", count: 6 - s.count) + s
    }
}
