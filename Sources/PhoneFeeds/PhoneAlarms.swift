/// The alarms the phone set for the watch (Gadgetbridge's `alarm`: its ten
/// alarm slots, the unused ones left out). Kept, whole, as the phone last
/// sent them; the model rings them with the wearer's own (`AlarmList`'s
/// phone rows). A fixed-size value.
public struct PhoneAlarms: Sendable {
    /// One alarm: a time of day, the weekdays it repeats on (none: once).
    public struct Alarm: Sendable, Equatable {
        public var hour: Int
        public var minute: Int
        /// Monday bit 0 ... Sunday bit 6 (Gadgetbridge's order); 0: once.
        public var weekdays: UInt8
        public var enabled: Bool

        public init(hour: Int, minute: Int, weekdays: UInt8, enabled: Bool) {
            self.hour = hour
            self.minute = minute
            self.weekdays = weekdays
            self.enabled = enabled
        }
    }

    /// Gadgetbridge has ten slots.
    public static let capacity = 10

    private var alarms = InlineArray<10, Alarm>(repeating: Alarm(hour: 0, minute: 0, weekdays: 0, enabled: false))
    public private(set) var count = 0
    /// Alarms past the capacity, or with a time out of range, left out of the last list.
    public private(set) var leftOut = 0

    public init() {}

    public subscript(i: Int) -> Alarm { alarms[i] }

    /// Adds one alarm of a new list; false (and counted) past the capacity
    /// or with a time that is not one (hour 0-23, minute 0-59).
    @discardableResult
    public mutating func append(_ alarm: Alarm) -> Bool {
        guard count < Self.capacity, (0...23).contains(alarm.hour), (0...59).contains(alarm.minute) else {
            leftOut += 1
            return false
        }
        alarms[count] = alarm
        count += 1
        return true
    }

    /// The alarms switched on.
    public var enabledCount: Int {
        var n = 0
        for i in 0..<count where alarms[i].enabled { n += 1 }
        return n
    }
}
