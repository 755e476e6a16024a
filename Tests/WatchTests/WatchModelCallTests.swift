import ANCS
import Notifications
import BoardConfig
import HAL
import Screens
import Testing
import Watch

/// Incoming calls: what rings, what stops it, what the screen does.
@Suite struct WatchModelCallTests {
    static func ringing() -> ModelRig {
        let rig = ModelRig()
        rig.connect()
        rig.add(42, .incomingCall, flags: [.positiveAction, .negativeAction])
        return rig
    }

    @Test func anIncomingCallRingsAndTakesTheScreen() {
        let rig = Self.ringing()
        #expect(rig.sink.take() == [.play("ring")])
        #expect(rig.model.ringingCall == NotificationUID(42))
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
        #expect(rig.model.keepsDisplayAwake)
    }

    @Test func silentCallsDoNotRing() {
        let rig = ModelRig()
        rig.connect()
        rig.add(2, .incomingCall, flags: [.silent])
        rig.add(3, .incomingCall, flags: [.silent, .preExisting])
        rig.advance(by: .seconds(5))
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .idleClock)
        #expect(rig.sink.take().filter { if case .power = $0 { false } else { true } } == [])
    }

    @Test(arguments: [(ButtonRole.positive, ActionID.positive), (.negative, .negative)])
    func aButtonAnswersAndTheRingStopsAtOnce(role: ButtonRole, action: ActionID) {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.press(role)
        // The motor stops with the press; the call leaves the screen when the phone accepts.
        #expect(rig.sink.take() == [.stopMotor, .perform(action, 42)])
        #expect(rig.model.ringingCall == nil, "it no longer rings")
        #expect(rig.model.activeCall == NotificationUID(42))
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
        rig.actionSent(42, action)
        #expect(rig.sink.take() == [])
        #expect(rig.model.activeCall == nil)
        // The call notification is still on the phone: the list shows it.
        #expect(rig.screen == .list(selected: 0))
        #expect(!rig.model.keepsDisplayAwake)
    }

    @Test func theCallEndsWhenThePhoneRemovesIt() {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.remove(42)
        #expect(rig.sink.take() == [.stopMotor], "still ringing: the motor stops")
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .idleClock, "nothing left to list")
    }

    /// Issue 19 item 6: the answer could not be sent: the call stays, says so.
    @Test func anAnswerTheLinkCannotTakeIsSaidAndTheCallStays() {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.sink.actionsAccepted = false
        rig.press(.positive)
        #expect(rig.sink.take() == [.stopMotor, .perform(.positive, 42)])
        #expect(rig.model.ringingCall == nil)
        #expect(rig.model.callNotice == .couldNotAnswer)
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
    }

    /// Issue 19 item 6: the phone refuses the answer (0xA3): the ring has
    /// stopped, the call screen says "Could not answer" and stays
    /// actionable until the phone removes the call.
    @Test(arguments: [(ButtonRole.positive, ActionID.positive, CallNotice.couldNotAnswer),
                      (.negative, .negative, .couldNotDecline)])
    func aRefusedAnswerIsSaidAndTheCallStaysActionable(role: ButtonRole, action: ActionID, notice: CallNotice) {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.press(role)
        rig.model.ancsEvent(.actionFailed(NotificationUID(42), action, .phone(.actionFailed)), now: rig.now)
        #expect(rig.model.ringingCall == nil, "the ring stopped with the press")
        #expect(rig.model.callNotice == notice)
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
        #expect(rig.model.keepsDisplayAwake)
        _ = rig.sink.take()
        // Still actionable: another press tries again (and clears the notice).
        rig.press(.negative)
        #expect(rig.sink.take() == [.perform(.negative, 42)])
        #expect(rig.model.callNotice == nil)
        rig.model.ancsEvent(.actionFailed(NotificationUID(42), .negative, .phone(.actionFailed)), now: rig.now)
        #expect(rig.model.callNotice == .couldNotDecline)
        // Until the phone removes it.
        rig.remove(42)
        #expect(rig.model.activeCall == nil)
        #expect(rig.model.callNotice == nil)
        #expect(rig.screen == .idleClock)
        #expect(!rig.model.keepsDisplayAwake)
    }

    @Test func aRefusalForAnotherNotificationOrACancelledActionLeavesTheCallAlone() {
        let rig = Self.ringing()
        rig.model.ancsEvent(.actionFailed(NotificationUID(7), .positive, .phone(.actionFailed)), now: rig.now)
        rig.model.ancsEvent(.actionFailed(NotificationUID(42), .positive, .cancelled), now: rig.now)
        #expect(rig.model.callNotice == nil)
        #expect(rig.model.ringingCall == NotificationUID(42))
    }

    // MARK: a call already ringing when the phone connects (issue 19 item 5)

    @Test func aCallAlreadyRingingWhenThePhoneConnectsRingsOnceTheFloodSettles() {
        let rig = ModelRig()
        rig.connect()
        _ = rig.sink.take()
        rig.add(1, .social, flags: [.preExisting])
        rig.add(2, .incomingCall, flags: [.preExisting, .positiveAction, .negativeAction])
        rig.add(3, .email, flags: [.preExisting])
        #expect(rig.model.ringingCall == nil, "not during the pre-existing announcements")
        rig.advance(by: .milliseconds(999))
        rig.add(4, .news, flags: [.preExisting])
        rig.advance(by: .milliseconds(999))
        #expect(rig.model.ringingCall == nil, "each announcement restarts the wait")
        rig.advance(by: .milliseconds(1))
        #expect(rig.model.ringingCall == NotificationUID(2))
        #expect(rig.model.activeCall == NotificationUID(2))
        #expect(rig.screen == .incomingCall(NotificationUID(2)))
        #expect(rig.sink.take() == [.play("ring"), .shown(2)], "it rings, and its caller is fetched first")
        #expect(rig.model.unread == 0, "pre-existing ones are not unread")
        // It answers like a live one.
        rig.press(.positive)
        #expect(rig.sink.take() == [.stopMotor, .perform(.positive, 2)])
        rig.actionSent(2)
        #expect(rig.model.activeCall == nil)
    }

    @Test func aPreExistingCallRemovedDuringTheFloodNeverRings() {
        let rig = ModelRig()
        rig.connect()
        _ = rig.sink.take()
        rig.add(2, .incomingCall, flags: [.preExisting])
        rig.remove(2)
        rig.advance(by: .seconds(5))
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .idleClock)
        #expect(rig.sink.take() == [])
    }

    @Test func aLiveCallDuringTheFloodWins() {
        let rig = ModelRig()
        rig.connect()
        rig.add(2, .incomingCall, flags: [.preExisting])
        rig.add(9, .incomingCall)
        _ = rig.sink.take()
        rig.advance(by: .seconds(5))
        #expect(rig.model.ringingCall == NotificationUID(9))
        #expect(rig.sink.take() == [])
    }

    @Test func aCallInProgressFollowsThePolicy() {
        var policy = VibrationPolicy.standard
        policy.setPattern(nil, for: .incomingCall)
        let rig = ModelRig(policy: policy)
        rig.connect()
        _ = rig.sink.take()
        rig.add(2, .incomingCall, flags: [.preExisting])
        rig.advance(by: .seconds(1))
        #expect(rig.screen == .incomingCall(NotificationUID(2)), "shown with its actions")
        #expect(rig.sink.take() == [.shown(2)], "but still, as the board asks")
    }

    @Test func aDisconnectBeforeTheFloodSettlesForgetsTheCall() {
        let rig = ModelRig()
        rig.connect()
        rig.add(2, .incomingCall, flags: [.preExisting])
        rig.disconnect()
        rig.connect()
        rig.advance(by: .seconds(5))
        #expect(rig.model.ringingCall == nil)
        #expect(rig.model.nextDeadline.map { $0 > rig.now } ?? true)
    }

    @Test func theCallEndsWithTheSessionOrThePhone() {
        let rig = Self.ringing()
        rig.phone!.consumer.sessionEnded(.unsubscribed, now: rig.now)
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .idleClock)

        let other = Self.ringing()
        _ = other.sink.take()
        other.disconnect()
        #expect(other.sink.take() == [.stopMotor])
        #expect(other.model.ringingCall == nil)
        #expect(other.screen == .waitingForPhone)
    }

    @Test func anotherNotificationDuringACallVibratesButLeavesTheCallOnScreen() {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.add(7, .social, flags: [.important])
        #expect(rig.sink.take() == [.play("double")])
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
        // An action on another notification leaves the ring alone.
        rig.actionSent(7)
        #expect(rig.model.ringingCall == NotificationUID(42))
    }

    /// The 60 s cap is the motor's (`HapticsConfiguration.ringMaxDuration`):
    /// the model keeps the call on screen, and the display on, until it ends.
    @Test func theModelHasNoRingLimitOfItsOwn() {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.advance(by: .seconds(120))
        #expect(rig.model.ringingCall == NotificationUID(42))
        #expect(rig.model.displayPower == .on)
        #expect(rig.sink.take() == [])
    }

    @Test func aPolicyCanKeepCallsStill() {
        var policy = VibrationPolicy.standard
        policy.setPattern(nil, for: .incomingCall)
        let rig = ModelRig(policy: policy)
        rig.connect()
        rig.add(42, .incomingCall)
        #expect(rig.sink.take() == [])
        #expect(rig.screen == .incomingCall(NotificationUID(42)), "it still rings on screen")
    }
}
