/// Limits that keep the motor (and the wearer) safe whatever the patterns say.
public struct HapticsConfiguration: Sendable, Equatable {
    /// At most this much motor-on time in any sliding 60-second window;
    /// pulses are cut short when the budget runs out.
    public var maxOnTimePerMinute: Duration
    /// A repeating pattern (the ring) stops after this long.
    public var ringMaxDuration: Duration

    public init(maxOnTimePerMinute: Duration = .seconds(20), ringMaxDuration: Duration = .seconds(60)) {
        self.maxOnTimePerMinute = maxOnTimePerMinute
        self.ringMaxDuration = ringMaxDuration
    }

    public static let defaults = HapticsConfiguration()
}
