import BoardConfig
import HAL
import Haptics
import SimBoard

/// `--quick`: what a program can check without a person. The display is
/// initialised and shows the pattern (an I2C error names its fix: how to
/// enable the bus, the wiring, the address); every button line is requested
/// and read (a line reading pressed while nobody touches it fails); the motor
/// is switched on for a short pulse and off again, and read back where the
/// line can tell.
extension SelfTestSequence {
    /// How long the quick motor pulse lasts.
    static let quickPulseMilliseconds: Int64 = 150
    /// The quick check's single pulse, made once.
    static let quickPattern = VibrationPattern(
        name: "selftest-quick", pulses: [.init(on: .milliseconds(quickPulseMilliseconds), off: .zero)])

    func check(_ step: Step) {
        switch step {
        case .display: checkDisplay()
        case .button(let role): checkButton(role)
        case .motor: checkMotor()
        }
    }

    private func checkDisplay() {
        let d = board.display
        guard let panel else { return record(displayOpenFailure()) }
        do {
            try panel.show { patterns.drawDisplayPattern(into: $0, caption: .quick) }
        } catch {
            return record(SelfTestResult(name: "display", outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint))
        }
        record(SelfTestResult(
            name: "display", outcome: .passed,
            detail: "\(d.controller.rawValue) \(d.width)x\(d.height) answers at 0x\(String(d.address, radix: 16, uppercase: true)) on \(devices.displayLocation); pattern drawn"))
    }

    private func checkButton(_ role: ButtonRole) {
        guard let wiring = board.button(role) else { return next() }
        let line = SelfTestAdvice.lineName(wiring)
        if let error = buttons?.openFailures[role] {
            return record(SelfTestResult(name: role.rawValue, outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint))
        }
        switch buttons?.isActive(role) {
        case .success(false):
            record(SelfTestResult(name: role.rawValue, outcome: .passed, detail: "\(line) requested, reads released"))
        case .success(true):
            record(SelfTestResult(name: role.rawValue, outcome: .failed, detail: "\(line) reads pressed (stuck?)", hint: advice.buttonHeld(wiring)))
        case .failure(let error):
            record(SelfTestResult(name: role.rawValue, outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint))
        case nil:
            record(SelfTestResult(name: role.rawValue, outcome: .failed, detail: "\(line) not opened"))
        }
    }

    private func checkMotor() {
        guard let wiring = board.motor else {
            return record(SelfTestResult(name: "motor", outcome: .skipped, detail: "no motor in the board file"))
        }
        guard let motor, let motorLine else {
            let e = motorError.map { "\($0.operation): \($0.reason)" } ?? "not opened"
            return record(SelfTestResult(name: "motor", outcome: .failed, detail: e, hint: motorError?.hint ?? advice.motorHint(wiring)))
        }
        let line = SelfTestAdvice.lineName(chip: wiring.chip, line: wiring.line)
        if case .lineFailed(let error) = motor.play(Self.quickPattern) {
            return record(SelfTestResult(name: "motor", outcome: .failed, detail: "\(error.operation): \(error.reason)", hint: error.hint))
        }
        // The simulated line tells the level it drives; a libgpiod output
        // request is not read back (the wearer feels the pulse in the
        // interactive test instead). A class cast: Embedded Swift has no
        // casts to a protocol.
        let readback = motorLine as? SimulatedMotorLine
        let readOn = readback?.isActive
        // After the pulse, with a little margin for its off edge.
        _ = loop.schedule(after: .milliseconds(Self.quickPulseMilliseconds + 50)) { [lifetime, unowned(unsafe) self] in
            guard !lifetime.isOver, !self.finished else { return }
            let readOff = readback?.isActive
            if motor.isMotorOn || readOn == false || readOff == true {
                motor.forceOff()
                return self.record(SelfTestResult(
                    name: "motor", outcome: .failed, detail: "\(line): the level read back does not follow (on: \(readOn.map(String.init) ?? "?"), off: \(readOff.map(String.init) ?? "?"))",
                    hint: advice.motorHint(wiring)))
            }
            let how = readback == nil ? "(an output line is not read back here: feel it in the interactive test)" : "and read back on, then off"
            self.record(SelfTestResult(name: "motor", outcome: .passed, detail: "\(line) switched on for \(Self.quickPulseMilliseconds) ms, then off, \(how)"))
        }
    }
}

