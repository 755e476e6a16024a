import BoardConfig

/// What a hand does with one button of the simulated board, as a timeline of
/// press / release edges on its line (the demo's keys and scenario steps).
/// The watch's own gesture recognizer (Sources/Input) turns the edges into a
/// press, a long press or a double press exactly as it does for a GPIO line,
/// so the durations come from the board's `input` timing:
///
/// - `press`: held past the debounce, released well before the long-press time;
/// - `long`: held past the long-press time;
/// - `double`: two such presses, the second starting inside the double-press
///   window (and after the first release has settled);
/// - `hold(ms)`: held exactly that long (a scenario's `hold BUTTON MS`).
public enum ButtonPress: Equatable, Sendable {
    case press
    case long
    case double
    case hold(Duration)

    /// One level change of the line, `after` the start of the gesture.
    public struct Edge: Equatable, Sendable {
        public var after: Duration
        public var active: Bool
        public init(after: Duration, active: Bool) {
            self.after = after
            self.active = active
        }
    }

    /// How long a short press is held: past the debounce by 60 ms, and never
    /// more than halfway to the long-press time (80 ms with the defaults).
    public static func shortHold(_ t: InputTiming) -> Duration {
        var hold = t.debounce + .milliseconds(60)
        if t.longPress > t.debounce { hold = min(hold, t.debounce + half(t.longPress - t.debounce)) }
        return hold
    }

    /// How long a long press is held: the long-press time, the debounce, and
    /// 150 ms to spare (770 ms with the defaults).
    public static func longHold(_ t: InputTiming) -> Duration {
        t.longPress + t.debounce + .milliseconds(150)
    }

    /// The gap between the two presses of a double press: halfway between the
    /// debounce (a shorter gap is a bounce) and the double-press window (a
    /// longer one is two presses): 160 ms with the defaults.
    public static func doubleGap(_ t: InputTiming) -> Duration {
        guard t.doublePress > t.debounce else { return t.debounce }
        return t.debounce + half(t.doublePress - t.debounce)
    }

    private static func half(_ d: Duration) -> Duration { .nanoseconds(d.nanosecondsClamped / 2) }

    /// The edges, in order, from the start of the gesture.
    public func edges(_ t: InputTiming) -> [Edge] {
        switch self {
        case .press:
            return [Edge(after: .zero, active: true), Edge(after: Self.shortHold(t), active: false)]
        case .long:
            return [Edge(after: .zero, active: true), Edge(after: Self.longHold(t), active: false)]
        case .hold(let d):
            return [Edge(after: .zero, active: true), Edge(after: d, active: false)]
        case .double:
            let hold = Self.shortHold(t)
            let second = hold + Self.doubleGap(t)
            return [
                Edge(after: .zero, active: true), Edge(after: hold, active: false),
                Edge(after: second, active: true), Edge(after: second + hold, active: false),
            ]
        }
    }

    /// From the first edge to the last.
    public func length(_ t: InputTiming) -> Duration { edges(t).last?.after ?? .zero }

    /// How the footer names it after the button: "" for a press, " (long)",
    /// " (double)", " (held 300 ms)" for a hold shorter than a long press.
    public func suffix(_ t: InputTiming) -> String {
        switch self {
        case .press: ""
        case .long: " (long)"
        case .double: " (double)"
        case .hold(let d): d >= t.longPress ? " (long)" : " (held \(d.millisecondsClamped) ms)"
        }
    }
}
