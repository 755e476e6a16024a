/// The calendar events the watch knows, in a fixed store sorted by start
/// (the phone sends them one by one and in no order). At most `capacity`:
/// past the limit the events already over go first, then the one that
/// starts last. Nothing here allocates.
public struct Agenda: Sendable {
    public static let capacity = 16

    private var events = InlineArray<16, CalendarEvent>(repeating: CalendarEvent(id: 0, start: 0, durationSeconds: 0, allDay: false))
    public private(set) var count = 0

    public init() {}

    public var isEmpty: Bool { count == 0 }

    /// The `i`th event by start.
    public subscript(i: Int) -> CalendarEvent { events[i] }

    /// Adds `event`, or replaces the one with its id. Full, it makes room by
    /// dropping what ended before `now` (local seconds since 1970), then the
    /// event that starts last; false when `event` itself was the one left out.
    @discardableResult
    public mutating func insert(_ event: CalendarEvent, now: Int64?) -> Bool {
        remove(id: event.id)
        if count == Self.capacity, let now { removeAll(endedBy: now) }
        if count == Self.capacity {
            guard event.start < events[count - 1].start else { return false }
            count -= 1
        }
        var at = count
        while at > 0 && events[at - 1].start > event.start {
            events[at] = events[at - 1]
            at -= 1
        }
        events[at] = event
        count += 1
        return true
    }

    /// Removes the event with `id` (nothing if absent).
    public mutating func remove(id: Int64) { keep { $0.id != id } }

    public mutating func removeAll() { count = 0 }

    /// Removes every event over by `now`.
    public mutating func removeAll(endedBy now: Int64) { keep { $0.end > now } }

    /// Keeps the events `wanted` says yes to, in order.
    private mutating func keep(_ wanted: (CalendarEvent) -> Bool) {
        var kept = 0
        for i in 0..<count where wanted(events[i]) {
            events[kept] = events[i]
            kept += 1
        }
        count = kept
    }

    /// The index of the first event not over at `now` (`count`: none).
    public func firstCurrent(at now: Int64) -> Int {
        var i = 0
        while i < count && events[i].end <= now { i += 1 }
        return i
    }

    /// The next timed event the clock names: in progress at `now` or starting
    /// within `window` seconds (all-day events are left to the agenda).
    public func next(at now: Int64, window: Int64 = 12 * 3_600) -> CalendarEvent? {
        for i in firstCurrent(at: now)..<count where !events[i].allDay {
            return events[i].start - now <= window ? events[i] : nil
        }
        return nil
    }

    /// The ids held, for the phone (Gadgetbridge's `force_calendar_sync`).
    public func forEachID(_ body: (Int64) -> Void) {
        for i in 0..<count { body(events[i].id) }
    }
}
