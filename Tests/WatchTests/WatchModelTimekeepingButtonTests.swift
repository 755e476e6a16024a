import BoardConfig
import HAL
import Input
import Screens
import Testing
import Timekeeping
@testable import Watch

/// docs/buttons.md's rows for the alarms, the alarm editor, a ring, the
/// timer and the stopwatch: every gesture of every board.
@Suite struct WatchModelTimekeepingButtonTests {
    typealias Outcome = WatchModelButtonTests.Outcome

    static func check(_ board: BoardButtons, start: () -> ModelRig, _ expected: [String: Outcome]) {
        WatchModelButtonTests().check(board, start: start, expected)
    }

    /// A watch at 2024-05-01 09:41 with the wearer's 07:00 (Mon-Fri) and a
    /// phone alarm 06:30 (off), on the Alarms list at `selected`.
    static func onAlarms(_ selected: Int) -> () -> ModelRig {
        {
            let clock = SettableClock(SettableClock.at(9, 41))
            var s = ModelRig.defaultSettings()
            s.systemClock = clock.read
            let rig = ModelRig(settings: s)
            rig.connect()
            rig.model.restoreAlarms([Alarm(hour: 7, minute: 0, days: .weekdays)], now: rig.now)
            rig.model.phoneAlarmsReceived([Alarm(hour: 6, minute: 30, enabled: false)], now: rig.now)
            WatchModelFeedsTests.openMenu(at: .alarms, rig)
            rig.press(.positive)
            for _ in 0..<selected { rig.press(.positive, .longPress) }
            #expect(rig.screen == .alarms(selected: selected))
            return rig
        }
    }

    @Test(arguments: BoardButtons.all)
    func alarmsList(board: BoardButtons) {
        let menu = Outcome(screen: .watchMenu(selected: WatchMenu.Entry.alarms.rawValue))
        let edit = Outcome(screen: .alarmEditor(AlarmDraft(row: 0, alarm: Alarm(hour: 7, minute: 0, days: .weekdays))))
        Self.check(board, start: Self.onAlarms(0), [
            "positive press": edit, "select press": edit,
            "positive longPress": Outcome(screen: .alarms(selected: 1)), "down press": Outcome(screen: .alarms(selected: 1)),
            "down longPress": Outcome(screen: .alarms(selected: 1)),
            // Three rows: the wearer's, the phone's, "New alarm".
            "positive doublePress": Outcome(screen: .alarms(selected: 2)), "up press": Outcome(screen: .alarms(selected: 2)),
            "up longPress": Outcome(screen: .alarms(selected: 2)),
            "negative press": menu, "negative longPress": menu, "back press": menu, "back longPress": menu,
        ])
    }

    @Test func choosingThePhonesAlarmSwitchesItAndNewAlarmOpensTheEditorAtTheNextHour() {
        let rig = Self.onAlarms(1)()
        rig.press(.positive)
        #expect(rig.model.alarms[1].enabled && rig.screen == .alarms(selected: 1))
        rig.press(.positive, .longPress)
        rig.press(.positive)
        #expect(rig.screen == .alarmEditor(AlarmDraft(row: nil, alarm: Alarm(hour: 10, minute: 0))))
    }

    /// The editor on the wearer's 07:00, at `field`.
    static func editing(_ field: AlarmDraft.Field) -> () -> ModelRig {
        {
            let rig = onAlarms(0)()
            rig.press(.positive)
            for _ in 0..<field.rawValue { rig.press(.positive) }
            return rig
        }
    }

    static func draft(_ h: Int, _ m: Int, _ days: AlarmDays = .weekdays, _ field: AlarmDraft.Field, _ finish: AlarmDraft.Finish = .save) -> Outcome {
        Outcome(screen: .alarmEditor(AlarmDraft(row: 0, alarm: Alarm(hour: h, minute: m, days: days), field: field, finish: finish)))
    }

