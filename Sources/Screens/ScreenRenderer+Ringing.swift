import Graphics

/// The ringing screen (issue 25 item 4): an alarm or the timer rings.
extension ScreenRenderer {
    static let snoozeLabel: StaticString = "Snooze"
    static let dismissLabel: StaticString = "Dismiss"
    static let stopLabel: StaticString = "Stop"
    static let alarmHeading: StaticString = "Alarm"
    static let timerHeading: StaticString = "Timer"

    /// Full screen, no status bar: a bell and "Alarm" ("Alarm (snoozed
    /// 2x)" after snoozes) over the alarm's time in the large font, with
    /// "Snooze" over the positive button and "Dismiss" over the negative
    /// one; for the timer, "Timer" over the length that ran ("5:00",
    /// "1:40:00") and "Stop" over both (any button stops it). Where the
    /// labels leave too few rows for both lines (128x32), the bell and the
    /// heading sit left of the time (left out when they do not fit).
    func drawRinging(_ alert: RingingAlert, into fb: Framebuffer) {
        let positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer, heading: StaticString
        switch alert {
        case .alarm:
            (positive, negative, heading) = (Self.snoozeLabel.rawBytes, Self.dismissLabel.rawBytes, Self.alarmHeading)
        case .timer:
            (positive, negative, heading) = (Self.stopLabel.rawBytes, Self.stopLabel.rawBytes, Self.timerHeading)
        }
        drawButtonLabels(positive: positive, negative: negative, into: fb)
        let inkHeight = digitInkTop - digitInkBottom + 1
        let area = labelFreeArea(positive: positive, negative: negative, rows: inkHeight)
        let bell = CategoryIcons.other
        let headingRows = 13, gap = 4
        if area.height >= headingRows + gap + inkHeight {
            // The heading (body font) centred over the time.
            let top = area.y + (area.height - headingRows - gap - inkHeight) / 2
            appendRingingHeading(alert, to: scratch.clear())
            let textWidth = min(measure(scratch.bytes, fonts.body), area.width - bell.width - 3)
            let x = area.x + (area.width - bell.width - 3 - textWidth) / 2
            icon(fb, bell, x: x, y: top + 2)
            line(fb, scratch.bytes, fonts.body, x: x + bell.width + 3, baseline: top + 11, maxWidth: textWidth)
            appendRingingTime(alert, to: scratch.clear())
            line(fb, scratch.bytes, fonts.large, x: area.x, baseline: top + headingRows + gap + digitInkTop,
                 maxWidth: area.width, alignment: .center)
            return
        }
        // The bell and the heading (small font) left of the time, on the digits' rows.
        let inkTop = area.y + (area.height - inkHeight) / 2
        appendRingingTime(alert, to: scratch.clear())
        let timeWidth = measure(scratch.bytes, fonts.large)
        let headingWidth = bell.width + 3 + measure(heading.rawBytes, fonts.small)
        var timeX = area.x, timeRoom = area.width
        if headingWidth + 6 + timeWidth <= area.width - 2 {
            icon(fb, bell, x: area.x + 1, y: inkTop + (inkHeight - bell.height) / 2)
            line(fb, heading, fonts.small, x: area.x + 1 + bell.width + 3, baseline: inkTop + (inkHeight + 7) / 2,
                 maxWidth: headingWidth)
            timeX = area.x + 1 + headingWidth + 4
            timeRoom = area.maxX - timeX
        }
        line(fb, scratch.bytes, fonts.large, x: timeX, baseline: inkTop + digitInkTop, maxWidth: timeRoom, alignment: .center)
    }

    /// "Alarm", "Alarm (snoozed 2x)", "Timer".
    private func appendRingingHeading(_ alert: RingingAlert, to out: TextScratch) {
        switch alert {
        case .alarm(_, _, let snoozes):
            out.append(Self.alarmHeading)
            if snoozes > 0 { out.append(" (snoozed ").append(decimal: snoozes).append("x)") }
        case .timer:
            out.append(Self.timerHeading)
        }
    }

    /// The alarm's "07:30", or the timer's length "5:00".
    private func appendRingingTime(_ alert: RingingAlert, to out: TextScratch) {
        switch alert {
        case .alarm(let hour, let minute, _): TimekeepingText.appendClock(hour: hour, minute: minute, to: out)
        case .timer(let seconds): TimekeepingText.appendLength(seconds: seconds, to: out)
        }
    }
}
