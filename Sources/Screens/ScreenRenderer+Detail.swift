import HAL
import Notifications
import Graphics

extension ScreenRenderer {
    static let positiveFallback: StaticString = "OK"
    static let negativeFallback: StaticString = "Clear"

    /// One notification: a header (category icon, app name, date) and a
    /// body that scrolls by lines: the title (body font, up to 3 lines), the
    /// subtitle (small font, up to 2 lines; not on 128x32), the message
    /// (small font) and, when the phone has more of it than arrived
    /// (`Notification.hasMoreMessage`), a last line "... more on phone".
    /// The message is there once fetched: call the consumer's
    /// `notificationShown(_:now:)` when the screen opens.
    ///
    /// When the notification offers actions, the phone's action labels
    /// ("Clear", or "OK" / "Clear" when it sent none) stand over the buttons
    /// that perform them: on 128x64 always (the body ends above them, in
    /// whole lines; labels at the top corners take the status bar's place),
    /// on a compact panel on the last page only (`scroll` at
    /// `detailMaxScroll`), which leaves the header out to keep the body's
    /// rows; none when labels at a top and a bottom corner leave no room
    /// for a line. `notice` ("Could not clear") covers the header row, inverted.
    func drawDetail(_ n: Notification, scroll: Int, status: StatusInfo, notice: ActionNotice?,
                    into fb: Framebuffer) {
        layoutDetail(n)
        let labels = detailLabels(n)
        let page = detailPage(scroll: scroll, labels: labels)
        if page.statusBar { drawStatusBar(status, into: fb) }
        if let top = page.headerTop { drawDetailHeader(n, top: top, status: status, into: fb) }
        if page.labelled { drawButtonLabels(positive: labels.positive, negative: labels.negative, sharing: true, into: fb) }

        let area = page.body
        let total = detailTotalLines
        // Over labels, whole lines only: a line cut at their row reads as
        // covered by them (issue 27); the scroll bar says more follows.
        let end = page.labelsBelow ? page.first + detailLinesShown(from: page.first, area: area.height) : total
        clipped(fb, area) {
            var y = area.y
            var k = page.first
            while k < end && y < area.maxY {
                y += drawDetailLine(k, n, x: area.x, y: y, into: fb)
                k += 1
            }
        }
        if page.first > 0 || page.maxScroll > 0 {
            drawScrollBar(first: page.first, shown: detailLinesShown(from: page.first, area: area.height), total: total,
                          area: Rect(x: width - 2, y: area.y, width: 2, height: area.height), into: fb)
        }
        if let notice {
            let label = notice.action == .positive ? labels.positive : labels.negative
            scratch.clear()
            ActionNotice.appendText(label: label.isEmpty ? Self.fallbackLabel(notice.action) : label, to: scratch)
            drawNoticeBand(scratch.bytes, top: page.headerTop ?? page.body.y, height: 11, into: fb)
        }
    }

    /// The header row from `top`: category icon, app name, date.
    func drawDetailHeader(_ n: Notification, top: Int, status: StatusInfo, into fb: Framebuffer) {
        let ic = CategoryIcons.icon(for: n.category)
        icon(fb, ic, x: 1, y: top)
        let baseline = top + 8
        scratch.clear()
        if let date = n.date { appendShortDate(date, now: status.time, to: scratch) }
        let dateWidth = measure(scratch.bytes, fonts.small)
        line(fb, scratch.bytes, fonts.small, x: width - 1 - dateWidth, baseline: baseline, maxWidth: dateWidth)
        let textX = ic.width + 3
        line(fb, appLabel(n), fonts.small, x: textX, baseline: baseline,
             maxWidth: width - 1 - dateWidth - (dateWidth > 0 ? 4 : 0) - textX)
    }

    /// The number of body lines of the detail screen (title, subtitle and
    /// message lines together): what `scroll` counts.
    public func detailLineCount(_ uid: NotificationID, notifications: any NotificationSource) -> Int {
        guard let n = notifications.notification(uid) else { return 0 }
        layoutDetail(n)
        return detailTotalLines
    }

    /// The largest useful `scroll` of the detail screen: the last line is
    /// then at the bottom, above the button labels (0 when everything fits).
    public func detailMaxScroll(_ uid: NotificationID, notifications: any NotificationSource) -> Int {
        guard let n = notifications.notification(uid) else { return 0 }
        layoutDetail(n)
        return detailPage(scroll: 0, labels: detailLabels(n)).maxScroll
    }

    // MARK: labels and pages

