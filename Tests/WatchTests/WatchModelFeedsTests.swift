import AMS
import BoardConfig
import HAL
import Input
import PhoneFeeds
import Screens
import Testing
import Watch

/// The phone's weather and calendar in the model, the watch menu (the
/// clock's negative long press) and ringing the phone from it.
@Suite struct WatchModelFeedsTests {
    typealias Outcome = WatchModelButtonTests.Outcome

    /// A connected phone, the wall clock at 1 May 2024 18:00.
    static func rig(canRing: Bool = true) -> ModelRig {
        var settings = ModelRig.defaultSettings()
        settings.systemClock = SettableClock(SettableClock.at(18, 0)).read
        let rig = ModelRig(settings: settings)
        rig.connect()
        if canRing { rig.model.phoneCanRing() }
        _ = rig.sink.take()
        return rig
    }

    static var sixPM: Int64 { SettableClock.at(18, 0).secondsSinceEpoch }

    static func event(_ id: Int64, at start: Int64, minutes: Int64 = 30) -> CalendarEvent {
        var e = CalendarEvent(id: id, start: start, durationSeconds: minutes * 60, allDay: false)
        e.title = MediaText("event \(id)")
        return e
    }

    /// Opens the watch menu from the clock and moves down to `entry`.
    static func openMenu(at entry: WatchMenu.Entry, _ rig: ModelRig) {
        rig.press(.negative, .longPress)
        for _ in 0..<entry.rawValue { rig.press(.positive, .longPress) }
        #expect(rig.screen == .watchMenu(selected: entry.rawValue))
    }

    /// The menu opened on the clock, "Agenda" highlighted: choose, move, cancel.
    @Test(arguments: BoardButtons.all)
    func menu(board: BoardButtons) {
        let clock = Outcome(screen: .idleClock)
        let agenda = WatchMenu.Entry.agenda.rawValue
        WatchModelButtonTests().check(board, start: {
            let rig = Self.rig()
            Self.openMenu(at: .agenda, rig)
            return rig
        }, [
            "positive press": Outcome(screen: .agenda(scroll: 0)), "select press": Outcome(screen: .agenda(scroll: 0)),
            "positive longPress": Outcome(screen: .watchMenu(selected: agenda + 1)),
            "down press": Outcome(screen: .watchMenu(selected: agenda + 1)), "down longPress": Outcome(screen: .watchMenu(selected: agenda + 1)),
            "positive doublePress": Outcome(screen: .watchMenu(selected: agenda - 1)),
            "up press": Outcome(screen: .watchMenu(selected: agenda - 1)), "up longPress": Outcome(screen: .watchMenu(selected: agenda - 1)),
            "negative press": clock, "negative longPress": clock, "back press": clock, "back longPress": clock,
        ])
    }

    @Test func theWeatherIsStampedWithTheWatchClockAndRedrawsTheClock() {
        let rig = Self.rig()
        rig.sink.renders = 0
        var report = WeatherReport(temperature: 15)
        report.summary = MediaText("scattered clouds")
        rig.model.weatherReceived(report, now: rig.now)
        #expect(rig.model.feeds.weather?.temperature == 15)
        #expect(rig.model.feeds.weather?.receivedAt == Self.sixPM)
        #expect(rig.sink.renders == 1)
        // Off the clock nothing is redrawn for it.
        rig.press(.positive, .longPress)  // the Do Not Disturb menu
        rig.sink.renders = 0
        rig.model.weatherReceived(report, now: rig.now)
        #expect(rig.sink.renders == 0)
    }

