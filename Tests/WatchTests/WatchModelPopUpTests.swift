import ANCS
import Notifications
import HAL
import Screens
import Testing
import Watch

/// A new alert's pop-up opens once, complete: when its attributes (title,
/// message, the app's name) have arrived, or `popUpWait` after it was
/// announced with what is there. Drawing it at once drew it twice.
@Suite struct WatchModelPopUpTests {
    static func rig() -> ModelRig {
        var s = ModelRig.defaultSettings()
        s.popUpWait = .milliseconds(150)
        let rig = ModelRig(settings: s)
        rig.connect()
        rig.sink.renders = 0
        return rig
    }

    @Test func itOpensWhenItsAttributesAndAppNameHaveArrivedAndIsDrawnOnce() {
        let rig = Self.rig()
        let announced = rig.now
        rig.add(7, .social, flags: [.important])
        // The motor and the fetch go at once; the screen waits.
        #expect(rig.sink.take() == [.play("double"), .shown(7)])
        #expect(rig.screen == .idleClock)
        #expect(rig.model.pendingPopUp == NotificationUID(7))
        #expect(rig.sink.renders == 0, "nothing drawn for it yet")
        #expect(rig.model.nextDeadline == rig.now.advanced(by: .milliseconds(150)))

        rig.advance(by: .milliseconds(30))
        #expect(rig.phone!.answer() == "notification 7")
        #expect(rig.screen == .idleClock, "the app's name is still being fetched")
        #expect(rig.sink.renders == 0)
        rig.advance(by: .milliseconds(30))
        #expect(rig.phone!.answer() == "app")
        #expect(rig.screen == .detail(NotificationUID(7), scroll: 0))
        #expect(rig.model.pendingPopUp == nil)
        #expect(rig.sink.renders == 1, "drawn once, when it opened")
        let opened = rig.sink.renders
        #expect(rig.model.nextDeadline! > announced.advanced(by: .milliseconds(150)), "no pop-up deadline is left")
        rig.advance(by: .milliseconds(200))
        #expect(rig.sink.renders == opened, "nothing redraws it when the bound passes")
        #expect(rig.phone!.unanswered.isEmpty)
    }

    @Test func aKnownAppOpensWithTheFirstAnswer() {
        let rig = Self.rig()
        rig.add(1)
        rig.phone!.answer()
        rig.phone!.answer()
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0))
        rig.press(.back)
        rig.add(2)
        #expect(rig.screen != .detail(NotificationUID(2), scroll: 0))
        #expect(rig.phone!.answer() == "notification 2")
        #expect(rig.screen == .detail(NotificationUID(2), scroll: 0), "the app's name is cached: nothing else to wait for")
    }

    @Test func withoutAnAnswerItOpensAtTheBoundWithWhatItHas() {
        let rig = Self.rig()
        rig.add(3, .email)
        rig.advance(by: .milliseconds(149))
        #expect(rig.screen == .idleClock)
        rig.advance(by: .milliseconds(1))
        #expect(rig.screen == .detail(NotificationUID(3), scroll: 0))
        #expect(rig.sink.renders == 1)
    }

    @Test func aRemovalBeforeItOpensCancelsIt() {
        let rig = Self.rig()
        rig.add(4)
        rig.remove(4)
        rig.advance(by: .milliseconds(300))
        #expect(rig.screen == .idleClock)
        #expect(rig.model.pendingPopUp == nil)
    }

    @Test func aCallThatArrivesMeanwhileKeepsTheScreen() {
        let rig = Self.rig()
        rig.add(5)
        rig.add(6, .incomingCall)
        #expect(rig.screen == .incomingCall(NotificationUID(6)))
        rig.advance(by: .milliseconds(300))
        #expect(rig.screen == .incomingCall(NotificationUID(6)))
    }

    @Test func aNewerAlertReplacesTheOneWaiting() {
        let rig = Self.rig()
        rig.add(8)
        rig.advance(by: .milliseconds(100))
        rig.add(9)
        rig.advance(by: .milliseconds(100))
        #expect(rig.screen == .idleClock, "9 has its own 150 ms")
        rig.advance(by: .milliseconds(50))
        #expect(rig.screen == .detail(NotificationUID(9), scroll: 0))
    }

    @Test func theSessionEndingCancelsIt() {
        let rig = Self.rig()
        rig.add(10)
        rig.disconnect()
        rig.advance(by: .milliseconds(300))
        #expect(rig.screen == .waitingForPhone)
        #expect(rig.model.pendingPopUp == nil)
    }

    @Test func silentNotificationsDoNotPopUp() {
        let rig = Self.rig()
        rig.add(11, flags: [.silent])
        #expect(rig.model.pendingPopUp == nil)
        #expect(rig.sink.renders == 1, "the list and the unread count change")
    }
}
