import Graphics
import HAL
import PhoneFeeds

extension ScreenRenderer {
    static let noEvents: StaticString = "No events (Gadgetbridge sends them with \"Sync calendar events\" on)"

    /// Rows of the agenda on this panel.
    var agendaRows: Int { isCompact ? 3 : 5 }

    /// The calendar's events not yet over, one per row from `scroll`: when
    /// ("10:30" today, "Tue 10:30" within the week, "14 Mar" later; "Now"
    /// while it runs) and the title.
    func drawAgenda(_ agenda: Agenda?, scroll: Int, status: StatusInfo, into fb: Framebuffer) {
        let now = status.time?.secondsSinceEpoch ?? Int64.min
        let first = agenda?.firstCurrent(at: now) ?? 0
        guard let agenda, first < agenda.count else { return drawNotice(Self.noEvents.rawBytes, status: status, into: fb) }
        var top = 0
        if !isCompact {
            drawStatusBar(status, into: fb)
            top = Self.statusBarHeight + 1
        }
        let start = first + min(max(scroll, 0), agenda.count - first - 1)
        var row = 0
        for i in start..<agenda.count where row < agendaRows {
            scratch.clear()
            appendWhen(agenda[i], now: status.time)
            scratch.append(" ")
            agenda[i].title.withUTF8 { _ = scratch.append($0) }
            line(fb, scratch.bytes, fonts.small, x: 1, baseline: top + 8 + row * 10, maxWidth: width - 2)
            row += 1
        }
    }

    /// When `event` is, as short as its distance from `now` allows.
    func appendWhen(_ event: CalendarEvent, now: CivilTime?) {
        let start = CivilTime(secondsSinceEpoch: event.start)
        let nowSeconds = now?.secondsSinceEpoch ?? 0
        if now != nil && event.start <= nowSeconds && nowSeconds < event.end {
            scratch.append(event.allDay ? "Today" : "Now")
            return
        }
        let days = now.map { start.daysSinceEpoch - $0.daysSinceEpoch } ?? 7
        if days >= 1 && days <= 6 {
            DateText.appendWeekday(start.weekday, to: scratch)
        } else if days != 0 || event.allDay {
            scratch.append(decimal: start.day).append(" ")
            DateText.appendMonth(start.month, to: scratch)
        }
        if event.allDay { return }
        if days != 0 { scratch.append(" ") }
        DateText.appendTime(start, to: scratch)
    }
}
