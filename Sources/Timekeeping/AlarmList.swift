/// The alarms the wearer set on the watch, and the ones the phone set
/// (Gadgetbridge's `alarm`), in fixed tables: adding, changing, removing and
/// finding the next ring allocate nothing. The watch's own are kept in the
/// state directory (the daemon's `alarms` file); the phone's are replaced
/// whole each time the phone sends its list.
public struct AlarmList: Sendable, Equatable {
    /// The most alarms the wearer can set, and the most kept from the phone
    /// (Gadgetbridge has ten slots).
    public static let capacity = 10

    private var own = InlineArray<10, Alarm>(repeating: Alarm(hour: 0, minute: 0, enabled: false))
    private var phone = InlineArray<10, Alarm>(repeating: Alarm(hour: 0, minute: 0, enabled: false))
    /// The wearer's alarms.
    public private(set) var ownCount = 0
    /// The phone's alarms.
    public private(set) var phoneCount = 0

    public init() {}

    public static func == (a: AlarmList, b: AlarmList) -> Bool {
        guard a.ownCount == b.ownCount, a.phoneCount == b.phoneCount else { return false }
        for i in 0..<a.ownCount where a.own[i] != b.own[i] { return false }
        for i in 0..<a.phoneCount where a.phone[i] != b.phone[i] { return false }
        return true
    }

    /// Every alarm: the wearer's first, then the phone's (the screen's rows).
    public var count: Int { ownCount + phoneCount }

    /// The `i`th alarm in screen order.
    public subscript(i: Int) -> Alarm { i < ownCount ? own[i] : phone[i - ownCount] }

    /// Whether row `i` is one of the phone's (shown, not edited on the watch).
    public func isFromPhone(_ i: Int) -> Bool { i >= ownCount }

    /// Adds one of the wearer's; false when full or not a time.
    @discardableResult
    public mutating func add(_ alarm: Alarm) -> Bool {
        guard ownCount < Self.capacity, alarm.isValid else { return false }
        own[ownCount] = alarm
        ownCount += 1
        return true
    }

    /// Changes the wearer's `i`th alarm; false when there is none or it is not a time.
    @discardableResult
    public mutating func replace(_ i: Int, with alarm: Alarm) -> Bool {
        guard i >= 0, i < ownCount, alarm.isValid else { return false }
        own[i] = alarm
        return true
    }

    /// Removes the wearer's `i`th alarm (the rest move up).
    public mutating func remove(_ i: Int) {
        guard i >= 0, i < ownCount else { return }
        var j = i
        while j + 1 < ownCount {
            own[j] = own[j + 1]
            j += 1
        }
        ownCount -= 1
    }

    /// Switches row `i` on or off (the phone's too: until the phone sends its list again).
    public mutating func setEnabled(_ i: Int, _ on: Bool) {
        if i < ownCount { own[i].enabled = on } else if i - ownCount < phoneCount { phone[i - ownCount].enabled = on }
    }

    /// The phone's new list replaces its old one; alarms past the capacity
    /// or not a time are left out (the count of them is returned).
    @discardableResult
    public mutating func replacePhoneAlarms(_ alarms: some Sequence<Alarm>) -> Int {
        phoneCount = 0
        var leftOut = 0
        for a in alarms {
            guard phoneCount < Self.capacity, a.isValid else {
                leftOut += 1
                continue
            }
            phone[phoneCount] = a
            phoneCount += 1
        }
        return leftOut
    }

    /// The next ring strictly after `local` (local seconds), with its row;
    /// nil when no alarm is on.
    public func nextRing(after local: Int64) -> (row: Int, at: Int64)? {
        var best: (row: Int, at: Int64)?
        for i in 0..<count {
            guard let t = self[i].nextRing(after: local) else { continue }
            if best == nil || t < best!.at { best = (i, t) }
        }
        return best
    }

    /// After row `i` rang at `local`: a one-time alarm switches itself off.
    public mutating func rang(_ i: Int) {
        guard i < count, self[i].days.isEmpty else { return }
        setEnabled(i, false)
    }
}
