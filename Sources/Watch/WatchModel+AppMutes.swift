import BoardConfig
import HAL
import Input
import Notifications
import Screens

/// Apps muted from the wrist (issue 25 item 3): a notification's menu mutes
/// its app for 1 hour, for today (until local midnight) or always; the
/// "Muted apps" screen (the watch menu) lists them and undoes one. A muted
/// app's notifications are listed but neither buzz nor pop up, exactly as
/// the settings file's `"mute": true` (WatchModel+AppRules asks here first).
/// They are kept across restarts by the daemon (`WatchEffects.mutesChanged`).
extension WatchModel {
    public enum MuteLength: Sendable {
        case hour, untilTomorrow, always
    }

    /// Mutes the app of `uid`, says so, and asks for it to be kept.
    func muteApp(of uid: NotificationID, for length: MuteLength, now: MonotonicInstant) {
        guard let n = notifications.notification(uid) else { return }
        let until: MonotonicInstant?
        switch length {
        case .hour: until = now.advanced(by: .seconds(3600))
        case .always: until = nil
        case .untilTomorrow:
            guard let t = wallClock.time(at: now) else { return }
            let left = 86_400 - (t.hour * 3600 + t.minute * 60 + t.second)
            until = now.advanced(by: .seconds(max(60, left)))
        }
        let name = n.appDisplayNameBytes.flatMap { $0.isEmpty ? nil : $0 } ?? n.bytes(.appIdentifier)
        guard appMutes.mute(n.bytes(.appIdentifier), name: name, until: until, now: now) else { return }
        effects.keepMutes()
        let shown = String(decoding: name, as: UTF8.self)
        switch length {
        case .hour: showNotice("\(shown) muted for 1 hour", now: now)
        case .untilTomorrow: showNotice("\(shown) muted until tomorrow", now: now)
        case .always: showNotice("\(shown) muted (Menu > Muted apps undoes it)", now: now)
        }
    }

    /// Whether the app of `n` is muted from the wrist at `now`.
    func isMutedOnWatch(_ n: Notification, now: MonotonicInstant) -> Bool {
        appMutes.isMuted(n.bytes(.appIdentifier), now: now)
    }

    /// The mutes kept before a restart, each with what is left of it (nil:
    /// always). Not written back.
    public func restoreMutes(_ mutes: [(identifier: [UInt8], name: [UInt8], remaining: Duration?)], now: MonotonicInstant) {
        for m in mutes {
            if let r = m.remaining, r <= .zero { continue }
            m.identifier.withUnsafeBytes { id in
                m.name.withUnsafeBytes { name in
                    _ = appMutes.mute(id, name: name, until: m.remaining.map { now.advanced(by: $0) }, now: now)
                }
            }
        }
    }

    /// The "Muted apps" screen: the buttons move through the mutes, the
    /// positive button (or select) undoes the selected one, the negative
    /// button (or back) goes back to the menu.
    func mutedAppsButton(_ role: ButtonRole, _ gesture: ButtonGesture, selected: Int, now: MonotonicInstant) {
        let count = appMutes.count(now: now)
        guard let step = MenuGesture(role, gesture) else { return }
        switch step {
        case .choose:
            guard appMutes.unmute(at: selected, now: now) else { return }
            effects.keepMutes()
            screen = .mutedApps(selected: max(0, min(selected, count - 2)))
        case .next, .previous:
            screen = .mutedApps(selected: count > 0 ? step.moved(selected, count: count) : 0)
        case .cancel:
            screen = .watchMenu(selected: WatchMenu.Entry.mutedApps.rawValue)
        }
    }
}
