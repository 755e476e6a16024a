import ANCS
import Graphics

extension ScreenRenderer {
    /// One notification: a header (category icon, app name, date) and a
    /// body that scrolls by lines: the title (body font, up to 3 lines), the
    /// subtitle (small font, up to 2 lines; not on 128x32), the message
    /// (small font) and, when the phone has more of it than arrived
    /// (`ANCSNotification.hasMoreMessage`), a last line "... more on phone".
    /// The message is there once fetched: call the consumer's
    /// `notificationShown(_:now:)` when the screen opens.
    func drawDetail(_ n: ANCSNotification, scroll: Int, status: StatusInfo, into fb: Framebuffer) {
        if !isCompact { drawStatusBar(status, into: fb) }
        let headerTop = isCompact ? 0 : Self.statusBarHeight + 1
        let ic = CategoryIcons.icon(for: n.category)
        icon(fb, ic, x: 1, y: headerTop)
        let baseline = headerTop + 8
        scratch.clear()
        if let date = n.date { appendShortDate(date, now: status.time, to: scratch) }
        let dateWidth = measure(scratch.bytes, fonts.small)
        line(fb, scratch.bytes, fonts.small, x: width - 1 - dateWidth, baseline: baseline, maxWidth: dateWidth)
        let textX = ic.width + 3
        line(fb, appLabel(n), fonts.small, x: textX, baseline: baseline,
             maxWidth: width - 1 - dateWidth - (dateWidth > 0 ? 4 : 0) - textX)

        let area = detailBodyArea
        layoutDetail(n)
        let total = detailTotalLines
        let first = min(max(scroll, 0), detailMaxScrollForLayout(area: area.height))
        clipped(fb, area) {
            var y = area.y
            var k = first
            while k < total && y < area.maxY {
                y += drawDetailLine(k, n, x: area.x, y: y, into: fb)
                k += 1
            }
        }
        if first > 0 || detailMaxScrollForLayout(area: area.height) > 0 {
            drawScrollBar(first: first, shown: detailLinesShown(from: first, area: area.height), total: total,
                          area: Rect(x: width - 2, y: area.y, width: 2, height: area.height), into: fb)
        }
    }

    /// The number of body lines of the detail screen (title, subtitle and
    /// message lines together): what `scroll` counts.
    public func detailLineCount(_ uid: NotificationUID, notifications: NotificationConsumer) -> Int {
        guard let n = notifications.notification(uid) else { return 0 }
        layoutDetail(n)
        return detailTotalLines
    }

    /// The largest useful `scroll` of the detail screen: the last line is
    /// then at the bottom (0 when everything fits).
    public func detailMaxScroll(_ uid: NotificationUID, notifications: NotificationConsumer) -> Int {
        guard let n = notifications.notification(uid) else { return 0 }
        layoutDetail(n)
        return detailMaxScrollForLayout(area: detailBodyArea.height)
    }

    // MARK: internals

    /// Where the body lines go: under the header, left of the scroll bar.
    var detailBodyArea: Rect {
        let top = isCompact ? 11 : Self.statusBarHeight + 12
        return Rect(x: 1, y: top, width: width - 4, height: height - top)
    }

    var detailTotalLines: Int {
        titleLayout.lineCount + subtitleLayout.lineCount + messageLayout.lineCount + (detailHasMore ? 1 : 0)
    }

    static let moreOnPhone: StaticString = "\u{2026} more on phone"

    /// Lays out the three parts for the body's width (the same every frame).
    func layoutDetail(_ n: ANCSNotification) {
        let w = detailBodyArea.width
        titleLayout.layout(shownText(n, .title), fonts: fonts.body, width: w, maxLines: 3)
        let subtitle = isCompact ? UnsafeRawBufferPointer(start: nil, count: 0) : shownText(n, .subtitle)
        subtitleLayout.layout(subtitle, fonts: fonts.small, width: w, maxLines: 2)
        messageLayout.layout(shownText(n, .message), fonts: fonts.small, width: w, maxLines: messageLayout.capacity)
        detailHasMore = n.hasMoreMessage && !hidesContent(of: n)
    }

    /// Body line `k`: which layout, which of its lines (-1: the "more on
    /// phone" line after the message), and its height (the title's last
    /// line is followed by a 2-pixel gap). A line's height includes its
    /// layout's leading (1 px under CJK lines).
    func detailLine(_ k: Int) -> (layout: TextLayout, field: NotificationTextField, index: Int, height: Int) {
        if k < titleLayout.lineCount {
            let gap = k == titleLayout.lineCount - 1 ? 2 : 0
            return (titleLayout, .title, k, titleLayout.lineHeight + gap)
        }
        let s = k - titleLayout.lineCount
        if s < subtitleLayout.lineCount {
            return (subtitleLayout, .subtitle, s, subtitleLayout.lineHeight)
        }
        let m = s - subtitleLayout.lineCount
        if m < messageLayout.lineCount { return (messageLayout, .message, m, messageLayout.lineHeight) }
        return (messageLayout, .message, -1, smallLineHeight)
    }

    /// A line of the small font (the message's, also when it is empty).
    var smallLineHeight: Int { messageLayout.lineCount > 0 ? messageLayout.lineHeight : fonts.small.primary.lineHeight }

    /// Draws body line `k` with its top at `y`; returns its height.
    func drawDetailLine(_ k: Int, _ n: ANCSNotification, x: Int, y: Int, into fb: Framebuffer) -> Int {
        let l = detailLine(k)
        if l.index < 0 {
            line(fb, Self.moreOnPhone, fonts.small, x: x, baseline: y + latinAscent(fonts.small), maxWidth: detailBodyArea.width)
            return l.height
        }
        let chain = l.field == .title ? fonts.body : fonts.small
        l.layout.draw(shownText(n, l.field), fonts: chain, into: fb, x: x + ox, y: y + oy, firstLine: l.index, maxLines: 1)
        return l.height
    }

    /// The rows of body line `k` that must be on the panel for it to count
    /// as shown: its height without the gap and leading under it.
    func detailLineInk(_ k: Int) -> Int {
        let l = detailLine(k)
        return l.layout.lineHeight - l.layout.leading
    }

    /// Lines shown from `first` (the last may be cut at the bottom).
    func detailLinesShown(from first: Int, area: Int) -> Int {
        var y = 0, k = first
        while k < detailTotalLines && y + detailLineInk(k) <= area {
            y += detailLine(k).height
            k += 1
        }
        return max(1, k - first)
    }

    /// The first line from which the rest fits in `area` rows.
    func detailMaxScrollForLayout(area: Int) -> Int {
        var h = 0
        var k = detailTotalLines
        while k > 0 {
            // The last line needs only its ink; the lines above it their whole height.
            let need = k == detailTotalLines ? detailLineInk(k - 1) : detailLine(k - 1).height
            if h + need > area { break }
            h += need
            k -= 1
        }
        return k
    }

    /// "18:30" on the same day as `now` (or when `now` is unknown), else "14 Mar".
    func appendShortDate(_ date: ANCSDateTime, now: WallClockTime?, to out: TextScratch) {
        if let now, now.year != date.year || now.month != date.month || now.day != date.day {
            out.append(decimal: date.day).append(" ")
            DateText.appendMonth(date.month, to: out)
        } else {
            out.append(decimal: date.hour, width: 2).append(":").append(decimal: date.minute, width: 2)
        }
    }
}
