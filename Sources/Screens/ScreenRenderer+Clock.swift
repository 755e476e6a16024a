import HAL
import Graphics
import PhoneFeeds

extension ScreenRenderer {
    /// The idle face: the time in seven-segment digits (`ClockDigits`), the
    /// date, the Bluetooth state and the unread count. No status bar. On
    /// 128x64 a line under the date names the next calendar event (within
    /// 12 hours), else the weather; with an event there, the temperature
    /// sits between the glyphs of the bottom row.
    ///
    /// The digits sit inside display pages 0...2 (rows 0...23) on both
    /// panels, so a minute tick touches at most 3 pages and only the
    /// columns of the digits that changed.
    func drawIdleClock(_ status: StatusInfo, feeds: PhoneFeeds?, into fb: Framebuffer) {
        let digits = ClockDigits.idle
        let timeWidth = digits.timeWidth
        if isCompact {
            // 128x32: the time on the left; weekday, day and the state glyphs
            // stack on the right.
            drawBigTime(status.time, x: 2, top: 1, into: fb)
            let column = timeWidth + 8
            if let t = status.time {
                scratch.clear()
                DateText.appendWeekday(t.weekday, to: scratch)
                line(fb, scratch.bytes, fonts.small, x: column, baseline: 8, maxWidth: width - column)
                scratch.clear().append(decimal: t.day)
                line(fb, scratch.bytes, fonts.small, x: column, baseline: 19, maxWidth: width - column)
            }
            if let battery = status.battery { drawBattery(battery, rightEdge: width - 1, top: 0, into: fb) }
            let linkLeft = drawLinkGlyph(status.link, rightEdge: width - 1, top: 11, into: fb)
            drawMoon(status.doNotDisturb, rightEdge: linkLeft - 4, top: 11, into: fb)
            drawUnread(status.unread, rightEdge: width - 1, baseline: 30, into: fb)
            return
        }
        // 128x64: time centred at the top, the date under it, state glyphs
        // along the bottom.
        let top = 1
        drawBigTime(status.time, x: (width - timeWidth) / 2, top: top, into: fb)
        if let t = status.time {
            scratch.clear()
            DateText.appendWeekday(t.weekday, to: scratch)
            scratch.append(" ").append(decimal: t.day).append(" ")
            DateText.appendMonth(t.month, to: scratch)
            line(fb, scratch.bytes, fonts.body, x: 0, baseline: top + digits.height + 16, maxWidth: width, alignment: .center)
        }
        drawLinkGlyph(status.link, rightEdge: 11, top: height - 10, healthMarkOnRight: true, into: fb)
        // Right of the health mark's place, so neither moves the other.
        drawMoon(status.doNotDisturb, rightEdge: 29, top: height - 10, into: fb)
        var unreadRight = width - 2
        if let battery = status.battery { unreadRight = drawBattery(battery, rightEdge: width - 1, top: height - 10, into: fb) - 4 }
        drawUnread(status.unread, rightEdge: unreadRight, baseline: height - 2, into: fb)
        guard let feeds else { return }
        let now = status.time?.secondsSinceEpoch
        var weather = feeds.weather
        if let w = weather, !w.isFresh(at: now) { weather = nil }
        scratch.clear()
        if let now, let event = feeds.agenda.next(at: now) {
            if event.start <= now {
                scratch.append("Now")
            } else {
                DateText.appendTime(CivilTime(secondsSinceEpoch: event.start), to: scratch)
            }
            scratch.append(" ")
            event.title.withUTF8 { _ = scratch.append($0) }
            line(fb, scratch.bytes, fonts.small, x: 0, baseline: height - 13, maxWidth: width, alignment: .center)
            guard let weather else { return }
            scratch.clear()
            appendTemperature(weather.temperature, to: scratch)
            // Between the link and moon glyphs (to x 29) and the unread count (about 30 px).
            line(fb, scratch.bytes, fonts.small, x: 32, baseline: height - 2, maxWidth: width - 64 - (status.battery == nil ? 0 : 16),
                 alignment: .center)
        } else if let weather {
            appendTemperature(weather.temperature, to: scratch)
            scratch.append(" ")
            weather.summary.withUTF8 { _ = scratch.append($0) }
            line(fb, scratch.bytes, fonts.small, x: 0, baseline: height - 13, maxWidth: width, alignment: .center)
        }
    }

    // MARK: the big time

    /// Draws "HH:MM" (or "--:--") in `ClockDigits` with its top-left corner
    /// at (`x`, `top`): segments and the colon, nothing else, so a tick
    /// changes only the columns of the digits that changed.
    func drawBigTime(_ time: CivilTime?, x: Int, top: Int, into fb: Framebuffer) {
        let digits = ClockDigits.idle
        var masks: (UInt8, UInt8, UInt8, UInt8) = (ClockDigits.dash, ClockDigits.dash, ClockDigits.dash, ClockDigits.dash)
        if let t = time {
            let h = min(max(t.hour, 0), 23), m = min(max(t.minute, 0), 59)
            masks = (ClockDigits.segments[h / 10], ClockDigits.segments[h % 10],
                     ClockDigits.segments[m / 10], ClockDigits.segments[m % 10])
        }
        for i in 0..<4 {
            let mask: UInt8
            switch i {
            case 0: mask = masks.0
            case 1: mask = masks.1
            case 2: mask = masks.2
            default: mask = masks.3
            }
            let dx = x + digits.digitX(i)
            digits.forEachRect(mask) { r in
                fill(fb, Rect(x: dx + r.x, y: top + r.y, width: r.width, height: r.height))
            }
        }
        digits.forEachColonDot { r in
            fill(fb, Rect(x: x + r.x, y: top + r.y, width: r.width, height: r.height))
        }
    }
}
