import Graphics
import HAL
import Timekeeping

/// The countdown timer's and the stopwatch's screens (issue 25 item 4): the
/// time in the large font, what the buttons do over them (`placement`),
/// and on 128x64 the status bar (unless a label takes its place). Text is
/// composed in the scratch buffer: nothing allocates.
extension ScreenRenderer {
    static let timerTitle: StaticString = "Timer"
    static let stopwatchTitle: StaticString = "Stopwatch"
    static let startLabel: StaticString = "Start"
    static let pauseLabel: StaticString = "Pause"
    static let resumeLabel: StaticString = "Resume"
    static let resetLabel: StaticString = "Reset"
    static let backLabel: StaticString = "Back"
    static let lapLabel: StaticString = "Lap"
    static let timerAdjustHint: StaticString = "+/- 1 min"
    static let timerRunning: StaticString = "Running"
    static let timerPaused: StaticString = "Paused"

    /// The timer: "Timer", what is left (its length while stopped) as
    /// "M:SS" ("MM:SS" up to 99:00), and under it the state: "+/- 1 min"
    /// while stopped (the buttons that move through a menu set the
    /// length), "Running", "Paused". Labels: stopped, "Start" / "Back";
    /// running, "Pause" / "Reset"; paused, "Resume" / "Reset". 128x32: the
    /// title and the state left of the time.
    func drawTimer(_ view: TimekeepingView?, status: StatusInfo, into fb: Framebuffer) {
        let timer = view?.timer ?? CountdownTimer()
        let now = view?.now ?? .zero
        let positive: StaticString, negative: StaticString, state: StaticString
        switch timer.state {
        case .stopped: (positive, negative, state) = (Self.startLabel, Self.backLabel, Self.timerAdjustHint)
        case .running: (positive, negative, state) = (Self.pauseLabel, Self.resetLabel, Self.timerRunning)
        case .paused: (positive, negative, state) = (Self.resumeLabel, Self.resetLabel, Self.timerPaused)
        }
        let area = drawTimekeepingFrame(positive: positive, negative: negative, status: status, into: fb)
        let seconds = timer.secondsLeft(at: now)
        let inkHeight = digitInkTop - digitInkBottom + 1
        // Title (10 rows), 2, the digits' ink, 3, the state (10 rows).
        let stacked = 10 + 2 + inkHeight + 3 + 10
        guard area.height >= stacked else {
            return drawTimeBeside(area, lines: 2, caption: { k, out in out.append(k == 0 ? Self.timerTitle : state) },
                                  time: { TimekeepingText.appendLength(seconds: seconds, to: $0) }, into: fb)
        }
        let top = area.y + (area.height - stacked) / 2
        line(fb, Self.timerTitle, fonts.small, x: area.x, baseline: top + 8, maxWidth: area.width, alignment: .center)
        TimekeepingText.appendLength(seconds: seconds, to: scratch.clear())
        line(fb, scratch.bytes, fonts.large, x: area.x, baseline: top + 12 + digitInkTop, maxWidth: area.width,
             alignment: .center)
        line(fb, state, fonts.small, x: area.x, baseline: top + 12 + inkHeight + 3 + 8, maxWidth: area.width,
             alignment: .center)
    }

