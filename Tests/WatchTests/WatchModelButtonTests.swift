import ANCS
import Notifications
import BoardConfig
import HAL
import Input
import Screens
import Testing
import Watch

/// docs/buttons.md's table, row by row: every gesture every board can make
/// (two buttons; the Raspberry Pi boards' four; all six), on every screen.
/// Inputs a row does not name do nothing: same screen, no effect.
@Suite struct WatchModelButtonTests {
    struct Outcome: Equatable, CustomStringConvertible {
        var screen: Screen
        var effects: [Effect] = []
        var description: String { "\(screen) \(effects)" }
    }

    /// A connected phone with three silent notifications, newest first 3, 2, 1:
    /// 1 offers both actions, 2 only the negative one, 3 none.
    static func withThree() -> ModelRig {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .email, flags: [.silent, .positiveAction, .negativeAction])
        rig.add(2, .social, flags: [.silent, .negativeAction])
        rig.add(3, .news, flags: [.silent])
        return rig
    }

    /// Presses every input of `board` on a fresh watch set up by `start` and
    /// compares with `expected` (keyed by `key(role, gesture)`).
    func check(
        _ board: BoardButtons, start: () -> ModelRig, _ expected: [String: Outcome],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (role, gesture) in board.inputs {
            let rig = start()
            let before = rig.screen
            _ = rig.sink.take()
            rig.press(role, gesture)
            let got = Outcome(screen: rig.screen, effects: rig.sink.take())
            let want = expected[key(role, gesture)] ?? Outcome(screen: before)
            #expect(got == want, "\(board) board, \(key(role, gesture)) on \(before)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: BoardButtons.all)
    func clock(board: BoardButtons) {
        let list = Outcome(screen: .list(selected: 0))
        check(board, start: Self.withThree, [
            "positive press": list, "positive longPress": Outcome(screen: .doNotDisturbMenu(selected: 0)),
            "negative longPress": Outcome(screen: .watchMenu(selected: 0)),
            // Not in the table: any positive gesture opens the list.
            "positive doublePress": list,
            "select press": list, "select longPress": list,
            "up press": list, "up longPress": list, "down press": list, "down longPress": list,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func clockWithNothingToShowIgnoresEveryButton(board: BoardButtons) {
        check(board, start: {
            let rig = ModelRig()
            rig.connect()
            return rig
        }, ["positive longPress": Outcome(screen: .doNotDisturbMenu(selected: 0)),
            "negative longPress": Outcome(screen: .watchMenu(selected: 0))])
    }

    @Test(arguments: BoardButtons.all)
    func waitingForThePhoneIgnoresEveryButton(board: BoardButtons) {
        check(board, start: { ModelRig() }, ["positive longPress": Outcome(screen: .doNotDisturbMenu(selected: 0)),
                                              "negative longPress": Outcome(screen: .watchMenu(selected: 0))])
    }

    /// The Do Not Disturb menu, opened on the clock with "Until I turn it
    /// off" highlighted: choose, move, cancel.
    @Test(arguments: BoardButtons.all)
    func doNotDisturbMenu(board: BoardButtons) {
        let clock = Outcome(screen: .idleClock)
        check(board, start: {
            let rig = Self.withThree()
            rig.press(.positive, .longPress)
            rig.press(.positive, .longPress)
            #expect(rig.screen == .doNotDisturbMenu(selected: 1))
            return rig
        }, [
            "positive press": clock, "select press": clock,
            "positive longPress": Outcome(screen: .doNotDisturbMenu(selected: 2)),
            "down press": Outcome(screen: .doNotDisturbMenu(selected: 2)),
            "down longPress": Outcome(screen: .doNotDisturbMenu(selected: 2)),
            "positive doublePress": Outcome(screen: .doNotDisturbMenu(selected: 0)),
            "up press": Outcome(screen: .doNotDisturbMenu(selected: 0)),
            "up longPress": Outcome(screen: .doNotDisturbMenu(selected: 0)),
            "negative press": clock, "negative longPress": clock, "back press": clock, "back longPress": clock,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func list(board: BoardButtons) {
        let clock = Outcome(screen: .idleClock)
        let open = Outcome(screen: .detail(NotificationUID(2), scroll: 0), effects: [.shown(2)])
        let next = Outcome(screen: .list(selected: 2))
        let previous = Outcome(screen: .list(selected: 0))
        check(board, start: {
            let rig = Self.withThree()
            rig.press(.positive)
            rig.press(.down)
            #expect(rig.screen == .list(selected: 1))
            return rig
        }, [
            "positive press": open, "select press": open,
            "negative press": clock, "negative longPress": clock, "back press": clock, "back longPress": clock,
            "positive longPress": next, "down press": next, "down longPress": next,
            "positive doublePress": previous, "up press": previous, "up longPress": previous,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func notification(board: BoardButtons) {
        let uid = NotificationUID(1)
        let down = Outcome(screen: .detail(uid, scroll: 2))
        let up = Outcome(screen: .detail(uid, scroll: 0))
        let back = Outcome(screen: .list(selected: 2))
        check(board, start: {
            let rig = Self.withThree()
            rig.press(.positive)
            rig.press(.down)
            rig.press(.down)
            rig.press(.positive)
            rig.press(.down)
            #expect(rig.screen == .detail(uid, scroll: 1))
            return rig
        }, [
            "positive press": Outcome(screen: .detail(uid, scroll: 1), effects: [.perform(.positive, 1)]),
            "negative press": Outcome(screen: .detail(uid, scroll: 1), effects: [.perform(.negative, 1)]),
            "positive longPress": down, "down press": down, "down longPress": down,
            "select press": down, "select longPress": down,
            "positive doublePress": up, "up press": up, "up longPress": up,
            "negative longPress": back, "back press": back, "back longPress": back,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func incomingCall(board: BoardButtons) {
        let call = Screen.incomingCall(NotificationUID(9))
        check(board, start: {
            let rig = Self.withThree()
            rig.add(9, .incomingCall, flags: [.positiveAction, .negativeAction])
            #expect(rig.screen == call)
            return rig
        }, [
            "positive press": Outcome(screen: call, effects: [.stopMotor, .perform(.positive, 9)]),
            "negative press": Outcome(screen: call, effects: [.stopMotor, .perform(.negative, 9)]),
        ])
    }

    @Test(arguments: BoardButtons.all)
    func pairingPasskey(board: BoardButtons) {
        check(board, start: {
            let rig = Self.withThree()
            rig.model.pairingRequested(passkey: 123_456, now: rig.now)
            return rig
        }, [
            "positive press": Outcome(screen: .idleClock, effects: [.pairing(.confirmed)]),
            "negative press": Outcome(screen: .idleClock, effects: [.pairing(.rejected)]),
        ])
    }

    @Test(arguments: BoardButtons.all)
    func notice(board: BoardButtons) {
        // With notifications, the navigating buttons open the list; the others go back.
        let list = Outcome(screen: .list(selected: 0))
        let back = Outcome(screen: .idleClock)
        check(board, start: {
            let rig = Self.withThree()
            rig.model.showNotice("Pair again", now: rig.now)
            return rig
        }, [
            "positive press": list, "positive longPress": list, "positive doublePress": list,
            "select press": list, "select longPress": list,
            "up press": list, "up longPress": list, "down press": list, "down longPress": list,
            "negative press": back, "negative longPress": back, "back press": back, "back longPress": back,
        ])
    }

    @Test(arguments: BoardButtons.all)
    func noticeWithNothingToShowGoesBack(board: BoardButtons) {
        for connected in [true, false] {
            let back = Outcome(screen: connected ? .idleClock : .waitingForPhone)
            var expected: [String: Outcome] = [:]
            for (role, gesture) in board.inputs { expected[key(role, gesture)] = back }
            check(board, start: {
                let rig = ModelRig()
                if connected { rig.connect() }
                rig.model.showNotice("Pair again", now: rig.now)
                return rig
            }, expected)
        }
    }

    // MARK: - details of the rows

    @Test func scrollingDownWrapsToTheTopAndUpStopsThere() {
        let rig = Self.withThree()
        rig.press(.positive)
        rig.press(.positive)
        let uid = NotificationUID(3)
        #expect(rig.screen == .detail(uid, scroll: 0))
        rig.press(.up)
        #expect(rig.screen == .detail(uid, scroll: 0))
        rig.press(.down)
        rig.press(.down)
        #expect(rig.screen == .detail(uid, scroll: 2))
        rig.press(.down)
        #expect(rig.screen == .detail(uid, scroll: 0))
        // A notification that fits does not scroll.
        rig.layout.maxScroll = 0
        rig.press(.down)
        #expect(rig.screen == .detail(uid, scroll: 0))
    }

    @Test func anActionTheNotificationDoesNotOfferIsNotSent() {
        let rig = Self.withThree()
        rig.press(.positive)
        rig.press(.down)
        rig.press(.positive)
        #expect(rig.screen == .detail(NotificationUID(2), scroll: 0))
        _ = rig.sink.take()
        rig.press(.positive)  // 2 offers only the negative action
        #expect(rig.sink.take() == [])
        rig.press(.negative)
        #expect(rig.sink.take() == [.perform(.negative, 2)])
        rig.press(.back)
        rig.press(.down)
        rig.press(.down)
        rig.press(.positive)
        #expect(rig.screen == .detail(NotificationUID(3), scroll: 0))
        _ = rig.sink.take()
        rig.press(.positive)
        rig.press(.negative)
        #expect(rig.sink.take() == [], "3 offers no action")
    }

    @Test func theListWrapsAroundBothWays() {
        let rig = Self.withThree()
        rig.press(.positive)
        rig.press(.up)
        #expect(rig.screen == .list(selected: 2))
        rig.press(.down)
        #expect(rig.screen == .list(selected: 0))
        // The selection is kept when the list is left and opened again.
        rig.press(.down)
        rig.press(.back)
        rig.press(.select)
        #expect(rig.screen == .list(selected: 1))
    }

    /// Was an end-to-end test (WatchBehaviourTests): positive and negative
    /// reach every function through long and double presses.
    @Test func aTwoButtonBoardReachesEveryFunction() {
        let rig = ModelRig()
        rig.connect()
        rig.add(1, .email, flags: [.negativeAction])
        rig.add(2, .social)
        // The newest alert is open; a long press on negative goes back to the list.
        #expect(rig.screen == .detail(NotificationUID(2), scroll: 0))
        rig.press(.negative, .longPress)
        #expect(rig.screen == .list(selected: 0))
        // A long press on positive moves down, a double press up; a press opens.
        rig.press(.positive, .longPress)
        #expect(rig.screen == .list(selected: 1))
        rig.press(.positive, .doublePress)
        rig.press(.positive, .longPress)
        _ = rig.sink.take()
        rig.press(.positive)
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0))
        #expect(rig.sink.take() == [.shown(1)])
        // Long press scrolls down, double press up.
        rig.press(.positive, .longPress)
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 1))
        rig.press(.positive, .doublePress)
        #expect(rig.screen == .detail(NotificationUID(1), scroll: 0))
        // A press on negative performs the negative action (Clear) on it.
        rig.press(.negative)
        #expect(rig.sink.take() == [.perform(.negative, 1)])
        // Back to the list, then the clock.
        rig.press(.negative, .longPress)
        rig.press(.negative)
        #expect(rig.screen == .idleClock)
    }
}
