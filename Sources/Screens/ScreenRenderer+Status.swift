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
        Self.forEachStatusRow(report) { index, kind, part in
            guard index >= start, row < agendaRows else { return }
            appendStatusRow(kind, part, of: report, to: scratch.clear())
            line(fb, scratch.bytes, fonts.small, x: 1, baseline: top + 8 + row * 10, maxWidth: width - 2)
            row += 1
        }
    }

    /// What one row says. The causes come first, each in as many rows as
    /// its words take (21 columns of the small font).
    enum StatusRow: CaseIterable {
        case adapterGone, notPaired, pairing, lookingForNotifications, notSharing, notAnswering, bondLost, silent
        case phone, phoneBattery, watchBattery, time

        /// Rows this kind takes for `report` (0: not shown).
        func rows(_ r: StatusReport) -> Int {
            switch self {
            case .adapterGone: r.adapterGone ? 2 : 0
            case .notPaired: r.notPaired ? 3 : 0
            case .pairing: r.pairing ? 2 : 0
            case .lookingForNotifications: r.lookingForNotifications ? 2 : 0
            case .notSharing: r.notSharing ? 5 : 0
            case .notAnswering: r.notAnswering ? 2 : 0
            case .bondLost: r.bondLost ? 2 : 0
            case .silent: r.silentInARow >= 2 ? 2 : 0
            case .phone: 1
            case .phoneBattery: r.phoneBattery != nil && r.isConnected ? 1 : 0
            case .watchBattery: r.hasBattery ? 1 : 0
            case .time: r.time == .unknown && !r.isConnected ? 2 : 1
            }
        }
    }

    /// Calls `body` with each row's index, kind and part (its row within the kind).
    static func forEachStatusRow(_ report: StatusReport, _ body: (Int, StatusRow, Int) -> Void) {
        var index = 0
        for kind in StatusRow.allCases {
            for part in 0..<kind.rows(report) {
                body(index, kind, part)
                index += 1
            }
        }
    }

    /// How many rows `report` fills (the buttons scroll through them).
    public static func statusLineCount(_ report: StatusReport) -> Int {
        var n = 0
        for kind in StatusRow.allCases { n += kind.rows(report) }
        return n
    }

    func appendStatusRow(_ kind: StatusRow, _ part: Int, of report: StatusReport, to out: TextScratch) {
        switch kind {
        case .adapterGone:
            // The daemon waits for it (bluetooth.adapterLossTimeout), then exits for systemd to restart it.
            out.append(part == 0 ? "Bluetooth adapter" : "gone: waiting for it")
        case .notPaired:
            // Where the phone pairs, and under which name.
            if part == 2 {
                out.append("tap ").append(nameBuffer.bytes)
            } else {
                out.append(part == 0 ? "Not paired: on phone" : "Settings > Bluetooth")
            }
        case .pairing:
            out.append(part == 0 ? "Pairing: tap Pair" : "on the phone")
        case .lookingForNotifications:
            out.append(part == 0 ? "Looking for the" : "phone's notifications")
        case .notSharing:
            // Where the switch is, in the iPhone's words.
            out.append(part == 0 ? "No notifications:" : part == 1 ? "iPhone Settings >" : part == 2 ? "Bluetooth > (i) >"
                : part == 3 ? "Share System" : "Notifications: on")
        case .notAnswering:
            out.append(part == 0 ? "Phone not answering:" : "checking again")
        case .bondLost:
            out.append(part == 0 ? "Pair again: forget" : "the watch on phone")
        case .silent:
            if part == 0 {
                out.append(decimal: min(report.silentInARow, 99)).append(" came Silent:")
            } else {
                out.append("a Focus? (no buzz)")
            }
        case .phone:
            switch report.phone {
            case .bluetoothOff: out.append("Bluetooth is off")
            case .waiting: out.append("No phone: waiting")
            case .connected(.iPhone): out.append("iPhone connected")
            case .connected(.android): out.append("Android connected")
            case .connected(.unknown): out.append("Phone connected")
            }
        case .phoneBattery:
            out.append("Phone battery ").append(decimal: report.phoneBattery ?? 0).append("%")
        case .watchBattery:
            // 21 columns: "Watch 100% charging" fits, "Watch battery" does beside it not.
            if let b = report.watchBattery {
                out.append(b.charging ? "Watch " : "Watch battery ").append(decimal: b.percent).append("%")
                if b.charging { out.append(" charging") }
            } else {
                out.append("Watch battery unread")
            }
        case .time:
            switch report.time {
            case .phone: out.append("Time from the phone")
            case .system: out.append("Time from the system")
            case .unknown:
                if part == 1 { out.append("connect the phone") } else { out.append(report.isConnected ? "Time unknown" : "Time unknown:") }
            }
        }
    }
}
