import BoardConfig
import HAL
import Input
import Screens

/// The Status screen (the watch menu's last entry, issue 25 item 1): what
/// the watch knows of itself, and for each cause it can tell why
/// notifications may not arrive, in plain words (`StatusReport`). While
/// one asks for action (the `!` beside the Bluetooth rune among them), the
/// watch menu opens on "Status".
extension WatchModel {
    /// What the status screen says now.
    public func statusReport(now: MonotonicInstant) -> StatusReport {
        let phone: StatusReport.Phone
        switch link {
        case .off: phone = .bluetoothOff
        case .advertising: phone = .waiting
        case .connected, .encrypted: phone = .connected(phoneKind)
        }
        let time: StatusReport.TimeSource
        switch wallClock.source(at: now) {
        case .phone: time = .phone
        case .system: time = .system
        case .unknown: time = .unknown
        }
        var report = StatusReport(phone: phone, phoneBattery: phoneBattery, hasBattery: battery != nil, watchBattery: watchBattery, time: time)
        report.adapterGone = adapterGone
        report.notPaired = link == .advertising && paired == false
        report.pairing = link == .connected && paired != nil
        if isPhoneConnected {
            report.lookingForNotifications = link == .encrypted && notificationsShared == nil
                && notifications.health.state == .unknown && phoneKind != .android
            report.notSharing = notificationsShared == false
            report.notAnswering = notifications.health.state == .failing
            report.silentInARow = silentInARow
        }
        report.bondLost = bondLost
        return report
    }

    /// The status screen: the buttons scroll its rows; the negative button
    /// (or back) goes back to the menu.
    func statusButton(_ role: ButtonRole, _ gesture: ButtonGesture, scroll: Int, now: MonotonicInstant) {
        let rows = ScreenRenderer.statusLineCount(statusReport(now: now))
        switch (role, gesture) {
        case (.negative, _), (.back, _):
            screen = .watchMenu(selected: WatchMenu.Entry.status.rawValue)
        case (.positive, .doublePress), (.up, _):
            screen = .status(scroll: max(0, scroll - 1))
        case (.positive, _), (.down, _), (.select, _):
            screen = .status(scroll: scroll + 1 < rows ? scroll + 1 : 0)
        }
    }

    /// Where the watch menu opens: on "Status" while a cause asks for
    /// attention (the `!` of a phone that stopped answering among them),
    /// else on its first entry.
    var watchMenuStart: Int {
        statusReport(now: .zero).needsAttention ? WatchMenu.Entry.status.rawValue : 0
    }

    /// The Bluetooth adapter went away or came back: a notice now, and
    /// "adapter gone" on the Status screen while it is away.
    public func adapterChanged(present: Bool, now: MonotonicInstant) {
        adapterGone = !present
        showNotice(present ? "Bluetooth adapter back" : "Bluetooth adapter gone", now: now)
    }

    /// Whether some phone is bonded (the Status screen's "Not paired").
    public func pairedChanged(_ new: Bool) {
        guard paired != new else { return }
        paired = new
        requestRender()
    }

    /// The phone forgot this watch: says so now, and on the Status screen
    /// until the link is encrypted again.
    public func bondWasLost(now: MonotonicInstant, address: String) {
        bondLost = true
        showNotice("Pair again: the phone \(address) forgot this watch", now: now)
    }
}