    /// The stopwatch: the time run as "M:SS" ("H:MM:SS" past an hour),
    /// with the tenths ("0:41.2") while stopped; under it the latest laps,
    /// newest first, as many as fit ("Lap 3" and its own length), or
    /// "Stopwatch" before the first. Labels: "Start" / "Stop" over the
    /// positive button; "Lap" (running), "Reset" (stopped with time run)
    /// or "Back" (at zero) over the negative one. 128x32: the latest lap
    /// (or "Stopwatch") left of the time.
    func drawStopwatch(_ view: TimekeepingView?, status: StatusInfo, into fb: Framebuffer) {
        let stopwatch = view?.stopwatch ?? Stopwatch()
        let elapsed = stopwatch.elapsed(at: view?.now ?? .zero)
        let running = stopwatch.isRunning
        let negative = running ? Self.lapLabel : elapsed > .zero ? Self.resetLabel : Self.backLabel
        let area = drawTimekeepingFrame(positive: running ? Self.stopLabel : Self.startLabel, negative: negative,
                                        status: status, into: fb)
        let inkHeight = digitInkTop - digitInkBottom + 1
        let lapRows = 10
        guard area.height >= 2 + inkHeight + 3 + lapRows else {
            let latest = stopwatch.lap(0)
            return drawTimeBeside(area, lines: latest == nil ? 1 : 2, caption: { k, out in
                if let latest, k == 0 {
                    out.append(Self.lapLabel).append(" ").append(decimal: latest.number)
                } else if let latest {
                    TimekeepingText.appendElapsed(latest.length, tenths: true, to: out)
                } else {
                    out.append(Self.stopwatchTitle)
                }
            }, time: { TimekeepingText.appendElapsed(elapsed, tenths: !running, to: $0) }, into: fb)
        }
        let inkTop = area.y + 2
        TimekeepingText.appendElapsed(elapsed, tenths: !running, to: scratch.clear())
        line(fb, scratch.bytes, fonts.large, x: area.x, baseline: inkTop + digitInkTop, maxWidth: area.width,
             alignment: .center)
        // The laps: "Lap 3" from the left of a centred column, its length
        // right-aligned in it.
        var rowTop = inkTop + inkHeight + 3
        guard stopwatch.lapsKept > 0 else {
            line(fb, Self.stopwatchTitle, fonts.small, x: area.x, baseline: rowTop + 8, maxWidth: area.width,
                 alignment: .center)
            return
        }
        let margin = area.width >= 112 ? 16 : 2
        let columnWidth = area.width - 2 * margin
        var i = 0
        while rowTop + lapRows <= area.maxY, let lap = stopwatch.lap(i) {
            scratch.clear().append(Self.lapLabel).append(" ").append(decimal: lap.number)
            let labelWidth = line(fb, scratch.bytes, fonts.small, x: area.x + margin, baseline: rowTop + 8,
                                  maxWidth: columnWidth)
            TimekeepingText.appendElapsed(lap.length, tenths: true, to: scratch.clear())
            line(fb, scratch.bytes, fonts.small, x: area.x + margin + labelWidth + 6, baseline: rowTop + 8,
                 maxWidth: columnWidth - labelWidth - 6, alignment: .trailing)
            rowTop += lapRows
            i += 1
        }
    }

    // MARK: layout

    /// Draws the labels (each at most half the panel) and, on 128x64 when
    /// none is at the top, the status bar; returns where the content goes:
    /// between the labels and under the bar, or where `labelFreeArea` finds
    /// room for the digits on a short panel.
    private func drawTimekeepingFrame(positive: StaticString, negative: StaticString, status: StatusInfo,
                                      into fb: Framebuffer) -> Rect {
        let p = positive.rawBytes, n = negative.rawBytes
        drawButtonLabels(positive: p, negative: n, into: fb)
        var area = labelFreeArea(positive: p, negative: n, rows: digitInkTop - digitInkBottom + 1)
        if !isCompact && labelBands(positive: p, negative: n).top == 0 {
            drawStatusBar(status, into: fb)
            let top = Self.statusBarHeight
            if area.y < top {
                area.height -= top - area.y
                area.y = top
            }
        }
        return area
    }

    /// A short panel's layout: up to `lines` lines of the small font
    /// (`caption` composes line k) in a column at the left of `area`, the
    /// time (`time` composes it) in the large font centred in the rest, on
    /// the digits' rows. Two lines need 19 rows (else the first only); the
    /// column is left out when it and the time do not fit side by side.
    private func drawTimeBeside(_ area: Rect, lines: Int, caption: (Int, TextScratch) -> Void,
                                time: (TextScratch) -> Void, into fb: Framebuffer) {
        let inkHeight = digitInkTop - digitInkBottom + 1
        let inkTop = area.y + max(0, (area.height - inkHeight) / 2)
        let rows = area.height >= 19 ? min(lines, 2) : min(lines, 1)
        var columnWidth = 0
        for k in 0..<rows {
            caption(k, scratch.clear())
            columnWidth = max(columnWidth, measure(scratch.bytes, fonts.small))
        }
        time(scratch.clear())
        let timeWidth = measure(scratch.bytes, fonts.large)
        var timeX = area.x, timeRoom = area.width
        if rows > 0 && 1 + columnWidth + 6 + timeWidth <= area.width {
            // One line on the digits' rows; two filling the 19 rows around them.
            let first = rows == 1 ? inkTop + (inkHeight + 7) / 2 : area.y + (area.height - 19) / 2 + 8
            for k in 0..<rows {
                caption(k, scratch.clear())
                line(fb, scratch.bytes, fonts.small, x: area.x + 1, baseline: first + 10 * k, maxWidth: columnWidth)
            }
            timeX = area.x + 1 + columnWidth + 4
            timeRoom = area.maxX - timeX
            time(scratch.clear())
        }
        line(fb, scratch.bytes, fonts.large, x: timeX, baseline: inkTop + digitInkTop, maxWidth: timeRoom, alignment: .center)
    }
}
