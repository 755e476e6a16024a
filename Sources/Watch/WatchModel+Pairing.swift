import HAL
import Screens

/// Numeric-comparison pairing: the passkey takes the screen; the positive
/// button confirms, the negative button or `pairingTimeout` rejects. Every
/// request is answered exactly once through the sink, unless it ends
/// elsewhere first (`pairingFinished`).
extension WatchModel {
    /// The controller asks: shows `passkey`. A request still waiting is rejected first.
    public func pairingRequested(passkey: UInt32, now: MonotonicInstant) {
        if isAwaitingPairingAnswer { answerPairing(.rejected, now: now) }
        isAwaitingPairingAnswer = true
        if !isShowingPairing { screenBeforePairing = screen }
        screen = .pairing(passkey: passkey)
        keepAwakeChanged(now: now)
        pairingDeadline = now.advanced(by: settings.pairingTimeout)
        requestRender()
    }

    /// The pairing request ended elsewhere (completed or failed by the kernel).
    public func pairingFinished(now: MonotonicInstant) {
        guard isAwaitingPairingAnswer || isShowingPairing else { return }
        isAwaitingPairingAnswer = false
        leavePairingScreen(now: now)
    }

    var isShowingPairing: Bool {
        if case .pairing = screen { return true }
        return false
    }

    func answerPairing(_ answer: PairingAnswer, now: MonotonicInstant) {
        pairingDeadline = nil
        let waiting = isAwaitingPairingAnswer
        isAwaitingPairingAnswer = false
        leavePairingScreen(now: now)
        // Last: the answer may come straight back as `pairingFinished`.
        if waiting { effects.requestPairingAnswer(answer) }
    }

    func pairingTimedOut(now: MonotonicInstant) {
        answerPairing(.timedOut, now: now)
    }

    private func leavePairingScreen(now: MonotonicInstant) {
        pairingDeadline = nil
        keepAwakeChanged(now: now)
        if isShowingPairing { screen = screenBeforePairing }
        requestRender()
    }
}
