/// What a phone feeds the watch besides notifications and music: the
/// weather, the calendar and the alarms it sets (Gadgetbridge sends both; an iPhone sends
/// neither without an app). The watch keeps one, across phone links: the
/// weather says how old it is, and the calendar is reconciled with the
/// phone when it connects again. A class so the renderer reads it in place.
public final class PhoneFeeds {
    /// The last report (nil: none since the watch started).
    public var weather: WeatherReport?
    public var agenda = Agenda()
    /// The alarms the phone set, as it sent them (the model rings them: `AlarmList`).
    public var alarms = PhoneAlarms()

    public init() {}
}
