/// What a phone feeds the watch besides notifications and music: the
/// weather and the calendar (Gadgetbridge sends both; an iPhone sends
/// neither without an app; the alarms it sets go to the model's
/// `AlarmList`). The watch keeps one, across phone links: the
/// weather says how old it is, and the calendar is reconciled with the
/// phone when it connects again. A class so the renderer reads it in place.
public final class PhoneFeeds {
    /// The last report (nil: none since the watch started).
    public var weather: WeatherReport?
    public var agenda = Agenda()

    public init() {}
}
