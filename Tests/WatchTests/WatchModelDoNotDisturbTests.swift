import ANCS
import Notifications
import BoardConfig
import HAL
import Screens
import Testing
import Watch

/// Do Not Disturb from the clock's menu: what it silences, the hour that
/// ends on its own, and the state handed to whoever keeps it.
@Suite struct WatchModelDoNotDisturbTests {
    final class Kept {
        var states: [DoNotDisturbState] = []
    }

    static func rig() -> (ModelRig, Kept) {
        let rig = ModelRig()
        let kept = Kept()
        rig.sink.doNotDisturbKept = { kept.states.append($0) }
        rig.connect()
        _ = rig.sink.take()
        return (rig, kept)
    }

    @Test func forOneHourEndsOnItsOwn() {
        let (rig, kept) = Self.rig()
        rig.press(.positive, .longPress)
        #expect(rig.screen == .doNotDisturbMenu(selected: 0))
        let chosen = rig.now
        rig.press(.positive)
        let end = chosen.advanced(by: .seconds(3600))
        #expect(rig.screen == .idleClock)
        #expect(rig.model.doNotDisturb == .until(end))
        #expect(kept.states == [.until(end)])
        rig.advance(by: .seconds(3599))
        #expect(rig.model.isDoNotDisturbOn)
        rig.advance(by: .seconds(1))
        #expect(rig.model.doNotDisturb == .off)
        #expect(kept.states == [.until(end), .off])
    }

    @Test func untilTurnedOffHasNoTimerAndTheMenuOffersOff() {
        let (rig, kept) = Self.rig()
        rig.press(.positive, .longPress)
        rig.press(.down)
        rig.press(.select)
        #expect(rig.model.doNotDisturb == .untilTurnedOff)
        rig.advance(by: .seconds(60))  // the display goes dark: nothing else is timed
        #expect(rig.model.nextDeadline == nil)
        rig.press(.positive)  // wakes
        rig.press(.positive, .longPress)
        #expect(rig.screen == .doNotDisturbMenu(selected: 2), "while on, Off is highlighted")
        rig.press(.positive)
        #expect(rig.model.doNotDisturb == .off)
        #expect(kept.states == [.untilTurnedOff, .off])
    }

    @Test func cancellingChangesNothing() {
        let (rig, kept) = Self.rig()
        rig.press(.positive, .longPress)
        rig.press(.negative)
        #expect(rig.screen == .idleClock)
        #expect(rig.model.doNotDisturb == .off)
        #expect(kept.states.isEmpty)
    }

    @Test func itSilencesTheMotorAndPopUpsButKeepsTheList() {
        let (rig, _) = Self.rig()
        rig.model.restoreDoNotDisturb(remaining: nil, now: rig.now)
        rig.add(1, .social, flags: [.important])
        #expect(rig.sink.take() == [])
        #expect(rig.screen == .idleClock)
        #expect(rig.model.unread == 1)
        #expect(rig.listUIDs == [1])
        rig.add(2, .incomingCall, flags: [.positiveAction])
        #expect(rig.sink.take().contains(.play("ring")), "calls always ring")
    }

    @Test func aRestoredHourKeepsItsRemainder() {
        let (rig, kept) = Self.rig()
        rig.model.restoreDoNotDisturb(remaining: .seconds(600), now: rig.now)
        #expect(rig.model.doNotDisturb == .until(rig.now.advanced(by: .seconds(600))))
        #expect(kept.states.isEmpty, "restoring writes nothing back")
        rig.advance(by: .seconds(600))
        #expect(rig.model.doNotDisturb == .off)
        rig.model.restoreDoNotDisturb(remaining: .seconds(-5), now: rig.now)
        #expect(rig.model.doNotDisturb == .off, "an hour that ended while the watch was down")
    }
}
