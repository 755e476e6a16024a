import BoardConfig
import Graphics
import HAL
import Haptics
import Loop
import Screens
import TextFormat

/// The self-test's steps, one after the other, on the board's own devices
/// (through the `BoardDevices` seam) and one event loop:
///
/// 1. display: the test pattern (`SelfTestPatterns`); the wearer answers
///    yes (positive) or no (negative);
/// 2. buttons: "press ROLE" for each button of the board file in turn, the
///    press shown with its line as it happens; another button's press is
///    reported; no press within the step's timeout fails the step;
/// 3. motor: a repeating pulse pattern; "felt it?" yes / no;
/// then the summary on the panel and the terminal.
///
/// With `quick` nobody answers: each step checks what a program can (the
/// display initialised, each line's level, the motor pulsed) and the run
/// ends by itself (`SelfTestSequence+Quick`).
///
/// The motor is off on every way out: after its step, in `interrupt` and in
/// `release`, which the runner calls on every path (signals included).
public final class SelfTestSequence {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    let lifetime = Lifetime()
    public enum Step: Equatable, Sendable {
        case display
        case button(ButtonRole)
        case motor
    }

    public let board: Board
    public let options: SelfTestOptions
    /// The steps of this board, in order.
    public let steps: [Step]
    /// The step under way (nil before `start` and once finished).
    public var step: Step? { finished || index < 0 || index >= steps.count ? nil : steps[index] }
    /// Counts steps begun (the harness `state` reply: a script acts once per step).
    public private(set) var stepsBegun = 0
    public private(set) var summary = SelfTestSummary()
    public private(set) var finished = false
    /// Called once, when the summary is complete.
    public var onFinished: (() -> Void)?
    /// Every actual motor on/off change (the harness streams it).
    public var motorStateHandler: ((Bool, MonotonicInstant) -> Void)?

    let devices: any BoardDevices
    let loop: any EventLoop
    let patterns: SelfTestPatterns
    let output: (String) -> Void
    /// What the terminal explains: about wires and pins, or the simulated board.
    let advice: SelfTestAdvice

    var panel: SelfTestPanel?
    var panelError: SelfTestPanelError?
    var buttons: SelfTestButtons?
    var motor: MotorController?
    var motorLine: (any MotorLine)?
    var motorError: HALError?

    private var index = -1
    /// A button step's presses of other buttons, in order.
    private var wrongPresses: [ButtonRole] = []
    /// After the expected press: the feedback is on the panel, the next step waits.
    private var inFeedbackPause = false
    private var timeoutTimer: TimerID?
    private var advanceTimer: TimerID?
    private var released = false

    /// Three short pulses, then a rest, repeating until answered.
    static let motorPattern = VibrationPattern(
        name: "selftest",
        pulses: [
            .init(on: .milliseconds(150), off: .milliseconds(150)), .init(on: .milliseconds(150), off: .milliseconds(150)),
            .init(on: .milliseconds(150), off: .milliseconds(1_200)),
        ],
        repeats: true)

    /// - Parameter output: one line (or a few) for the terminal.
    public init(board: Board, devices: any BoardDevices, loop: any EventLoop, fonts: ScreenFonts, options: SelfTestOptions,
                output: @escaping (String) -> Void) {
        self.board = board
        self.devices = devices
        self.loop = loop
        self.options = options
        self.output = output
        advice = SelfTestAdvice(wired: devices.isWired)
        patterns = SelfTestPatterns(
            fonts: fonts, yesCorner: board.button(.positive)?.position ?? .bottomRight,
            noCorner: board.button(.negative)?.position ?? .bottomLeft)
        steps = [.display] + board.buttons.map { .button($0.role) } + [.motor]
    }

    deinit {
        lifetime.end()
        release()
    }

    // MARK: running

    /// Opens the devices (a device that cannot be opened fails its step,
    /// the others are still tested) and begins the first step.
    public func start() {
        precondition(index < 0, "a self-test runs once")
        // unowned(unsafe): self owns the timers, the buttons and the motor below,
        // and release() (called by deinit at the latest) destroys or closes them.
        timeoutTimer = loop.makeTimer { [unowned(unsafe) self] in self.timedOut() }
        advanceTimer = loop.makeTimer { [unowned(unsafe) self] in self.next() }
        if options.quick {
            output("WristCore quick self-test of \(board.name) [\(board.source)]: no person needed.")
        } else {
            output("WristCore self-test of \(board.name) [\(board.source)]: the display, \(board.buttons.count) buttons, "
                + (board.motor == nil ? "no motor." : "the motor."))
            output("Answer on the watch: positive = yes, negative = no. Each step waits \(seconds(options.stepTimeout)) s.")
        }
        openMotor()
        do { panel = try SelfTestPanel(board: board, devices: devices) } catch { panelError = error }
        buttons = SelfTestButtons(board: board, devices: devices, loop: loop) { [unowned(unsafe) self] role in self.pressed(role) }
        next()
    }

