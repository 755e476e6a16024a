/// What `wristcore selftest` was asked to do, as plain values (the CLI only
/// fills this in).
public struct SelfTestOptions: Sendable {
    /// No person: open every device, draw the pattern, read every button's
    /// level, pulse the motor, report.
    public var quick = false
    /// How long each interactive step waits for a press or an answer.
    public var stepTimeout: Duration = .seconds(15)
    /// `unix:PATH`: serve the harness line protocol there (tests press the
    /// buttons and take snapshots; docs/harness.md).
    public var harnessEndpoint: String?
    /// How long "pressed" stays on the panel before the next step.
    public var feedbackPause: Duration = .milliseconds(600)

    public init() {}

    /// The accepted `--timeout` range, in seconds.
    public static let timeoutRange: ClosedRange<Double> = 1...600
}