    /// The labels over the positive and negative buttons: the phone's, a
    /// fallback when it sent none, empty where the notification offers no
    /// such action.
    func detailLabels(_ n: Notification) -> (positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer) {
        var positive = UnsafeRawBufferPointer(start: nil, count: 0)
        var negative = positive
        if n.flags.contains(.positiveAction) {
            positive = n.bytes(.positiveActionLabel)
            if positive.isEmpty { positive = Self.positiveFallback.rawBytes }
        }
        if n.flags.contains(.negativeAction) {
            negative = n.bytes(.negativeActionLabel)
            if negative.isEmpty { negative = Self.negativeFallback.rawBytes }
        }
        return (positive, negative)
    }

    static func fallbackLabel(_ action: NotificationAction) -> UnsafeRawBufferPointer {
        action == .positive ? positiveFallback.rawBytes : negativeFallback.rawBytes
    }

    /// What one page of the detail screen shows and where.
    struct DetailPage {
        /// The first body line shown (the clamped `scroll`) and the largest useful one.
        var first: Int
        var maxScroll: Int
        var body: Rect
        /// The header row's top (nil: left out).
        var headerTop: Int?
        var statusBar: Bool
        var labelled: Bool
        /// The body ends at a label row (not at the panel's edge).
        var labelsBelow: Bool
    }

    /// The page for `scroll`, with the notification already laid out.
    func detailPage(scroll: Int, labels: (positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer))
        -> DetailPage {
        let plain = detailBodyArea
        let plainHeader = isCompact ? 0 : Self.statusBarHeight + 1
        func unlabelled() -> DetailPage {
            let last = detailMaxScrollForLayout(area: plain.height)
            return DetailPage(first: min(max(scroll, 0), last), maxScroll: last, body: plain, headerTop: plainHeader,
                              statusBar: !isCompact, labelled: false, labelsBelow: false)
        }
        guard !labels.positive.isEmpty || !labels.negative.isEmpty else { return unlabelled() }
        let bands = labelBands(positive: labels.positive, negative: labels.negative)
        let headerTop: Int?
        let bodyTop: Int
        if isCompact {
            // Header left out: the 19 rows above the labels hold a title line.
            headerTop = nil
            bodyTop = bands.top
        } else if bands.top > 0 {
            // Labels at the top take the status bar's place.
            headerTop = bands.top
            bodyTop = bands.top + plain.y - plainHeader
        } else {
            // Labels at the bottom take rows from the body: the status bar
            // gives its rows back, so a title and a message line (16 rows
            // each for CJK or emoji) still fit above the labels. The header
            // keeps the notification's time; the link state is on every
            // other screen.
            headerTop = 0
            bodyTop = plain.y - plainHeader
        }
        let body = Rect(x: plain.x, y: bodyTop, width: plain.width, height: max(0, bands.bottom - bodyTop))
        // Labels at a top and a bottom corner of a short panel leave no room
        // for a line (6 rows on 128x32): no labels then; the buttons still act.
        if detailTotalLines > 0 && body.height < detailLineInk(detailTotalLines - 1) { return unlabelled() }
        let last = detailMaxScrollForLayout(area: body.height)
        let first = min(max(scroll, 0), last)
        if isCompact && first < last {
            return DetailPage(first: first, maxScroll: last, body: plain, headerTop: plainHeader,
                              statusBar: false, labelled: false, labelsBelow: false)
        }
        return DetailPage(first: first, maxScroll: last, body: body, headerTop: headerTop,
                          statusBar: false, labelled: true, labelsBelow: bands.bottom < height)
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
    func layoutDetail(_ n: Notification) {
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
    func detailLine(_ k: Int) -> (layout: TextLayout, field: NotificationField, index: Int, height: Int) {
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
    func drawDetailLine(_ k: Int, _ n: Notification, x: Int, y: Int, into fb: Framebuffer) -> Int {
        let l = detailLine(k)
        if l.index < 0 {
            line(fb, Self.moreOnPhone, fonts.small, x: x, baseline: y + latinAscent(fonts.small), maxWidth: detailBodyArea.width)
            return l.height
        }
        let chain = l.field == .title ? fonts.body : fonts.small
        l.layout.draw(shownText(n, l.field), fonts: chain, into: fb, x: x, y: y, firstLine: l.index, maxLines: 1)
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
        // An area smaller than the last line still shows that line (cut).
        return min(k, max(0, detailTotalLines - 1))
    }

    /// "18:30" on the same day as `now` (or when `now` is unknown), else "14 Mar".
    func appendShortDate(_ date: CivilTime, now: CivilTime?, to out: TextScratch) {
        if let now, now.year != date.year || now.month != date.month || now.day != date.day {
            out.append(decimal: date.day).append(" ")
            DateText.appendMonth(date.month, to: out)
        } else {
            DateText.appendTime(date, to: out)
        }
    }
}
