import ANCS
import Notifications
import BoardConfig
import HAL
import Screens
import Testing
import Watch

/// Issue 17 item 3: an action the phone refuses on a notification's detail
/// screen ("Clear", "Mark as Read") is said there ("Could not clear"); the
/// notification stays and its buttons still act.
@Suite struct WatchModelActionNoticeTests {
    /// A message offering both actions, on its detail screen (it popped up).
    static func onDetail(flags: EventFlags = [.positiveAction, .negativeAction]) -> ModelRig {
        let rig = ModelRig()
        rig.connect()
        rig.add(7, .social, flags: flags)
        #expect(rig.screen == .detail(NotificationUID(7), scroll: 0))
        _ = rig.sink.take()
        return rig
    }

    func failed(_ rig: ModelRig, _ uid: UInt32, _ action: ActionID, _ error: ANCSRequestError = .phone(.actionFailed)) {
        rig.model.ancsEvent(.actionFailed(NotificationUID(uid), action, error), now: rig.now)
    }

    @Test(arguments: [(ButtonRole.positive, ActionID.positive), (.negative, .negative)])
    func aRefusedActionIsSaidAndTheNotificationStays(role: ButtonRole, action: ActionID) {
        let rig = Self.onDetail()
        rig.press(role)
        #expect(rig.sink.take() == [.perform(action, 7)])
        #expect(rig.model.actionNotice == nil, "nothing to say until the phone answers")
        let renders = rig.sink.renders
        failed(rig, 7, action)
        #expect(rig.model.actionNotice == ActionNotice(uid: NotificationUID(7), action: action))
        #expect(rig.sink.renders > renders, "the notice is drawn")
        #expect(rig.screen == .detail(NotificationUID(7), scroll: 0))
        #expect(rig.listUIDs == [7])
        // Still actionable: the next press clears the notice and tries again.
        rig.press(role)
        #expect(rig.model.actionNotice == nil)
        #expect(rig.sink.take() == [.perform(action, 7)])
        // Accepted this time: the phone removes it, the list goes with it.
        rig.remove(7)
        #expect(rig.model.actionNotice == nil)
        #expect(rig.screen == .idleClock)
    }

    @Test func anActionTheLinkCannotTakeIsSaidAtOnce() {
        let rig = Self.onDetail()
        rig.sink.actionsAccepted = false
        rig.press(.negative)
        #expect(rig.sink.take() == [.perform(.negative, 7)])
        #expect(rig.model.actionNotice == ActionNotice(uid: NotificationUID(7), action: .negative))
    }

    @Test(arguments: [ANCSRequestError.phone(.actionFailed), .phone(.invalidParameter), .att(0x0E), .timedOut])
    func everyFailureButACancellationIsSaid(error: ANCSRequestError) {
        let rig = Self.onDetail()
        rig.press(.negative)
        failed(rig, 7, .negative, error)
        #expect(rig.model.actionNotice?.action == .negative)
    }

    @Test func aCancelledActionOrAnotherNotificationsRefusalSaysNothing() {
        let rig = Self.onDetail()
        rig.press(.negative)
        failed(rig, 7, .negative, .cancelled)
        failed(rig, 8, .negative)
        #expect(rig.model.actionNotice == nil)
    }

    @Test func aRefusalAfterTheWearerLeftTheDetailSaysNothing() {
        let rig = Self.onDetail()
        rig.press(.negative)
        rig.press(.back)
        #expect(rig.screen == .list(selected: 0))
        failed(rig, 7, .negative)
        #expect(rig.model.actionNotice == nil)
    }

    @Test func anyButtonClearsTheNoticeAndLeavingTheScreenForgetsIt() {
        let rig = Self.onDetail()
        rig.press(.negative)
        failed(rig, 7, .negative)
        rig.press(.down)  // scrolling
        #expect(rig.model.actionNotice == nil)
        #expect(rig.screen == .detail(NotificationUID(7), scroll: 1))
        rig.press(.negative)
        failed(rig, 7, .negative)
        rig.disconnect()
        #expect(rig.model.actionNotice == nil, "the session's UIDs are void")
    }

    @Test func withoutTheActionThePressDoesNothing() {
        let rig = Self.onDetail(flags: [.negativeAction])
        rig.press(.positive)
        #expect(rig.sink.take() == [])
        #expect(rig.model.actionNotice == nil)
    }

    @Test func aCallKeepsItsOwnNotice() {
        let rig = ModelRig()
        rig.connect()
        rig.add(42, .incomingCall, flags: [.positiveAction, .negativeAction])
        rig.press(.negative)
        failed(rig, 42, .negative)
        #expect(rig.model.callNotice == .couldNotDecline)
        #expect(rig.model.actionNotice == nil)
    }
}
