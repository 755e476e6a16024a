/// A vibration pattern as data: pulses of motor-on then motor-off time.
///
/// Patterns are values made once (the built-ins are static), so playing one
/// copies a reference to its pulse array and allocates nothing.
public struct VibrationPattern: Sendable, Equatable, CustomStringConvertible {
    /// One pulse: the motor runs for `on`, then rests for `off`.
    public struct Pulse: Sendable, Equatable {
        public var on: Duration
        public var off: Duration
        public init(on: Duration, off: Duration) {
            self.on = on
            self.off = off
        }
    }

    /// For logs, the harness and board files ("short", "double", "ring").
    public var name: String
    public var pulses: [Pulse]
    /// The pattern starts over after its last pulse until stopped (or until
    /// the ring's maximum duration, see `HapticsConfiguration`).
    public var repeats: Bool

    public init(name: String, pulses: [Pulse], repeats: Bool = false) {
        self.name = name
        self.pulses = pulses
        self.repeats = repeats
    }

    /// One short tap: an ordinary notification.
    public static let short = VibrationPattern(name: "short", pulses: [Pulse(on: .milliseconds(80), off: .zero)])

    /// Two taps: an Important notification.
    public static let double = VibrationPattern(
        name: "double",
        pulses: [Pulse(on: .milliseconds(80), off: .milliseconds(120)), Pulse(on: .milliseconds(80), off: .zero)])

    /// Buzz-buzz, pause, repeating: an incoming call.
    public static let ring = VibrationPattern(
        name: "ring",
        pulses: [Pulse(on: .milliseconds(400), off: .milliseconds(200)), Pulse(on: .milliseconds(400), off: .milliseconds(1_000))],
        repeats: true)

    /// Three pulses, a pause, repeating: an alarm the wearer set (17 s of
    /// motor-on time a minute, under the motor's cap).
    public static let alarm = VibrationPattern(
        name: "alarm",
        pulses: [
            Pulse(on: .milliseconds(200), off: .milliseconds(150)), Pulse(on: .milliseconds(200), off: .milliseconds(150)),
            Pulse(on: .milliseconds(200), off: .milliseconds(1_400)),
        ],
        repeats: true)

    /// A long pulse, a pause, repeating: the countdown timer ended.
    public static let timer = VibrationPattern(
        name: "timer",
        pulses: [Pulse(on: .milliseconds(400), off: .milliseconds(1_100))],
        repeats: true)

    public static let builtIns: [VibrationPattern] = [.short, .double, .ring, .alarm, .timer]

    /// The built-in pattern with this name, if any.
    public static func named(_ name: String) -> VibrationPattern? { builtIns.first { $0.name == name } }

    /// Motor-on time of one pass through the pulses.
    public var onTime: Duration { pulses.reduce(.zero) { $0 + $1.on } }
    /// Length of one pass through the pulses.
    public var length: Duration { pulses.reduce(.zero) { $0 + $1.on + $1.off } }

    public var description: String { name }
}
