import Graphics
import Timekeeping

/// The "Alarms" list and the alarm editor (issue 25 item 4).
extension ScreenRenderer {
    static let alarmsTitle: StaticString = "Alarms"
    static let newAlarmRow: StaticString = "New alarm"
    static let alarmOn: StaticString = "\u{25A0} "
    static let alarmOff: StaticString = "\u{25A1} "

    /// Marks the phone's alarms at the end of their row: a phone.
    static let phoneMark = Bitmap(rows: [
        "#####",
        "#...#",
        "#...#",
        "#...#",
        "#...#",
        "#...#",
        "#####",
        "##.##",
        "#####",
    ])

    /// A menu titled "Alarms" (`drawMenu`): one row per alarm, the wearer's
    /// then the phone's, as "■ 07:00 Mon-Fri" (a filled box: on; an empty
    /// one: off), the phone's with a phone at the row's end; then "New
    /// alarm" while the wearer has fewer than `AlarmList.capacity`.
    func drawAlarms(_ view: TimekeepingView?, selected: Int, status: StatusInfo, into fb: Framebuffer) {
        let alarms = view?.alarms ?? AlarmList()
        let count = alarms.count + (alarms.ownCount < AlarmList.capacity ? 1 : 0)
        let mark = Self.phoneMark
        // The row's text stops short of the phone mark (3 px from the panel's
        // edge, as the text is) by a character's gap.
        let markX = width - 3 - mark.width
        drawMenu(Self.alarmsTitle, count: count, selected: selected, status: status, into: fb) { i, draw in
            guard i < alarms.count else { return draw(Self.newAlarmRow.rawBytes) }
            let alarm = alarms[i]
            scratch.clear().append(alarm.enabled ? Self.alarmOn : Self.alarmOff)
            TimekeepingText.appendClock(hour: alarm.hour, minute: alarm.minute, to: scratch)
            scratch.append(" ")
            guard alarms.isFromPhone(i) else {
                TimekeepingText.appendDays(alarm.days, to: scratch)
                return draw(scratch.bytes)
            }
            let chain = isCompact ? fonts.small : fonts.body
            let advance = max(1, chain.primary.defaultAdvance)
            let room = (markX - 3 - advance - measure(scratch.bytes, chain)) / advance
            TimekeepingText.appendDays(alarm.days, maxCharacters: room, to: scratch)
            draw(scratch.bytes)
            // Drawn before `drawMenu` inverts the selected row, so it inverts with it.
            let row = menuRow(i, count: count, selected: selected)
            icon(fb, mark, x: markX, y: row.y + (row.height - mark.height) / 2)
        }
    }

    /// Where `drawMenu` puts entry `i` of `count` with `selected`
    /// highlighted (its arithmetic): the row's top and height.
    func menuRow(_ i: Int, count: Int, selected: Int) -> (y: Int, height: Int) {
        let visible = 3
        var top = 1
        var rowHeight = 10
        if !isCompact {
            top = Self.statusBarHeight + 13
            rowHeight = (height - top) / visible
        }
        let sel = min(max(selected, 0), count - 1)
        let first = max(0, min(sel - 1, count - visible))
        return (top + (i - first) * rowHeight, rowHeight)
    }
}

extension ScreenRenderer {
    static let newAlarmTitle: StaticString = "New alarm"
    static let alarmTitle: StaticString = "Alarm"
    static let saveChoice: StaticString = "Save"
    static let saveChoiceToggled: StaticString = "\u{2039} Save \u{203A}"
    static let deleteChoiceToggled: StaticString = "\u{2039} Delete \u{203A}"

