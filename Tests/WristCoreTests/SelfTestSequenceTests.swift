import BoardConfig
import Glibc
import Graphics
import HAL
import LinuxHAL
import Loop
import SimBoard
import Testing

@testable import WristCore
import TextFormat
@testable import BenchTools

/// The interactive steps on the simulated board: presses scripted, timeouts
/// by moving the manual clock.
@Suite struct SelfTestSequenceTests {
    @Test func everyStepAnsweredPassesWithExitCodeZero() {
        let bench = SelfTestBench()
        var motorChanges: [Bool] = []
        bench.sequence.motorStateHandler = { on, _ in motorChanges.append(on) }
        var finished = 0
        bench.sequence.onFinished = { finished += 1 }
        bench.start()
        #expect(bench.sequence.step == .display)
        bench.answerYesOrPress()
        for role in [ButtonRole.positive, .negative, .select, .up, .down, .back] {
            #expect(bench.sequence.step == .button(role))
            bench.answerYesOrPress()
        }
        #expect(bench.sequence.step == .motor)
        // The pattern runs while the question waits: three pulses, a rest, again.
        bench.loop.advance(by: .seconds(3))
        #expect(motorChanges.filter { $0 }.count >= 4)
        bench.answerYesOrPress()
        #expect(!bench.motorOn)
        #expect(bench.sequence.finished && finished == 1)
        let s = bench.sequence.summary
        #expect(s.results.map(\.name) == ["display", "positive", "negative", "select", "up", "down", "back", "motor"])
        #expect(s.results.allSatisfy { $0.outcome == .passed })
        #expect(s.exitCode == WristCoreExit.ok)
        #expect(s.results[1].detail == "pressed (sim line 0)")
        #expect(bench.output.contains("Self-test PASSED: all 8 steps"))
        #expect(bench.output.contains("  press NEGATIVE (sim line 1) ..."))
        #expect(bench.output.contains("    NEGATIVE pressed (sim line 1)"))
        bench.sequence.release()
        #expect(bench.simulated.motorLine?.released == true)
    }

    @Test func aStepWithoutAnAnswerFailsAfterItsTimeout() {
        let bench = SelfTestBench(timeout: .seconds(15), wired: true)
        bench.start()
        bench.loop.advance(by: .milliseconds(14_900))
        #expect(bench.sequence.step == .display && bench.sequence.summary.results.isEmpty)
        bench.loop.advance(by: .milliseconds(100))
        #expect(bench.sequence.step == .button(.positive))
        let display = bench.sequence.summary.results[0]
        #expect(display.outcome == .failed && display.detail == "no answer within 15 s")
        #expect(display.hint?.contains("display.controller") == true)
        // positive: not pressed within 15 s, with the line and the fields to check.
        bench.loop.advance(by: .seconds(15))
        let positive = bench.sequence.summary.results[1]
        #expect(positive.outcome == .failed && positive.detail == "not pressed within 15 s")
        #expect(positive.hint?.contains("buttons[positive].chip and .line") == true)
        #expect(positive.hint?.contains("sim line 0") == true)
        // The rest answered: still a failure overall.
        while bench.sequence.step != nil { bench.answerYesOrPress() }
        #expect(bench.sequence.summary.exitCode == WristCoreExit.runtimeFailure)
        #expect(bench.sequence.summary.verdict == "FAILED: 2 of 8 steps")
    }

    @Test func anotherButtonsPressIsReportedWithItsLine() {
        let bench = SelfTestBench(wired: true)
        bench.start()
        bench.answerYesOrPress()
        #expect(bench.sequence.step == .button(.positive))
        bench.press(.negative)
        #expect(bench.sequence.step == .button(.positive))
        #expect(bench.output.contains("got NEGATIVE (sim line 1), not POSITIVE"))
        #expect(bench.output.contains("swap their buttons[].line (0 and 1)"))
        // The panel says so too.
        Golden.compare(image: bench.glass, file: "selftest-button-other-128x64.pbm")
        bench.press(.positive)
        #expect(bench.sequence.summary.results[1].outcome == .passed)
        #expect(bench.sequence.summary.results[1].detail == "pressed (sim line 0); before it: negative")
        bench.loop.advance(by: bench.sequence.options.feedbackPause)
        // Timing out after a wrong press: the hint is the swap.
        bench.press(.select)
        bench.loop.advance(by: .seconds(15))
        let negative = bench.sequence.summary.results[2]
        #expect(negative.outcome == .failed)
        #expect(negative.detail == "not pressed within 15 s; got select instead")
        #expect(negative.hint?.contains("negative and select on the wrong lines") == true)
    }

