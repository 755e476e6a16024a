import ANCS
import Notifications
import HAL
import Screens
import Testing
import Watch

/// Display power: on, dimmed after `dimAfter`, off after `offAfter`; what
/// wakes it; a press that only wakes a dark display does nothing else.
@Suite struct WatchModelDisplayPowerTests {
    @Test func itDimsThenSleeps() {
        let rig = ModelRig()
        let start = rig.now
        #expect(rig.model.nextDeadline == start.advanced(by: .seconds(15)))
        rig.advance(by: .seconds(15))
        #expect(rig.model.displayPower == .dimmed)
        #expect(rig.sink.take() == [.power(.dimmed)])
        #expect(rig.model.nextDeadline == start.advanced(by: .seconds(30)))
        rig.advance(by: .seconds(15))
        #expect(rig.model.displayPower == .off)
        #expect(rig.sink.take() == [.power(.off)])
        // Dark: nothing is timed (the burn-in shift rides on the minute
        // tick, which does not run in the dark).
        #expect(rig.model.nextDeadline == nil)
        #expect(!rig.model.wantsMinuteTicks)
    }

    @Test func aPressThatWakesADarkDisplayDoesNothingElse() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.silent])
        rig.advance(by: .seconds(30))
        _ = rig.sink.take()
        let renders = rig.sink.renders
        rig.press(.positive)
        #expect(rig.sink.take() == [.power(.on)])
        #expect(rig.screen == .idleClock, "the list did not open")
        #expect(rig.sink.renders > renders)
        // Awake again: the timers count from the press.
        #expect(rig.model.nextDeadline == rig.now.advanced(by: .seconds(15)))
        rig.press(.positive)
        #expect(rig.screen == .list(selected: 0))
    }

    @Test func aPressOnADimmedDisplayWakesItAndActs() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .social, flags: [.silent])
        rig.advance(by: .seconds(20))
        _ = rig.sink.take()
        rig.press(.positive)
        #expect(rig.sink.take() == [.power(.on)])
        #expect(rig.screen == .list(selected: 0))
    }

    @Test func anImportantAlertWakesItAnOrdinaryOneDoesNot() {
        let rig = ModelRig()
        rig.connect()
        rig.advance(by: .seconds(30))
        _ = rig.sink.take()
        rig.add(1, .social)
        #expect(rig.model.displayPower == .off)
        #expect(rig.sink.take() == [.shown(1)], "and by default it does not vibrate")
        rig.add(2, .social, flags: [.important])
        #expect(rig.model.displayPower == .on)
        #expect(rig.sink.take() == [.power(.on), .play("double"), .shown(2)])
    }

    @Test func aNoticeWakesIt() {
        let rig = ModelRig()
        rig.advance(by: .seconds(30))
        _ = rig.sink.take()
        rig.model.showNotice("Pair again: the phone forgot this watch", now: rig.now)
        #expect(rig.sink.take() == [.power(.on)])
        #expect(rig.screen == .message("Pair again: the phone forgot this watch"))
    }

    @Test func aCallWakesItAndKeepsItOnUntilItEnds() {
        let rig = ModelRig()
        rig.connect()
        rig.advance(by: .seconds(30))
        _ = rig.sink.take()
        rig.add(42, .incomingCall, flags: [.positiveAction, .negativeAction])
        #expect(rig.sink.take() == [.power(.on), .play("ring")])
        rig.advance(by: .seconds(45))
        #expect(rig.model.displayPower == .on)
        // The press answers (the display is on anyway).
        rig.press(.negative)
        #expect(rig.sink.take() == [.stopMotor, .perform(.negative, 42)])
        rig.remove(42)
        // Counting starts when the call ends.
        let ended = rig.now
        #expect(rig.model.nextDeadline == ended.advanced(by: .seconds(15)))
        rig.advance(by: .seconds(30))
        #expect(rig.model.displayPower == .off)
    }

    /// The panel takes the state the input ended in: straight to off, no
    /// dimming step on the bus first.
    @Test func dimAndOffAtTheSameMomentGoStraightToOff() {
        var settings = ModelRig.defaultSettings()
        settings.dimAfter = .seconds(10)
        settings.offAfter = .seconds(10)
        let rig = ModelRig(settings: settings)
        rig.advance(by: .seconds(10))
        #expect(rig.sink.take() == [.power(.off)])
    }

    @Test func aLateDeadlineRunsEverythingDueInOrder() {
        // The loop woke late (a stall): one call handles all that is due.
        let rig = ModelRig()
        rig.now = rig.now.advanced(by: .seconds(40))
        rig.model.handleDeadline(now: rig.now)
        #expect(rig.model.displayPower == .off)
        #expect(rig.sink.take() == [.power(.off)])
    }
}
