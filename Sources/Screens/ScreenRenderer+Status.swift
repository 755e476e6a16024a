import Graphics
import HAL

extension ScreenRenderer {
    /// The status screen: one fact per row, scrolled like the agenda.
    func drawStatus(_ report: StatusReport?, scroll: Int, status: StatusInfo, into fb: Framebuffer) {
        var top = 0
        if !isCompact {
            drawStatusBar(status, into: fb)
            top = Self.statusBarHeight + 1
        }
        guard let report else { return }
        let count = Self.statusLineCount(report)
        let start = min(max(scroll, 0), max(0, count - agendaRows))
        var row = 0
        for i in start..<count where row < agendaRows {
            appendStatusLine(i, of: report, to: scratch.clear())
            line(fb, scratch.bytes, fonts.small, x: 1, baseline: top + 8 + row * 10, maxWidth: width - 2)
            row += 1
        }
    }

    /// How many rows `report` fills (the buttons scroll through them).
    public static func statusLineCount(_ report: StatusReport) -> Int {
        var n = 2  // the phone, the time
        if case .connected = report.phone, report.phoneBattery != nil { n += 1 }
        if report.hasBattery { n += 1 }
        return n
    }

    /// Row `index` of the report: the phone, its battery, the watch's, the time.
    func appendStatusLine(_ index: Int, of report: StatusReport, to out: TextScratch) {
        var i = index
        if i == 0 {
            switch report.phone {
            case .bluetoothOff: out.append("Bluetooth is off")
            case .waiting: out.append("No phone: waiting")
            case .connected(.iPhone): out.append("iPhone connected")
            case .connected(.android): out.append("Android connected")
            case .connected(.unknown): out.append("Phone connected")
            }
            return
        }
        i -= 1
        if case .connected = report.phone, let level = report.phoneBattery {
            if i == 0 {
                out.append("Phone battery ").append(decimal: level).append("%")
                return
            }
            i -= 1
        }
        if report.hasBattery {
            if i == 0 {
                // 21 columns: "Watch 100% charging" fits, "Watch battery" does beside it not.
                if let b = report.watchBattery {
                    out.append(b.charging ? "Watch " : "Watch battery ").append(decimal: b.percent).append("%")
                    if b.charging { out.append(" charging") }
                } else {
                    out.append("Watch battery unread")
                }
                return
            }
            i -= 1
        }
        switch report.time {
        case .phone: out.append("Time from the phone")
        case .system: out.append("Time from the system")
        case .unknown: out.append("Time unknown")
        }
    }
}