    @Test func weatherAndAgendaScreensGoBackToTheMenu() {
        let rig = Self.rig()
        Self.openMenu(at: .weather, rig)
        rig.press(.positive)
        #expect(rig.screen == .weather)
        rig.press(.negative)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.weather.rawValue))
        rig.press(.down)
        rig.press(.select)
        #expect(rig.screen == .agenda(scroll: 0))
        rig.press(.back)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.agenda.rawValue))
    }

    @Test func theAgendaScrollsThroughEventsNotYetOverAndWraps() {
        let rig = Self.rig()
        rig.model.calendarEventReceived(Self.event(1, at: Self.sixPM - 3_600), now: rig.now)  // over
        for id in Int64(2)...4 { rig.model.calendarEventReceived(Self.event(id, at: Self.sixPM + id * 3_600), now: rig.now) }
        Self.openMenu(at: .agenda, rig)
        rig.press(.select)
        rig.press(.down)
        rig.press(.down)
        #expect(rig.screen == .agenda(scroll: 2))
        rig.press(.down)
        #expect(rig.screen == .agenda(scroll: 0))  // three upcoming: wraps
        rig.press(.up)
        #expect(rig.screen == .agenda(scroll: 0))
    }

    @Test func calendarEventsAreReplacedByIdAndRemoved() {
        let rig = Self.rig()
        rig.model.calendarEventReceived(Self.event(7, at: Self.sixPM + 600), now: rig.now)
        var moved = Self.event(7, at: Self.sixPM + 7_200)
        moved.title = MediaText("moved")
        rig.model.calendarEventReceived(moved, now: rig.now)
        #expect(rig.model.feeds.agenda.count == 1)
        #expect(rig.model.feeds.agenda[0].title.string == "moved")
        rig.model.calendarEventRemoved(id: 7)
        #expect(rig.model.feeds.agenda.isEmpty)
    }

    /// 16 fit; past that, events already over go first, then the one that starts last.
    @Test func aFullAgendaDropsWhatIsOverThenTheLatest() {
        let rig = Self.rig()
        rig.model.calendarEventReceived(Self.event(100, at: Self.sixPM - 7_200), now: rig.now)  // over
        for id in Int64(1)...15 { rig.model.calendarEventReceived(Self.event(id, at: Self.sixPM + id * 3_600), now: rig.now) }
        #expect(rig.model.feeds.agenda.count == Agenda.capacity)
        rig.model.calendarEventReceived(Self.event(16, at: Self.sixPM + 16 * 3_600), now: rig.now)
        #expect(rig.model.feeds.agenda.count == Agenda.capacity)
        #expect(rig.model.feeds.agenda[0].id == 1)  // the one over went
        // Full of upcoming events: an earlier one takes the latest's place; a later one is left out.
        rig.model.calendarEventReceived(Self.event(0, at: Self.sixPM + 60), now: rig.now)
        #expect(rig.model.feeds.agenda[0].id == 0)
        #expect(rig.model.feeds.agenda[Agenda.capacity - 1].id == 15)
        rig.model.calendarEventReceived(Self.event(99, at: Self.sixPM + 99 * 3_600), now: rig.now)
        #expect(rig.model.calendarEventsLeftOut == 1)
        var ids: [Int64] = []
        rig.model.feeds.agenda.forEachID { ids.append($0) }
        #expect(ids == Array(0...15))
    }

    @Test func findPhoneRingsUntilAnyButtonAndNotWithoutGadgetbridge() {
        let rig = Self.rig()
        rig.press(.negative, .longPress)
        rig.press(.up)  // wraps to "Status", the last entry
        rig.press(.up)  // "Muted apps"
        rig.press(.up)  // "Find phone"
        rig.press(.positive)
        #expect(rig.screen == .findingPhone)
        #expect(rig.sink.take() == [.findPhone(true)])
        rig.press(.negative)
        #expect(rig.sink.take() == [.findPhone(false)])
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.findPhone.rawValue))

        let iPhone = Self.rig(canRing: false)
        iPhone.press(.negative, .longPress)
        iPhone.press(.up)
        iPhone.press(.up)
        iPhone.press(.up)
        iPhone.press(.positive)
        #expect(iPhone.sink.take() == [])
        #expect(iPhone.screen == .message("Only Gadgetbridge (Android) can ring its phone"))
    }

    @Test func theLinkGoingStopsFindingThePhoneAndForgetsThatItCouldRing() {
        let rig = Self.rig()
        rig.press(.negative, .longPress)
        rig.press(.up)
        rig.press(.positive)
        _ = rig.sink.take()
        rig.disconnect()
        #expect(!rig.model.isFindingPhone && !rig.model.canFindPhone)
        #expect(rig.screen == .waitingForPhone)
    }

    @Test func weatherAndTheCalendarStayAcrossLinks() {
        let rig = Self.rig()
        rig.model.weatherReceived(WeatherReport(temperature: -4), now: rig.now)
        rig.model.calendarEventReceived(Self.event(1, at: Self.sixPM + 600), now: rig.now)
        rig.disconnect()
        rig.connect()
        #expect(rig.model.feeds.weather?.temperature == -4)
        #expect(rig.model.feeds.agenda.count == 1)
    }

    @Test func kelvinToCelsiusAndCompassPoints() {
        #expect(WeatherReport.celsius(kelvin: 288) == 15)  // 14.85
        #expect(WeatherReport.celsius(kelvin: 273) == 0)  // -0.15
        #expect(WeatherReport.celsius(kelvin: 270) == -3)  // -3.15
        #expect(WeatherReport.celsius(kelvin: 0) == -273)
        #expect(WeatherReport.celsius(kelvin: Int64.max) == 9_727)  // clamped, no trap
        #expect(WeatherReport.celsius(kelvin: Int64.min) == -10_273)
        #expect("\(WeatherReport.compassPoint(degrees: 230))" == "SW")
        #expect("\(WeatherReport.compassPoint(degrees: 359))" == "N")
        #expect("\(WeatherReport.compassPoint(degrees: -90))" == "W")
    }
}
