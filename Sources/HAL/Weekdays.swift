/// Days of the week as a bit set: Monday bit 0 ... Sunday bit 6 (as
/// `CivilTime.weekday` counts them, 1 Monday ... 7 Sunday, and as
/// Gadgetbridge sends them). Quiet hours' windows start on them; alarms
/// repeat on them (`AlarmDays`).
public struct Weekdays: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }
    /// 1 Monday ... 7 Sunday; any other number: none.
    public init(weekday: Int) { self.init(rawValue: (1...7).contains(weekday) ? 1 << UInt8(weekday - 1) : 0) }

    public static let everyDay = Weekdays(rawValue: 0x7F)

    /// 1 Monday ... 7 Sunday.
    public func contains(weekday: Int) -> Bool { (1...7).contains(weekday) && rawValue & (1 << UInt8(weekday - 1)) != 0 }
}
