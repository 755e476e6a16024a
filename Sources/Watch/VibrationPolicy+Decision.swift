import BoardConfig
import WearerSettings
import Haptics
import Notifications

// The board file's vibration table, read: which pattern a notification
// gets (before the app's rule, Do Not Disturb and quiet hours, which
// WatchModel+AppRules and WatchModel+Vibration apply). The table is
// BoardConfig's; every decision about buzzing is the watch's.

extension VibrationPolicy {
    /// The pattern for a newly added notification, or nil for none.
    public func pattern(for info: NotificationInfo) -> VibrationPattern? {
        guard info.shouldAlert else { return nil }
        if let override = categoryOverrides[info.category] { return override }
        if info.flags.contains(.important) { return important }
        return defaultPattern
    }

    /// The pattern for an incoming call that was already ringing when the
    /// phone connected (flagged PreExisting, not Silent): the wearer can
    /// still answer it, so it rings like a new one. nil for anything else.
    public func patternForCallInProgress(_ info: NotificationInfo) -> VibrationPattern? {
        guard info.category == .incomingCall, info.isPreExisting, !info.flags.contains(.silent) else { return nil }
        var live = info
        live.flags.remove(.preExisting)
        return pattern(for: live)
    }

    /// The pattern for a notification event: only `.added` can vibrate.
    public func pattern(for event: NotificationEvent) -> VibrationPattern? {
        guard case .added(let info) = event else { return nil }
        return pattern(for: info)
    }
}
