import ANCS
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

    @Test func preExistingOrSilentCallsDoNotRing() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .incomingCall, flags: [.preExisting])
        rig.add(2, .incomingCall, flags: [.silent])
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .idleClock)
        #expect(rig.sink.take() == [])
    }

    @Test(arguments: [(ButtonRole.positive, ActionID.positive), (.negative, .negative)])
    func aButtonAnswersAndTheRingStopsAtOnce(role: ButtonRole, action: ActionID) {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.press(role)
        // The motor stops with the press; the call ends when the phone accepts.
        #expect(rig.sink.take() == [.stopMotor, .perform(action, 42)])
        #expect(rig.model.ringingCall == NotificationUID(42))
        rig.actionSent(42, action)
        #expect(rig.sink.take() == [.stopMotor])
        #expect(rig.model.ringingCall == nil)
        // The call notification is still on the phone: the list shows it.
        #expect(rig.screen == .list(selected: 0))
        #expect(!rig.model.keepsDisplayAwake)
    }

    @Test func theCallEndsWhenThePhoneRemovesIt() {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.remove(42)
        #expect(rig.sink.take() == [.stopMotor])
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .idleClock, "nothing left to list")
    }

    @Test func theCallEndsWhenTheLinkCannotTakeTheAnswer() {
        let rig = Self.ringing()
        _ = rig.sink.take()
        rig.sink.actionsAccepted = false
        rig.press(.positive)
        #expect(rig.sink.take() == [.stopMotor, .perform(.positive, 42), .stopMotor])
        #expect(rig.model.ringingCall == nil)
        #expect(rig.screen == .list(selected: 0))
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
