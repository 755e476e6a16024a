import BoardConfig
import HAL
import Input
import PhoneFeeds
import Screens

/// The phone's weather and calendar, and the watch menu that shows them:
/// the clock's negative long press opens the menu (Weather, Agenda, Find
/// phone; docs/buttons.md). The feeds stay across phone links: the weather
/// screen says when its report came, and the phone reconciles the calendar
/// when it connects again (`force_calendar_sync`). Updating them allocates
/// nothing (fixed stores in `PhoneFeeds`).
extension WatchModel {
    /// The phone sent the weather; it is stamped with the watch's clock.
    public func weatherReceived(_ report: WeatherReport, now: MonotonicInstant) {
        var report = report
        report.receivedAt = localSeconds(at: now)
        feeds.weather = report
        feedsChanged()
    }

    /// The phone sent a calendar event (new, or changed: the same id).
    /// Past the agenda's capacity the latest-starting event is left out.
    public func calendarEventReceived(_ event: CalendarEvent, now: MonotonicInstant) {
        if !feeds.agenda.insert(event, now: localSeconds(at: now)) { calendarEventsLeftOut += 1 }
        feedsChanged()
    }

    /// The phone deleted a calendar event.
    public func calendarEventRemoved(id: Int64) {
        feeds.agenda.remove(id: id)
        feedsChanged()
    }

    /// The connected phone can be rung from the watch (Gadgetbridge is on the link).
    public func phoneCanRing() { canFindPhone = true }

    /// The wall clock now, as local seconds since 1970 (nil: not known).
    func localSeconds(at now: MonotonicInstant) -> Int64? {
        wallClock.time(at: now)?.secondsSinceEpoch
    }

    private func feedsChanged() {
        switch screen {
        case .idleClock, .weather, .agenda: requestRender()
        default: break
        }
    }

    func openWatchMenu() { screen = .watchMenu(selected: watchMenuStart) }

    /// A gesture on the watch menu (moves like the Do Not Disturb menu).
    func watchMenuButton(_ role: ButtonRole, _ gesture: ButtonGesture, selected: Int, now: MonotonicInstant) {
        guard let step = MenuGesture(role, gesture) else { return }
        switch step {
        case .choose:
            guard let entry = WatchMenu.Entry(rawValue: selected) else { return }
            choose(entry)
            restartSecondTick(now: now)
        case .next, .previous:
            screen = .watchMenu(selected: step.moved(selected, count: WatchMenu.entryCount))
        case .cancel:
            screen = clockScreen
        }
    }

    private func choose(_ entry: WatchMenu.Entry) {
        switch entry {
        case .alarms: screen = .alarms(selected: 0)
        case .timer: screen = .timer
        case .stopwatch: screen = .stopwatch
        case .weather: screen = .weather
        case .agenda: screen = .agenda(scroll: 0)
        case .findPhone:
            guard canFindPhone else {
                screen = .message(isPhoneConnected ? Self.cannotRingThisPhone : Self.noPhoneToRing)
                return
            }
            isFindingPhone = true
            effects.requestFindPhone(true)
            screen = .findingPhone
        case .status:
            screen = .status(scroll: 0)
        case .mutedApps:
            screen = .mutedApps(selected: 0)
        }
    }

    static let cannotRingThisPhone = "Only Gadgetbridge (Android) can ring its phone"
    static let noPhoneToRing = "No phone connected"

    /// The weather and agenda screens: the negative button (or back) goes
    /// back to the menu; the agenda scrolls like a notification.
    func feedScreenButton(_ role: ButtonRole, _ gesture: ButtonGesture, now: MonotonicInstant) {
        switch (screen, role, gesture) {
        case (.agenda(let scroll), .positive, .longPress), (.agenda(let scroll), .down, _), (.agenda(let scroll), .select, _),
             (.agenda(let scroll), .positive, .press):
            screen = .agenda(scroll: scroll + 1 < upcomingEvents(at: now) ? scroll + 1 : 0)
        case (.agenda(let scroll), .positive, .doublePress), (.agenda(let scroll), .up, _):
            screen = .agenda(scroll: max(0, scroll - 1))
        case (_, .negative, _), (_, .back, _), (.weather, .positive, .press), (.weather, .select, _):
            screen = .watchMenu(selected: screen == .weather ? WatchMenu.Entry.weather.rawValue : WatchMenu.Entry.agenda.rawValue)
        default:
            break
        }
    }

    /// Events not yet over (what the agenda lists).
    private func upcomingEvents(at now: MonotonicInstant) -> Int {
        feeds.agenda.count - feeds.agenda.firstCurrent(at: localSeconds(at: now) ?? Int64.min)
    }

    /// Any button stops the phone ringing.
    func findingPhoneButton() {
        stopFindingPhone()
        screen = .watchMenu(selected: WatchMenu.Entry.findPhone.rawValue)
    }

    func stopFindingPhone() {
        guard isFindingPhone else { return }
        isFindingPhone = false
        effects.requestFindPhone(false)
    }
}
