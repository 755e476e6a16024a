import Graphics

/// The watch menu's entries (the clock's negative long press), in the
/// order the buttons move through them.
public enum WatchMenu {
    public enum Entry: Int, CaseIterable, Sendable {
        case alarms, timer, stopwatch, weather, agenda, findPhone, mutedApps, status
    }

    public static let entryCount = Entry.allCases.count
    static let title: StaticString = "Menu"

    static func label(_ e: Entry) -> StaticString {
        switch e {
        case .alarms: "Alarms"
        case .timer: "Timer"
        case .stopwatch: "Stopwatch"
        case .weather: "Weather"
        case .agenda: "Agenda"
        case .findPhone: "Find phone"
        case .mutedApps: "Muted apps"
        case .status: "Status"
        }
    }
}

extension ScreenRenderer {
    func drawWatchMenu(selected: Int, status: StatusInfo, into fb: Framebuffer) {
        drawMenu(WatchMenu.title, count: WatchMenu.entryCount, selected: selected, status: status, into: fb) {
            WatchMenu.label(WatchMenu.Entry(rawValue: $0) ?? .alarms)
        }
    }
}
