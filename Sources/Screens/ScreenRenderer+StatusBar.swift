import HAL
import Graphics

extension ScreenRenderer {
    /// The top bar: time on the left; unread count and Bluetooth state on
    /// the right; a separator line under it (`statusBarHeight` rows).
    func drawStatusBar(_ status: StatusInfo, into fb: Framebuffer) {
        let baseline = 8
        appendTime(status.time, to: scratch.clear())
        line(fb, scratch.bytes, fonts.small, x: 1, baseline: baseline, maxWidth: 40)
        var right = width - 1
        if let battery = status.battery { right = drawBattery(battery, rightEdge: right, top: 0, into: fb) - 4 }
        right = drawLinkGlyph(status.link, rightEdge: right, top: 0, into: fb) - 4
        right = drawUnread(status.unread, rightEdge: right, baseline: baseline, into: fb) - 3
        drawMoon(status.doNotDisturb, rightEdge: right, top: 0, into: fb)
        hline(fb, x0: 0, x1: width - 1, y: Self.statusBarHeight - 1)
    }

    /// "HH:MM", or "--:--" when the time is unknown.
    func appendTime(_ time: CivilTime?, to out: TextScratch) {
        if let t = time {
            out.append(decimal: min(max(t.hour, 0), 23), width: 2).append(":")
                .append(decimal: min(max(t.minute, 0), 59), width: 2)
        } else {
            out.append("--:--")
        }
    }

    /// The Bluetooth rune with what qualifies it (waves: advertising; a
    /// padlock: encrypted; a cross: off; nothing: connected), right-aligned
    /// at `rightEdge`, 9 rows from `top`, and while connected the ANCS
    /// health mark when health is not ok ('?' unknown, '!' failing): left of
    /// the rune, or right of the glyph with `healthMarkOnRight`. Returns the
    /// left edge of what it drew.
    @discardableResult
    func drawLinkGlyph(_ link: PhoneLinkState, rightEdge: Int, top: Int, healthMarkOnRight: Bool = false,
                       into fb: Framebuffer) -> Int {
        let health = healthMark(link)
        if let health, healthMarkOnRight { icon(fb, health, x: rightEdge + 3, y: top) }
        let rune = StatusIcons.bluetooth
        let mark: Bitmap?
        switch link {
        case .off: mark = StatusIcons.cross
        case .advertising: mark = StatusIcons.waves
        case .connected: mark = nil
        case .encrypted: mark = StatusIcons.lock
        }
        var x = rightEdge + 1
        if let mark {
            x -= mark.width
            icon(fb, mark, x: x, y: top)
            x -= 1
        }
        x -= rune.width
        icon(fb, rune, x: x, y: top)
        if let health, !healthMarkOnRight {
            x -= health.width + 2
            icon(fb, health, x: x, y: top)
        }
        return x
    }

    /// The health mark to show beside a connected link, if any.
    func healthMark(_ link: PhoneLinkState) -> Bitmap? {
        guard link == .connected || link == .encrypted else { return nil }
        switch ancsHealth {
        case .unknown: return StatusIcons.healthUnknown
        case .failing: return StatusIcons.healthFailing
        case .ok: return nil
        }
    }

    /// An envelope and the unread count ("99+" above 99), right-aligned at
    /// `rightEdge`; nothing when there is none. Returns the left edge.
    @discardableResult
    func drawUnread(_ unread: Int, rightEdge: Int, baseline: Int, into fb: Framebuffer) -> Int {
        guard unread > 0 else { return rightEdge + 1 }
        scratch.clear()
        if unread > 99 { scratch.append("99+") } else { scratch.append(decimal: unread) }
        let w = measure(scratch.bytes, fonts.small)
        var x = rightEdge + 1 - w
        line(fb, scratch.bytes, fonts.small, x: x, baseline: baseline, maxWidth: w)
        x -= StatusIcons.unread.width + 2
        icon(fb, StatusIcons.unread, x: x, y: baseline - 8)
        return x
    }

    /// The watch's battery, right-aligned at `rightEdge`, 9 rows from `top`:
    /// an outline 11x7 with its terminal, filled in 7 steps (one per 15 %,
    /// empty under 8 %), and a bolt before it while on external power.
    /// Returns the left edge of what it drew.
    @discardableResult
    func drawBattery(_ battery: BatteryReading, rightEdge: Int, top: Int, into fb: Framebuffer) -> Int {
        let x = rightEdge - 11  // the body's left edge; the terminal is the last column
        let y = top + 1
        hline(fb, x0: x, x1: x + 10, y: y)
        hline(fb, x0: x, x1: x + 10, y: y + 6)
        fill(fb, Rect(x: x, y: y, width: 1, height: 7))
        fill(fb, Rect(x: x + 10, y: y, width: 1, height: 7))
        fill(fb, Rect(x: x + 11, y: y + 2, width: 1, height: 3))
        let steps = Self.batterySteps(battery.percent)
        if steps > 0 { fill(fb, Rect(x: x + 2, y: y + 2, width: steps, height: 3)) }
        guard battery.charging else { return x }
        // A lightning bolt, 5x7, a pixel left of the body (drawn with runs: a
        // glyph table of its own costs more in the size-budgeted daemon).
        let b = x - 6
        for (dx, dy, w) in Self.boltRuns { fill(fb, Rect(x: b + dx, y: top + dy, width: w, height: 1)) }
        return b
    }

    /// The bolt's rows as (x, y, width) runs.
    static let boltRuns: [(Int, Int, Int)] = [(3, 1, 1), (2, 2, 2), (1, 3, 2), (0, 4, 5), (2, 5, 2), (1, 6, 2), (1, 7, 1)]

    /// Filled columns (0...7) for a charge in percent: 0 under 8 %, then one per 14 %.
    static func batterySteps(_ percent: Int) -> Int {
        min(7, max(0, (min(max(percent, 0), 100) + 6) / 14))
    }

    /// The moon while Do Not Disturb is on, right-aligned at `rightEdge`,
    /// 9 rows from `top`. Returns the left edge of what it drew.
    @discardableResult
    func drawMoon(_ on: Bool, rightEdge: Int, top: Int, into fb: Framebuffer) -> Int {
        guard on else { return rightEdge + 1 }
        let x = rightEdge + 1 - StatusIcons.moon.width
        icon(fb, StatusIcons.moon, x: x, y: top)
        return x
    }
}