    /// The alarm editor: its title ("New alarm", or "Alarm" for one of the
    /// wearer's), the time "HH:MM" in the large font and the days under it
    /// (128x32: beside it), the field the buttons change inverted; on the
    /// last step the choice ("Save", or "‹ Save ›" / "‹ Delete ›" where
    /// the buttons switch between them) in an inverted band: 128x64 at the
    /// bottom, 128x32 in the title's place. 128x64 has the status bar.
    func drawAlarmEditor(_ draft: AlarmDraft, status: StatusInfo, into fb: Framebuffer) {
        let title = draft.row == nil ? Self.newAlarmTitle : Self.alarmTitle
        let choice: StaticString
        switch (draft.row, draft.finish) {
        case (nil, _): choice = Self.saveChoice
        case (_, .save): choice = Self.saveChoiceToggled
        case (_, .delete): choice = Self.deleteChoiceToggled
        }
        let inkHeight = digitInkTop - digitInkBottom + 1
        let boxHeight = inkHeight + 4
        let advance = max(1, fonts.large.primary.defaultAdvance)
        let timeWidth = 5 * advance
        if isCompact {
            // The title (or the choice) on top, the time and the days under it.
            if draft.field == .finish {
                drawNoticeBand(choice.rawBytes, top: 0, height: 11, into: fb)
            } else {
                line(fb, title, fonts.small, x: 1, baseline: 8, maxWidth: width - 2)
            }
            let boxTop = 13
            drawEditorTime(draft, x: 2, boxTop: boxTop, boxHeight: boxHeight, into: fb)
            let daysX = 2 + timeWidth + 6
            TimekeepingText.appendDays(draft.alarm.days, to: scratch.clear())
            let baseline = boxTop + (boxHeight + 7) / 2
            let drawn = line(fb, scratch.bytes, fonts.small, x: daysX, baseline: baseline, maxWidth: width - daysX - 3)
            if draft.field == .days {
                fill(fb, Rect(x: daysX - 3, y: boxTop, width: drawn + 6, height: boxHeight), .invert)
            }
            return
        }
        drawStatusBar(status, into: fb)
        line(fb, title, fonts.small, x: 0, baseline: Self.statusBarHeight + 9, maxWidth: width, alignment: .center)
        drawEditorTime(draft, x: (width - timeWidth) / 2, boxTop: 22, boxHeight: boxHeight, into: fb)
        // The days, centred, their box the width of the text.
        TimekeepingText.appendDays(draft.alarm.days, to: scratch.clear())
        let textWidth = min(measure(scratch.bytes, fonts.body), width - 6)
        let x = (width - textWidth) / 2
        line(fb, scratch.bytes, fonts.body, x: x, baseline: 50, maxWidth: textWidth)
        if draft.field == .days { fill(fb, Rect(x: x - 3, y: 40, width: textWidth + 6, height: 13), .invert) }
        if draft.field == .finish {
            // The last 10 rows, under a blank one.
            fill(fb, Rect(x: 0, y: height - 10, width: width, height: 10))
            line(fb, choice, fonts.small, x: 0, baseline: height - 2, maxWidth: width, alignment: .center, ink: .off)
        }
    }

    /// "HH:MM" in the large font from `x`, its digits' ink centred in the
    /// `boxHeight` rows from `boxTop`; the hour's or the minute's pair
    /// inverted in that box while it is the field being changed.
    private func drawEditorTime(_ draft: AlarmDraft, x: Int, boxTop: Int, boxHeight: Int, into fb: Framebuffer) {
        let inkHeight = digitInkTop - digitInkBottom + 1
        let advance = max(1, fonts.large.primary.defaultAdvance)
        TimekeepingText.appendClock(hour: draft.alarm.hour, minute: draft.alarm.minute, to: scratch.clear())
        let inkTop = boxTop + (boxHeight - inkHeight) / 2
        line(fb, scratch.bytes, fonts.large, x: x, baseline: inkTop + digitInkTop, maxWidth: 5 * advance)
        let pair: Int
        switch draft.field {
        case .hour: pair = 0
        case .minute: pair = 3
        case .days, .finish: return
        }
        fill(fb, Rect(x: x + pair * advance - 1, y: boxTop, width: 2 * advance + 1, height: boxHeight), .invert)
    }
}