    @Test(arguments: BoardButtons.all)
    func alarmEditorOnTheHour(board: BoardButtons) {
        let list = Outcome(screen: .alarms(selected: 0))
        Self.check(board, start: Self.editing(.hour), [
            "positive press": Self.draft(7, 0, .weekdays, .minute), "select press": Self.draft(7, 0, .weekdays, .minute),
            "positive longPress": Self.draft(8, 0, .weekdays, .hour), "positive doublePress": Self.draft(6, 0, .weekdays, .hour),
            "up press": Self.draft(8, 0, .weekdays, .hour), "up longPress": Self.draft(8, 0, .weekdays, .hour),
            "down press": Self.draft(6, 0, .weekdays, .hour), "down longPress": Self.draft(6, 0, .weekdays, .hour),
            "negative press": list, "negative longPress": list, "back press": list, "back longPress": list,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func alarmEditorOnTheDays(board: BoardButtons) {
        let minute = Self.draft(7, 0, .weekdays, .minute)
        Self.check(board, start: Self.editing(.days), [
            "positive press": Self.draft(7, 0, .weekdays, .finish), "select press": Self.draft(7, 0, .weekdays, .finish),
            // AlarmDays.choices: once, every day, Mon-Fri, Sat,Sun, ...
            "positive longPress": Self.draft(7, 0, .weekend, .days), "positive doublePress": Self.draft(7, 0, .everyDay, .days),
            "up press": Self.draft(7, 0, .weekend, .days), "up longPress": Self.draft(7, 0, .weekend, .days),
            "down press": Self.draft(7, 0, .everyDay, .days), "down longPress": Self.draft(7, 0, .everyDay, .days),
            "negative press": minute, "negative longPress": minute, "back press": minute, "back longPress": minute,
        ])
    }

    @Test func theMinuteMovesByFiveAndTheLastStepSavesOrDeletes() {
        let rig = Self.editing(.minute)()
        rig.press(.positive, .doublePress)
        #expect(rig.screen == Self.draft(7, 55, .weekdays, .minute).screen, "wraps below zero")
        rig.press(.positive)  // days
        rig.press(.positive)  // finish: Save
        rig.press(.positive)
        #expect(rig.model.alarms[0] == Alarm(hour: 7, minute: 55, days: .weekdays))
        #expect(rig.sink.take().contains(.alarmsChanged) && rig.screen == .alarms(selected: 0))
        rig.press(.positive)  // edit again
        for _ in 0..<3 { rig.press(.positive) }
        rig.press(.positive, .longPress)  // Save → Delete
        #expect(rig.screen == Self.draft(7, 55, .weekdays, .finish, .delete).screen)
        rig.press(.positive)
        #expect(rig.model.alarms.ownCount == 0 && rig.sink.take().contains(.alarmsChanged))
    }

    /// A 07:00 alarm ringing on the clock at 07:00.
    static func ringing() -> ModelRig {
        let rig = ModelRig()
        rig.model.startRinging(.alarm(hour: 7, minute: 0, snoozes: 0), now: rig.now)
        _ = rig.sink.take()
        return rig
    }

    @Test(arguments: BoardButtons.all)
    func aRingingAlarm(board: BoardButtons) {
        let snoozed = Outcome(screen: .message("Snoozed for 9 min"), effects: [.stopMotor])
        let dismissed = Outcome(screen: .waitingForPhone, effects: [.stopMotor])  // back where it rang
        var expected: [String: Outcome] = [
            "positive press": snoozed, "positive longPress": snoozed, "select press": snoozed, "select longPress": snoozed,
        ]
        for role in ["negative", "up", "down", "back"] {
            expected["\(role) press"] = dismissed
            expected["\(role) longPress"] = dismissed
        }
        Self.check(board, start: Self.ringing, expected)
    }

    @Test func aRingingAlarmKeepsTheScreenAndThePanelLitUntilAnswered() {
        let rig = ModelRig()
        rig.connect()
        rig.model.startRinging(.alarm(hour: 7, minute: 0, snoozes: 0), now: rig.now)
        rig.add(5, .social, flags: [.important])  // would pop up
        #expect(rig.screen == .ringing(.alarm(hour: 7, minute: 0, snoozes: 0)), "no pop-up over a ringing alarm")
        rig.advance(by: .seconds(45))
        #expect(rig.model.displayPower == .on, "lit while it rings (dims after 15 s otherwise)")
        rig.disconnect()
        #expect(rig.screen.isRinging, "the phone going does not take the screen")
        rig.press(.negative)
        #expect(rig.screen == .waitingForPhone && rig.model.ringing == nil)
        rig.advance(by: .seconds(31))
        #expect(rig.model.displayPower == .off, "then it dims and sleeps as always")
    }

    /// The timer's screen, stopped at 5:00.
    static func onTimer() -> ModelRig {
        let rig = ModelRig()
        WatchModelFeedsTests.openMenu(at: .timer, rig)
        rig.press(.positive)
        #expect(rig.screen == .timer)
        return rig
    }

    @Test(arguments: BoardButtons.all)
    func theTimer(board: BoardButtons) {
        let menu = Outcome(screen: .watchMenu(selected: WatchMenu.Entry.timer.rawValue))
        // Effects do not show a length: each press is checked by its screen; the length by the test below.
        Self.check(board, start: Self.onTimer, [
            "negative press": menu, "negative longPress": menu, "back press": menu, "back longPress": menu,
        ])
        for (role, gesture, length, running) in [
            (ButtonRole.positive, ButtonGesture.press, 300, true), (.positive, .longPress, 360, false), (.positive, .doublePress, 240, false),
            (.up, .press, 360, false), (.down, .press, 240, false), (.select, .press, 300, true),
        ] where board.inputs.contains(where: { $0 == (role, gesture) }) {
            let rig = Self.onTimer()
            rig.press(role, gesture)
            #expect(rig.model.countdown.length == length && rig.model.countdown.isRunning == running, "\(board): \(role) \(gesture)")
        }
    }

    @Test func theTimerPausesResumesAndResets() {
        let rig = Self.onTimer()
        rig.press(.positive)
        rig.advance(by: .seconds(10))
        rig.press(.positive)  // pause
        #expect(rig.model.countdown.state == .paused(left: .seconds(290)))
        rig.press(.negative)  // reset, stays
        #expect(rig.model.countdown.state == .stopped && rig.screen == .timer)
        rig.press(.negative)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.timer.rawValue))
    }

    @Test func theStopwatchsNegativeButtonLapsResetsThenLeaves() {
        let rig = ModelRig()
        WatchModelFeedsTests.openMenu(at: .stopwatch, rig)
        rig.press(.positive)
        #expect(rig.screen == .stopwatch)
        rig.press(.negative)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.stopwatch.rawValue), "at zero: back")
        rig.press(.positive)
        rig.press(.positive)  // start
        rig.advance(by: .seconds(3))
        rig.press(.negative)  // lap
        #expect(rig.model.stopwatch.lapCount == 1 && rig.screen == .stopwatch)
        rig.press(.negative, .longPress)  // back, still running
        #expect(rig.model.stopwatch.isRunning)
        rig.press(.positive)
        rig.press(.positive)  // stop
        rig.press(.negative)  // reset
        #expect(rig.model.stopwatch == Stopwatch() && rig.screen == .stopwatch)
    }
}
