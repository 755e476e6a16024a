import Notifications
import Graphics

extension ScreenRenderer {
    static let emptyList: StaticString = "No notifications"

    /// Rows the list shows at once: two on either panel (two text lines per
    /// row on 128x64, one on 128x32).
    public var listVisibleRows: Int { 2 }

    /// The UID at `index` of the list (newest first), for the app to open
    /// the selected notification.
    public func notificationUID(atListIndex index: Int, notifications: any NotificationSource) -> NotificationID? {
        var i = 0
        var found: NotificationID? = nil
        notifications.forEachNotification(newestFirst: true) { n in
            if i == index { found = n.uid }
            i += 1
        }
        return found
    }

    /// The list, newest first, the selected row inverted, a scroll bar on
    /// the right when there are more rows than fit.
    func drawList(selected: Int, status: StatusInfo, notifications: any NotificationSource, into fb: Framebuffer) {
        // 128x64: one blank row under the status bar keeps an inverted first
        // row apart from the separator.
        let top = isCompact ? 0 : Self.statusBarHeight + 1
        if !isCompact { drawStatusBar(status, into: fb) }
        let count = notifications.notificationCount
        guard count > 0 else {
            listTop = 0
            line(fb, Self.emptyList, fonts.small, x: 0, baseline: top + (height - top) / 2 + 4,
                 maxWidth: width, alignment: .center)
            return
        }
        let rows = listVisibleRows
        let rowHeight = (height - top) / rows
        let sel = min(max(selected, 0), count - 1)
        // Scroll only when the selection leaves the window.
        if sel < listTop { listTop = sel }
        if sel >= listTop + rows { listTop = sel - rows + 1 }
        listTop = min(max(0, listTop), max(0, count - rows))
        let scrollBar = count > rows
        let rowWidth = scrollBar ? width - 3 : width

        var index = 0
        notifications.forEachNotification(newestFirst: true) { n in
            defer { index += 1 }
            guard index >= listTop && index < listTop + rows else { return }
            let y = top + (index - listTop) * rowHeight
            let row = Rect(x: 0, y: y, width: rowWidth, height: rowHeight)
            clipped(fb, row) {
                drawListRow(n, y: y, width: rowWidth, status: status, into: fb)
            }
            if index == sel { fill(fb, row, .invert) }
        }
        if scrollBar {
            drawScrollBar(first: listTop, shown: rows, total: count,
                          area: Rect(x: width - 2, y: top, width: 2, height: rows * rowHeight), into: fb)
        }
    }

    /// One row. 128x64: icon, app name and age on the first line, the title
    /// (Latin or CJK) on the second. 128x32: icon, title and age on one line.
    /// A notification kept from the previous session has a small clock
    /// after its icon.
    func drawListRow(_ n: Notification, y: Int, width rowWidth: Int, status: StatusInfo, into fb: Framebuffer) {
        let ic = CategoryIcons.icon(for: n.category)
        let previous = n.isFromPreviousSession
        let textX = ic.width + 3 + (previous ? StatusIcons.previousSession.width + 2 : 0)
        if previous {
            icon(fb, StatusIcons.previousSession, x: ic.width + 3, y: y + (isCompact ? 5 : 2))
        }
        scratch.clear()
        if let now = status.time, let date = n.date {
            DateText.appendAge(seconds: DateText.age(of: date, at: now), to: scratch)
        }
        let ageWidth = scratch.count > 0 ? measure(scratch.bytes, fonts.small) : 0
        let ageX = rowWidth - 1 - ageWidth
        if isCompact {
            icon(fb, ic, x: 1, y: y + 4)
            let baseline = y + maxAscent(fonts.body)
            line(fb, scratch.bytes, fonts.small, x: ageX, baseline: y + 12, maxWidth: ageWidth)
            let titleWidth = (ageWidth > 0 ? ageX - 3 : rowWidth - 1) - textX
            line(fb, shownText(n, .title), fonts.body, x: textX, baseline: baseline, maxWidth: titleWidth)
            return
        }
        icon(fb, ic, x: 1, y: y + 1)
        line(fb, scratch.bytes, fonts.small, x: ageX, baseline: y + 9, maxWidth: ageWidth)
        let nameWidth = (ageWidth > 0 ? ageX - 4 : rowWidth - 1) - textX
        line(fb, appLabel(n), fonts.small, x: textX, baseline: y + 9, maxWidth: nameWidth)
        // The title takes the whole width: on a watch, characters beat alignment.
        let titleBaseline = y + 10 + maxAscent(fonts.body)
        line(fb, shownText(n, .title), fonts.body, x: 2, baseline: titleBaseline, maxWidth: rowWidth - 3)
    }

    /// The app's display name once fetched, else its identifier.
    func appLabel(_ n: Notification) -> UnsafeRawBufferPointer {
        if let name = n.appDisplayNameBytes, !name.isEmpty { return name }
        return n.bytes(.appIdentifier)
    }

    /// A dotted track with a solid thumb.
    func drawScrollBar(first: Int, shown: Int, total: Int, area: Rect, into fb: Framebuffer) {
        guard total > 0, area.height > 0 else { return }
        var y = area.y
        while y < area.maxY {
            fill(fb, Rect(x: area.x + area.width - 1, y: y, width: 1, height: 1))
            y += 2
        }
        let thumb = max(3, area.height * shown / total)
        let room = area.height - thumb
        let last = max(1, total - shown)
        let thumbY = area.y + room * min(first, last) / last
        fill(fb, Rect(x: area.x, y: thumbY, width: area.width, height: thumb))
    }
}
