import HAL
import TextFormat

/// How one self-test step ended.
public enum SelfTestOutcome: String, Sendable, Equatable {
    case passed
    case failed
    /// Not applicable to this board (no motor in the board file).
    case skipped
    /// Never reached: the test was interrupted (a signal) first.
    case notRun = "not run"

    /// The four-letter column of the terminal summary.
    var tag: String {
        switch self {
        case .passed: "PASS"
        case .failed: "FAIL"
        case .skipped: "SKIP"
        case .notRun: "----"
        }
    }
}

/// One step's result: what was tested, how it ended, what was seen, and for
/// a failure which board-file field or wire to look at.
public struct SelfTestResult: Sendable, Equatable {
    /// "display", "positive" (a button's role), "motor".
    public var name: String
    public var outcome: SelfTestOutcome
    /// What happened, in a few words ("pressed (gpiochip0 line 17)").
    public var detail: String
    /// What to change when it failed.
    public var hint: String?

    public init(name: String, outcome: SelfTestOutcome, detail: String, hint: String? = nil) {
        self.name = name
        self.outcome = outcome
        self.detail = detail
        self.hint = hint
    }
}

/// Every step's result, the verdict and the exit code: 0 only when every
/// step passed (a step that does not apply to the board, such as the motor of
/// a board without one, is skipped and does not fail the test); 1 otherwise,
/// including an interrupted run.
public struct SelfTestSummary: Sendable, Equatable {
    public var results: [SelfTestResult] = []
    /// The signal that cut the run short ("SIGINT"), if one did.
    public var interruption: String?

    public init(results: [SelfTestResult] = [], interruption: String? = nil) {
        self.results = results
        self.interruption = interruption
    }

    public var failedCount: Int { results.count { $0.outcome == .failed || $0.outcome == .notRun } }
    public var passedCount: Int { results.count { $0.outcome == .passed } }

    public var allPassed: Bool {
        interruption == nil && !results.isEmpty && results.allSatisfy { $0.outcome == .passed || $0.outcome == .skipped }
    }

    public var exitCode: Int32 { allPassed ? WristCoreExit.ok : WristCoreExit.runtimeFailure }

    /// One line: "PASSED: all 8 steps" / "FAILED: 2 of 8 steps".
    public var verdict: String {
        let counted = results.count { $0.outcome != .skipped }
        if allPassed { return "PASSED: all \(counted) step\(counted == 1 ? "" : "s")" }
        if let interruption { return "INTERRUPTED by \(interruption): \(passedCount) of \(counted) steps passed" }
        return "FAILED: \(failedCount) of \(counted) step\(counted == 1 ? "" : "s")"
    }

    /// The terminal's summary table, one line per step, hints indented under failures.
    public func terminalText(board: String) -> String {
        let width = max(8, results.map { $0.name.count }.max() ?? 0)
        var lines = ["Summary for \(board):"]
        for r in results {
            let pad = String(repeating: " ", count: width - r.name.count)
            lines.append("  \(r.outcome.tag)  \(r.name)\(pad)  \(r.detail)")
            if r.outcome == .failed, let hint = r.hint { lines.append("        -> \(hint)") }
        }
        lines.append("Self-test \(verdict)")
        return lines.joined(separator: "\n")
    }

    /// The results as JSON (the harness `state` reply's "selftest" object).
    public func json() -> String {
        let items = results.map { r in
            "{\"name\":\(Self.quoted(r.name)),\"outcome\":\(Self.quoted(r.outcome.rawValue)),\"detail\":\(Self.quoted(r.detail))}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// A JSON string literal.
    static func quoted(_ s: String) -> String {
        "\"" + EscapedText.escaped(s, style: .json, quote: true, backslash: true) + "\""
    }
}
