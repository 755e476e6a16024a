/// A daily span of local time when the motor stays still.
///
/// Minutes of the day (0 = 00:00, 1439 = 23:59); the span may cross midnight
/// (22:00–07:00 is `QuietHours(startMinute: 1320, endMinute: 420)`). The start
/// minute is inside, the end minute is not; equal start and end mean never quiet.
public struct QuietHours: Sendable, Equatable {
    public var startMinute: Int
    public var endMinute: Int

    public init(startMinute: Int, endMinute: Int) {
        precondition((0..<1440).contains(startMinute) && (0..<1440).contains(endMinute), "minutes of the day are 0...1439")
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// "22:00" to "07:00" style, for configuration files. Nil when malformed.
    public init?(start: String, end: String) {
        guard let s = Self.minute(of: start), let e = Self.minute(of: end) else { return nil }
        self.init(startMinute: s, endMinute: e)
    }

    public func contains(minuteOfDay m: Int) -> Bool {
        if startMinute <= endMinute { return m >= startMinute && m < endMinute }
        return m >= startMinute || m < endMinute  // crosses midnight
    }

    /// "HH:MM" → minute of the day.
    static func minute(of text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }
}
