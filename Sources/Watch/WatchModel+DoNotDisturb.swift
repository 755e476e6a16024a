import BoardConfig
import HAL
import Input
import Screens

/// Whether Do Not Disturb is on, and until when.
public enum DoNotDisturbState: Sendable, Equatable {
    case off
    /// "Until I turn it off".
    case untilTurnedOff
    /// "For 1 hour": on until this instant of the loop's clock.
    case until(MonotonicInstant)
}

/// Do Not Disturb, from the clock's positive long press: a menu of "For 1
/// hour", "Until I turn it off" and "Off". While on, the motor and pop-ups
/// stay still for everything except calls (unless the settings file's
/// `doNotDisturb.calls` is "silent") and `alwaysAlert` apps; notifications
/// are still listed and counted. The timed choice ends on its own at a model
/// deadline (no timer while it is off or untimed). `doNotDisturbChanged`
/// tells the composition root, which keeps the state in the state directory
/// so it survives a restart (`restoreDoNotDisturb`).
extension WatchModel {
    /// How long "For 1 hour" lasts.
    public static let doNotDisturbTimedDuration: Duration = .seconds(3600)

    public var isDoNotDisturbOn: Bool { doNotDisturb != .off }

    /// The clock's positive long press: the menu, its highlight on what
    /// the wearer most likely wants ("Off" while on, else "For 1 hour").
    func openDoNotDisturbMenu() {
        let entry: DoNotDisturbMenu.Entry = isDoNotDisturbOn ? .off : .forOneHour
        screen = .doNotDisturbMenu(selected: entry.rawValue)
    }

    /// A gesture on the menu (docs/buttons.md).
    func doNotDisturbMenuButton(_ role: ButtonRole, _ gesture: ButtonGesture, selected: Int, now: MonotonicInstant) {
        guard let step = MenuGesture(role, gesture) else { return }
        switch step {
        case .choose:
            if let entry = DoNotDisturbMenu.Entry(rawValue: selected) { choose(entry, now: now) }
            screen = clockScreen
        case .next, .previous:
            screen = .doNotDisturbMenu(selected: step.moved(selected, count: DoNotDisturbMenu.entryCount))
        case .cancel:
            screen = clockScreen
        }
    }

    private func choose(_ entry: DoNotDisturbMenu.Entry, now: MonotonicInstant) {
        switch entry {
        case .forOneHour: setDoNotDisturb(.until(now.advanced(by: Self.doNotDisturbTimedDuration)))
        case .untilTurnedOff: setDoNotDisturb(.untilTurnedOff)
        case .off: setDoNotDisturb(.off)
        }
    }

    /// Sets the state (the menu, the deadline) and says so to whoever keeps it.
    func setDoNotDisturb(_ state: DoNotDisturbState) {
        applyDoNotDisturb(state)
        effects.keepDoNotDisturb(state)
    }

    /// The state kept from before a restart: `remaining` of a timed one
    /// (nil: until turned off). Nothing is written back.
    public func restoreDoNotDisturb(remaining: Duration?, now: MonotonicInstant) {
        guard let remaining else { return applyDoNotDisturb(.untilTurnedOff) }
        guard remaining > .zero else { return applyDoNotDisturb(.off) }
        applyDoNotDisturb(.until(now.advanced(by: remaining)))
    }

    private func applyDoNotDisturb(_ state: DoNotDisturbState) {
        doNotDisturb = state
        if case .until(let end) = state { doNotDisturbDeadline = end } else { doNotDisturbDeadline = nil }
        requestRender()  // the status bar's moon
    }

    /// "For 1 hour" is over.
    func doNotDisturbDeadlinePassed(now: MonotonicInstant) {
        doNotDisturbDeadline = nil
        setDoNotDisturb(.off)
    }
}
