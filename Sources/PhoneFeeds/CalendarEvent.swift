import AMS

/// One event of the phone's calendars (Gadgetbridge's `calendar`), with
/// its times on the watch's wall clock. A fixed-size value.
public struct CalendarEvent: Sendable, Equatable {
    /// The phone's id for it (a later `calendar` with the same id replaces it).
    public var id: Int64
    /// The start on the watch's wall clock: local seconds since 1970 (an
    /// all-day event: its day's midnight).
    public var start: Int64
    public var durationSeconds: Int64
    public var allDay: Bool
    public var title = MediaText()
    public var location = MediaText()

    public init(id: Int64, start: Int64, durationSeconds: Int64, allDay: Bool) {
        self.id = id
        self.start = start
        self.durationSeconds = durationSeconds
        self.allDay = allDay
    }

    /// When it is over: its duration after the start; an event without one
    /// lasts its minute (all-day: its day).
    public var end: Int64 { start + max(durationSeconds, allDay ? 86_400 : 60) }
}