    /// Ends the run early (a signal): the motor off, the steps not done
    /// marked "not run", the summary shown. Idempotent.
    public func interrupt(reason: String) {
        guard !finished else { return }
        motor?.forceOff()
        summary.interruption = reason
        // Each step leaves exactly one result: those without one were not run.
        if summary.results.count < steps.count {
            for step in steps[summary.results.count...] { summary.results.append(SelfTestResult(name: name(step), outcome: .notRun, detail: "interrupted by \(reason)")) }
        }
        index = steps.count
        output("\ninterrupted by \(reason)")
        finish()
    }

    /// Motor off, lines released, the panel left with its last picture. Idempotent.
    public func release() {
        guard !released else { return }
        released = true
        motor?.forceOff()
        try? motorLine?.setActive(false)
        motorLine?.release()
        buttons?.close()
        panel?.close()
        if let t = timeoutTimer { loop.destroyTimer(t) }
        if let t = advanceTimer { loop.destroyTimer(t) }
        timeoutTimer = nil
        advanceTimer = nil
    }

    /// The harness `state` reply's object.
    public func stateJSON() -> String {
        var kind = "finished"
        var role = "null"
        switch step {
        case .display: kind = "display"
        case .button(let r):
            kind = "button"
            role = SelfTestSummary.quoted(r.rawValue)
        case .motor: kind = "motor"
        case nil: if !finished { kind = "starting" }
        }
        return "{\"selftest\":{\"step\":\"\(kind)\",\"role\":\(role),\"number\":\(stepsBegun),\"of\":\(steps.count),"
            + "\"quick\":\(options.quick),\"finished\":\(finished),\"passed\":\(finished && summary.allPassed),"
            + "\"results\":\(summary.json())},\"motor\":\(motor?.isMotorOn ?? false)}"
    }

    // MARK: steps

    func next() {
        guard !finished else { return }
        disarmTimers()
        inFeedbackPause = false
        wrongPresses.removeAll()
        index += 1
        guard index < steps.count else { return finish() }
        stepsBegun += 1
        if options.quick { return check(steps[index]) }
        switch steps[index] {
        case .display: beginDisplay()
        case .button(let role): beginButton(role)
        case .motor: beginMotor()
        }
    }

    private func beginDisplay() {
        let d = board.display
        output("\nStep 1/3: display (\(d.controller.rawValue) \(d.width)x\(d.height), columnOffset \(d.columnOffset), "
            + "rotation \(d.rotation), on \(devices.displayLocation) at 0x\(String(d.address, radix: 16, uppercase: true)))")
        guard let panel else { return record(displayOpenFailure()) }
        do {
            try panel.show { patterns.drawDisplayPattern(into: $0, caption: .question) }
        } catch {
            return record(SelfTestResult(name: "display", outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint))
        }
        for line in advice.display(d, location: devices.displayLocation) { output(line) }
        output("Is the picture right? positive = yes, negative = no")
        armTimeout()
    }

    func displayOpenFailure() -> SelfTestResult {
        let e = panelError ?? SelfTestPanelError(detail: "not opened")
        return SelfTestResult(name: "display", outcome: .failed, detail: e.detail, hint: e.hint)
    }

    private var buttonNumber: Int {
        guard case .button(let role) = step else { return 0 }
        return (board.buttons.firstIndex { $0.role == role } ?? 0) + 1
    }

    private func beginButton(_ role: ButtonRole) {
        guard let wiring = board.button(role) else { return next() }
        let line = SelfTestAdvice.lineName(wiring)
        if buttonNumber == 1 { output("\nStep 2/3: buttons, one after the other") }
        output("  press \(role.rawValue.asciiUppercased()) (\(line)) ...")
        if let error = buttons?.openFailures[role] {
            return record(SelfTestResult(name: role.rawValue, outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint))
        }
        drawButton(role, feedback: .none)
        armTimeout()
    }

    private func drawButton(_ role: ButtonRole, feedback: SelfTestPatterns.ButtonFeedback) {
        guard let wiring = board.button(role) else { return }
        let number = buttonNumber
        try? panel?.show {
            patterns.drawButtonPrompt(
                into: $0, role: role, line: SelfTestAdvice.lineName(wiring), number: number, of: board.buttons.count, feedback: feedback)
        }
    }

    private func beginMotor() {
        output("\nStep 3/3: motor")
        guard let wiring = board.motor else {
            return record(SelfTestResult(name: "motor", outcome: .skipped, detail: "no motor in the board file"))
        }
        guard let motor else {
            let e = motorError.map { "\($0.operation): \($0.reason)" } ?? "not opened"
            return record(SelfTestResult(name: "motor", outcome: .failed, detail: e, hint: motorError?.hint ?? advice.motorHint(wiring)))
        }
        for line in advice.motor(wiring) { output(line) }
        try? panel?.show { patterns.drawMotorPrompt(into: $0) }
        if case .lineFailed(let error) = motor.play(Self.motorPattern) {
            return record(SelfTestResult(name: "motor", outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint ?? advice.motorHint(wiring)))
        }
        output("Felt it? positive = yes, negative = no")
        armTimeout()
    }

