/// User-defined patterns (the settings file's `patterns`): a list of
/// milliseconds, motor on, off, on, off ... (an odd count ends on a pulse).
/// Bounded so no pattern can buzz for long or hold a table of any size:
/// each step 10–5000 ms, at most 16 steps, and one pass's on-time within
/// the motor's cap (`HapticsConfiguration.maxOnTimePerMinute`).
extension VibrationPattern {
    /// Allowed milliseconds of one step.
    public static let stepMilliseconds: ClosedRange<Int> = 10...5000
    /// The most steps (on and off values together) a pattern may have.
    public static let maxSteps = 16

    /// Why a list of milliseconds is not a pattern.
    public enum OnOffError: Error, Equatable, Sendable {
        case empty
        case tooManySteps(count: Int)
        /// Step `index` (0-based) is outside `stepMilliseconds`.
        case stepOutOfRange(index: Int, milliseconds: Int)
        /// One pass runs the motor longer than the cap allows.
        case onTimeOverCap(onMilliseconds: Int, capMilliseconds: Int)
    }

    /// The pattern `name` from on/off milliseconds, checked against the
    /// bounds and the motor's on-time `cap`. Made once, at load: playing it
    /// later allocates nothing, as with the built-ins.
    public init(name: String, onOffMilliseconds steps: [Int], cap: Duration) throws(OnOffError) {
        guard !steps.isEmpty else { throw .empty }
        guard steps.count <= Self.maxSteps else { throw .tooManySteps(count: steps.count) }
        for (i, ms) in steps.enumerated() where !Self.stepMilliseconds.contains(ms) {
            throw .stepOutOfRange(index: i, milliseconds: ms)
        }
        var onTotal = 0
        var pulses: [Pulse] = []
        pulses.reserveCapacity((steps.count + 1) / 2)
        var i = 0
        while i < steps.count {
            onTotal += steps[i]
            let off = i + 1 < steps.count ? steps[i + 1] : 0
            pulses.append(Pulse(on: .milliseconds(steps[i]), off: .milliseconds(off)))
            i += 2
        }
        let capMs = Int(cap.components.seconds) * 1000 + Int(cap.components.attoseconds / 1_000_000_000_000_000)
        guard onTotal <= capMs else { throw .onTimeOverCap(onMilliseconds: onTotal, capMilliseconds: capMs) }
        self.init(name: name, pulses: pulses)
    }
}