    @Test func noToTheDisplayFailsItWithTheFieldsToCheck() {
        let bench = SelfTestBench(wired: true)
        bench.start()
        #expect(bench.output.contains("set display.controller to \"sh1106\""))
        #expect(bench.output.contains("set display.height to 32"))
        bench.press(.select)  // neither yes nor no
        #expect(bench.sequence.step == .display)
        #expect(bench.output.contains("(select pressed: answer with positive = yes or negative = no)"))
        bench.press(.negative)
        let display = bench.sequence.summary.results[0]
        #expect(display.outcome == .failed && display.detail == "the wearer saw a wrong picture")
        #expect(display.hint?.contains("display.columnOffset") == true)
    }

    @Test func aSignalMidPulseLeavesTheMotorOffAndTheRestNotRun() {
        let bench = SelfTestBench()
        bench.start()
        while bench.sequence.step != .motor { bench.answerYesOrPress() }
        // Into a pulse of the pattern.
        for _ in 0..<200 where !bench.motorOn { bench.loop.advance(by: .milliseconds(10)) }
        #expect(bench.motorOn)
        bench.sequence.interrupt(reason: "SIGINT")
        #expect(!bench.motorOn)
        let s = bench.sequence.summary
        #expect(s.results.last == SelfTestResult(name: "motor", outcome: .notRun, detail: "interrupted by SIGINT"))
        #expect(s.results.count == 8)
        #expect(s.exitCode == WristCoreExit.runtimeFailure)
        #expect(s.verdict == "INTERRUPTED by SIGINT: 7 of 8 steps passed")
        // Nothing switches it on again afterwards.
        bench.loop.advance(by: .seconds(5))
        #expect(!bench.motorOn)
        bench.sequence.release()
        #expect(bench.simulated.motorLine?.released == true)
    }

    @Test func aSignalInTheFeedbackPauseKeepsThePressAndMarksTheRest() {
        let bench = SelfTestBench()
        bench.start()
        bench.answerYesOrPress()
        bench.press(.positive)  // pressed; the next step waits for the pause
        bench.sequence.interrupt(reason: "SIGTERM")
        let names = bench.sequence.summary.results.map { "\($0.name) \($0.outcome.rawValue)" }
        #expect(names == ["display passed", "positive passed", "negative not run", "select not run", "up not run", "down not run", "back not run", "motor not run"])
    }

    @Test func aBoardWithoutAMotorSkipsItsStepAndStillPasses() {
        let bench = SelfTestBench(board: SelfTestBench.board(withoutMotor: true, buttons: [.positive, .negative]))
        bench.start()
        while bench.sequence.step != nil { bench.answerYesOrPress() }
        let s = bench.sequence.summary
        #expect(s.results.map(\.outcome) == [.passed, .passed, .passed, .skipped])
        #expect(s.results.last?.detail == "no motor in the board file")
        #expect(s.exitCode == WristCoreExit.ok)
        #expect(s.verdict == "PASSED: all 3 steps")
    }

    @Test func aMotorLineFailureFailsTheMotorStep() {
        let bench = SelfTestBench(wired: true)
        bench.start()
        while bench.sequence.step != .motor { bench.answerYesOrPress() }
        // The step began already; fail the next activation (the second pulse).
        bench.simulated.motorLine?.failNextActivation = HALError(operation: "switch on the motor", errno: EIO, reason: "Input/output error")
        bench.loop.advance(by: .milliseconds(400))
        #expect(!bench.motorOn)
        bench.press(.negative)
        let motor = bench.sequence.summary.results.last
        #expect(motor?.outcome == .failed)
        #expect(motor?.hint?.contains("motor.activeLow (now false") == true)
    }

    @Test func aLineStuckPressedIsPointedOutWhenItsStepTimesOut() {
        let bench = SelfTestBench(wired: true)
        bench.start()
        // Held from the start (a line stuck pressed, or activeLow the wrong way round).
        #expect(bench.simulated.setButton(.select, active: true))
        bench.loop.advance(by: .milliseconds(80))
        bench.answerYesOrPress()  // display
        bench.answerYesOrPress()  // positive
        bench.answerYesOrPress()  // negative
        #expect(bench.sequence.step == .button(.select))
        bench.loop.advance(by: .seconds(15))
        let select = bench.sequence.summary.results[3]
        #expect(select.outcome == .failed)
        #expect(select.detail == "not pressed within 15 s; the line reads pressed all the time")
        #expect(select.hint?.contains("select (sim line 2) reads pressed while nobody touches it") == true)
    }

    @Test func theButtonThatAnsweredTheStepBeforeMayStillBeHeld() {
        let bench = SelfTestBench()
        bench.start()
        // "Yes" held on into the "press POSITIVE" step: its release is no press, the next press is.
        #expect(bench.simulated.setButton(.positive, active: true))
        bench.loop.advance(by: .milliseconds(80))
        #expect(bench.sequence.step == .button(.positive))
        #expect(bench.simulated.setButton(.positive, active: false))
        bench.loop.advance(by: .milliseconds(80))
        #expect(bench.sequence.summary.results.count == 1)
        bench.press(.positive)
        #expect(bench.sequence.summary.results[1].outcome == .passed)
        #expect(!bench.output.contains("reads pressed"))
    }
}