    // MARK: answers

    private func pressed(_ role: ButtonRole) {
        guard !finished, !options.quick, let step, !inFeedbackPause else { return }
        switch step {
        case .display, .motor:
            switch role {
            case .positive: answered(yes: true)
            case .negative: answered(yes: false)
            default: output("    (\(role.rawValue) pressed: answer with positive = yes or negative = no)")
            }
        case .button(let expected):
            guard let wiring = board.button(role), let expectedWiring = board.button(expected) else { return }
            let line = SelfTestAdvice.lineName(wiring)
            if role == expected {
                output("    \(role.rawValue.asciiUppercased()) pressed (\(line))")
                var detail = "pressed (\(line))"
                if !wrongPresses.isEmpty { detail += "; before it: " + wrongPresses.map { $0.rawValue }.joined(separator: ", ") }
                summary.results.append(SelfTestResult(name: role.rawValue, outcome: .passed, detail: detail))
                drawButton(role, feedback: .pressed)
                inFeedbackPause = true
                disarmTimers()
                if let t = advanceTimer { loop.arm(t, after: options.feedbackPause, repeating: nil) }
            } else {
                wrongPresses.append(role)
                output("    got \(role.rawValue.asciiUppercased()) (\(line)), not \(expected.rawValue.asciiUppercased()): "
                    + advice.wrongButton(pressed: wiring, expected: expectedWiring))
                drawButton(expected, feedback: .other(role, line: line))
            }
        }
    }

    private func answered(yes: Bool) {
        guard let step else { return }
        switch step {
        case .display:
            record(yes
                ? SelfTestResult(name: "display", outcome: .passed, detail: "the wearer saw the pattern right")
                : SelfTestResult(name: "display", outcome: .failed, detail: "the wearer saw a wrong picture", hint: advice.displayHint))
        case .motor:
            motor?.stop()
            let hint = board.motor.map { advice.motorHint($0) }
            record(yes
                ? SelfTestResult(name: "motor", outcome: .passed, detail: "the wearer felt the pulses")
                : SelfTestResult(name: "motor", outcome: .failed, detail: "the wearer felt nothing (or it did not stop)", hint: hint))
        case .button:
            break
        }
    }

    private func timedOut() {
        guard let step else { return }
        let s = seconds(options.stepTimeout)
        switch step {
        case .display:
            record(SelfTestResult(name: "display", outcome: .failed, detail: "no answer within \(s) s", hint: advice.displayHint))
        case .motor:
            motor?.stop()
            record(SelfTestResult(name: "motor", outcome: .failed, detail: "no answer within \(s) s", hint: board.motor.map { advice.motorHint($0) }))
        case .button(let role):
            guard let wiring = board.button(role) else { return next() }
            var detail = "not pressed within \(s) s"
            var hint = advice.buttonNotPressed(wiring, seconds: s)
            if let other = wrongPresses.last, let otherWiring = board.button(other) {
                detail += "; got " + wrongPresses.map { $0.rawValue }.joined(separator: ", ") + " instead"
                hint = advice.wrongButton(pressed: otherWiring, expected: wiring)
            } else if case .success(true) = buttons?.isActive(role) {
                // Judged at the end, not the start: the wearer may still hold the button that answered the step before.
                detail += "; the line reads pressed all the time"
                hint = advice.buttonHeld(wiring)
            }
            record(SelfTestResult(name: role.rawValue, outcome: .failed, detail: detail, hint: hint))
        }
    }

    /// Keeps a step's result, tells the terminal, and moves on.
    func record(_ result: SelfTestResult) {
        summary.results.append(result)
        output("    \(result.outcome.tag) \(result.name): \(result.detail)")
        next()
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        disarmTimers()
        motor?.stop()
        try? panel?.show { patterns.drawSummary(into: $0, summary) }
        output("\n" + summary.terminalText(board: "\(board.name) [\(board.source)]"))
        onFinished?()
    }

    // MARK: parts

    private func openMotor() {
        guard let wiring = board.motor else { return }
        let line: any MotorLine
        do { line = try devices.openMotor(wiring) } catch {
            motorError = error
            return
        }
        motorLine = line
        // The safety limits of the watch's own motor; no quiet hours in a test.
        let m = MotorController(line: line, scheduler: loop, configuration: HapticsConfiguration())
        m.stateHandler = { [unowned(unsafe) self] on, at in self.motorStateHandler?(on, at) }
        motor = m
    }

    func armTimeout() {
        if let t = timeoutTimer { loop.arm(t, after: options.stepTimeout, repeating: nil) }
    }

    private func disarmTimers() {
        if let t = timeoutTimer { loop.disarm(t) }
        if let t = advanceTimer { loop.disarm(t) }
    }

    func name(_ step: Step) -> String {
        switch step {
        case .display: "display"
        case .button(let r): r.rawValue
        case .motor: "motor"
        }
    }

    func seconds(_ d: Duration) -> Int64 { d.components.seconds }
}
