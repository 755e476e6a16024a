import AMS
import Graphics
import HAL
import Notifications
import PhoneFeeds
import Screens
import Testing

/// The phone's weather and calendar on the clock and their screens, the
/// watch menu and "Find phone", against golden pictures.
@Suite("Screens: weather, agenda and the watch menu")
struct FeedsGoldenTests {
    /// 18:42 on Thursday 14 March 2024, in the watch's local seconds.
    static let now = thursdayEvening.secondsSinceEpoch

    static func berlin() -> WeatherReport {
        var w = WeatherReport(temperature: WeatherReport.celsius(kelvin: 288))
        w.high = WeatherReport.celsius(kelvin: 291)
        w.low = WeatherReport.celsius(kelvin: 270)
        w.humidity = 72
        w.windKmh = 12
        w.windDirection = 230
        w.summary = MediaText("scattered clouds")
        w.location = MediaText("Berlin")
        w.receivedAt = now - 37 * 60
        return w
    }

    static func event(_ id: Int64, _ title: String, at start: Int64, minutes: Int64 = 30, allDay: Bool = false) -> CalendarEvent {
        var e = CalendarEvent(id: id, start: start, durationSeconds: minutes * 60, allDay: allDay)
        e.title = MediaText(title)
        return e
    }

    static func feeds(weather: Bool = true, events: Bool = true) -> PhoneFeeds {
        let f = PhoneFeeds()
        if weather { f.weather = berlin() }
        guard events else { return f }
        let midnight = CivilTime(year: 2024, month: 3, day: 14).secondsSinceEpoch
        f.agenda.insert(event(1, "Dinner with Anna", at: now + 48 * 60), now: now)
        f.agenda.insert(event(2, "Yoga", at: now - 12 * 60, minutes: 60), now: now)
        f.agenda.insert(event(3, "Stand-up", at: midnight + 86_400 + 9 * 3_600 + 30 * 60), now: now)
        f.agenda.insert(event(4, "Holiday", at: midnight + 5 * 86_400, minutes: 24 * 60, allDay: true), now: now)
        f.agenda.insert(event(5, "Dentist", at: midnight + 20 * 86_400 + 8 * 3_600), now: now)
        f.agenda.insert(event(6, "Breakfast", at: now - 10 * 3_600), now: now)  // over
        return f
    }

    @Test("the clock names the next event and the temperature, or the weather alone")
    func clock() {
        let f = Fixture()
        Golden.check(image: Panel().render(.idleClock, status(), f.consumer, feeds: Self.feeds()), "idle-event-weather-128x64")
        Golden.check(image: Panel().render(.idleClock, status(), f.consumer, feeds: Self.feeds(events: false)), "idle-weather-128x64")
        // 128x32 has no room: the clock is as before.
        let short = Panel(height: 32)
        let unchanged = short.render(.idleClock, status(), f.consumer, feeds: Self.feeds()) == short.render(.idleClock, status(), f.consumer)
        #expect(unchanged)
    }

    @Test("a stale report leaves the clock; the weather screen still shows it")
    func staleWeather() {
        let f = Fixture()
        let feeds = Self.feeds(events: false)
        feeds.weather?.receivedAt = Self.now - WeatherReport.clockFreshnessSeconds
        let p = Panel()
        let clockUnchanged = p.render(.idleClock, status(), f.consumer, feeds: feeds) == p.render(.idleClock, status(), f.consumer)
        #expect(clockUnchanged)
        let stillShown = p.render(.weather, status(), f.consumer, feeds: feeds) != p.render(.weather, status(), f.consumer, feeds: PhoneFeeds())
        #expect(stillShown)
    }

    @Test("the weather screen, both sizes, and without a report")
    func weather() {
        let f = Fixture()
        Golden.check(image: Panel().render(.weather, status(), f.consumer, feeds: Self.feeds()), "weather-128x64")
        Golden.check(image: Panel(height: 32).render(.weather, status(), f.consumer, feeds: Self.feeds()), "weather-128x32")
        Golden.check(image: Panel().render(.weather, status(), f.consumer, feeds: PhoneFeeds()), "weather-none-128x64")
    }

    @Test("the agenda from the running event, scrolled, both sizes, and empty")
    func agenda() {
        let f = Fixture()
        Golden.check(image: Panel().render(.agenda(scroll: 0), status(), f.consumer, feeds: Self.feeds()), "agenda-128x64")
        Golden.check(image: Panel(height: 32).render(.agenda(scroll: 1), status(), f.consumer, feeds: Self.feeds()), "agenda-128x32-scrolled")
        Golden.check(image: Panel().render(.agenda(scroll: 0), status(), f.consumer, feeds: PhoneFeeds()), "agenda-none-128x64")
        // Scrolling past the end shows the last event.
        let p = Panel()
        let clamped = p.render(.agenda(scroll: 99), status(), f.consumer, feeds: Self.feeds())
            == p.render(.agenda(scroll: 4), status(), f.consumer, feeds: Self.feeds())
        #expect(clamped)
    }

    @Test("the watch menu, both sizes, and ringing the phone")
    func menu() {
        let f = Fixture()
        Golden.check(image: Panel().render(.watchMenu(selected: 2), status(), f.consumer), "watch-menu-128x64")
        Golden.check(image: Panel(height: 32).render(.watchMenu(selected: 0), status(), f.consumer), "watch-menu-128x32")
        Golden.check(image: Panel().render(.findingPhone, status(), f.consumer), "finding-phone-128x64")
    }
}
