/// Limits that keep the motor (and the wearer) safe whatever the patterns say.
public struct HapticsConfiguration: Sendable, Equatable {
    /// At most this much motor-on time in any sliding 60-second window;
    /// pulses are cut short when the budget runs out.
    public var maxOnTimePerMinute: Duration
    /// A repeating pattern (the ring) stops after this long.
    public var ringMaxDuration: Duration
    /// When set, `play` does nothing inside these hours.
    public var quietHours: QuietHours?

    public init(maxOnTimePerMinute: Duration = .seconds(20), ringMaxDuration: Duration = .seconds(60),
                quietHours: QuietHours? = nil) {
        self.maxOnTimePerMinute = maxOnTimePerMinute
        self.ringMaxDuration = ringMaxDuration
        self.quietHours = quietHours
    }

    public static let defaults = HapticsConfiguration()
}
