import ANCS
import Notifications
import HAL
import Screens
import Testing
import Watch

/// Numeric-comparison pairing: confirm, reject, timeout; each request is
/// answered once.
@Suite struct WatchModelPairingTests {
    @Test func thePositiveButtonConfirmsAndTheScreenComesBack() {
        let rig = ModelRig()
        rig.model.pairingRequested(passkey: 12345, now: rig.now)
        #expect(rig.screen == .pairing(passkey: 12345))
        #expect(rig.model.isAwaitingPairingAnswer && rig.model.keepsDisplayAwake)
        rig.press(.positive)
        #expect(rig.sink.take() == [.pairing(.confirmed)])
        #expect(rig.screen == .waitingForPhone)
        #expect(!rig.model.isAwaitingPairingAnswer)
    }

    @Test func theNegativeButtonRejects() {
        let rig = ModelRig()
        rig.connect()
        rig.model.pairingRequested(passkey: 999_999, now: rig.now)
        rig.press(.negative)
        #expect(rig.sink.take() == [.pairing(.rejected)])
        #expect(rig.screen == .idleClock)
    }

    @Test func unansweredItTimesOutAtThePairingTimeout() {
        var settings = ModelRig.defaultSettings()
        settings.pairingTimeout = .milliseconds(300)
        let rig = ModelRig(settings: settings)
        let asked = rig.now
        rig.model.pairingRequested(passkey: 111_111, now: rig.now)
        #expect(rig.model.nextDeadline == asked.advanced(by: .milliseconds(300)))
        rig.advance(by: .milliseconds(299))
        #expect(rig.sink.take() == [])
        rig.advance(by: .milliseconds(1))
        #expect(rig.sink.take() == [.pairing(.timedOut)])
        #expect(!PairingAnswer.timedOut.accepts)
        #expect(rig.screen == .waitingForPhone)
        // Answered once: a later press does nothing more.
        rig.press(.positive)
        rig.advance(by: .seconds(60))
        #expect(!rig.sink.take().contains { if case .pairing = $0 { true } else { false } })
    }

    @Test func aNewRequestRejectsTheOneWaiting() {
        let rig = ModelRig()
        rig.connect()
        rig.model.pairingRequested(passkey: 1, now: rig.now)
        rig.advance(by: .seconds(20))
        rig.model.pairingRequested(passkey: 2, now: rig.now)
        #expect(rig.sink.take() == [.pairing(.rejected)])
        #expect(rig.screen == .pairing(passkey: 2))
        // The new request has its own full timeout.
        rig.advance(by: .seconds(29))
        #expect(rig.sink.take() == [])
        rig.advance(by: .seconds(1))
        #expect(rig.sink.take() == [.pairing(.timedOut)])
        #expect(rig.screen == .idleClock, "back to the screen before the first request")
    }

    @Test func aRequestThatEndsElsewhereIsNotAnswered() {
        let rig = ModelRig()
        rig.connect()
        rig.model.pairingRequested(passkey: 1, now: rig.now)
        rig.model.pairingFinished(now: rig.now)
        #expect(rig.screen == .idleClock)
        #expect(rig.model.nextDeadline != nil)
        rig.advance(by: .seconds(60))
        #expect(!rig.sink.take().contains { if case .pairing = $0 { true } else { false } })
        // Finishing again changes nothing.
        rig.model.pairingFinished(now: rig.now)
        #expect(rig.screen == .idleClock)
    }

    @Test func theDisplayStaysOnWhileThePasskeyWaits() {
        let rig = ModelRig()
        rig.model.pairingRequested(passkey: 1, now: rig.now)
        rig.advance(by: .seconds(29))
        #expect(rig.model.displayPower == .on)
        #expect(rig.sink.take() == [])
        // After the timeout it counts down again from then.
        rig.advance(by: .seconds(1))
        rig.advance(by: .seconds(14))
        #expect(rig.model.displayPower == .on)
        rig.advance(by: .seconds(1))
        #expect(rig.model.displayPower == .dimmed)
    }

    @Test func anAlertDoesNotCoverThePasskey() {
        let rig = ModelRig()
        rig.connect()
        rig.model.pairingRequested(passkey: 7, now: rig.now)
        _ = rig.sink.take()
        rig.add(1, .social, flags: [.important])
        #expect(rig.screen == .pairing(passkey: 7))
        #expect(rig.sink.take() == [.play("double")], "it still vibrates")
        rig.press(.positive)
        #expect(rig.screen == .idleClock)
    }

    @Test func aPhoneConnectingDoesNotCoverThePasskey() {
        let rig = ModelRig()
        rig.model.pairingRequested(passkey: 7, now: rig.now)
        rig.connect()
        #expect(rig.screen == .pairing(passkey: 7))
        rig.press(.negative)
        // The screen before the request was the waiting screen.
        #expect(rig.screen == .waitingForPhone)
    }
}
