import Notifications
import WearerSettings
import BoardConfig
import HAL
import Haptics

/// The settings file's per-app rules and Do Not Disturb, where an alert is
/// decided. The AppIdentifier arrives with the attributes, after the
/// Notification Source event: while some rule may change what a new alert
/// does, its vibration and its pop-up wait for them with the pop-up
/// (WatchModel+PopUp; at least `appRuleWait`) and are decided once, by
/// comparing the stored AppIdentifier's bytes with the rule table
/// (`AppRules`, built at load: no allocation). Without rules the motor
/// does not wait, as before.
///
/// The settings file's `filters` match what a notification says (app,
/// title, subtitle, message); the first that matches decides instead of
/// the app's rule (`UserSettings.rule`), with the same actions:
///
/// - mute: no vibration, no pop-up, still listed; a muted call's ring
///   waits for its app the same way and stays still.
/// - vibrate: the app's pattern instead of the category's ("none": none).
/// - alwaysAlert: vibrates (the category's pattern, else `.double`) and
///   pops up even during Do Not Disturb and quiet hours.
/// - Do Not Disturb: everything else stays still and does not pop up;
///   calls ring unless `doNotDisturb.calls` is "silent".
extension WatchModel {
    /// The least a rule-carrying alert waits for its AppIdentifier.
    static let appRuleWait: Duration = .seconds(1)

    /// An alert decided later, once its app is known.
    struct PendingAlert {
        var uid: NotificationID
        var pattern: VibrationPattern?
        var important: Bool
    }

    /// Some rule (or a mute from the wrist) could change what this alert
    /// does: wait for its app.
    func alertWaitsForApp(now: MonotonicInstant) -> Bool {
        isDoNotDisturbOn ? userSettings.hasAlwaysAlert : userSettings.hasRules || appMutes.any(now: now)
    }

    /// A live notification that alerts (not a call). True when its pop-up
    /// waits (the render comes when it opens).
    func alertArrived(_ info: NotificationInfo, now: MonotonicInstant) -> Bool {
        let pattern = policy.pattern(for: info)
        let important = info.flags.contains(.important)
        if alertWaitsForApp(now: now) {
            // An older alert still waiting is decided with what it has.
            if let older = pendingAlert { _ = decideAlert(older, now: now) }
            pendingAlert = PendingAlert(uid: info.uid, pattern: pattern, important: important)
            popUpRequested(info.uid, now: now, wait: max(settings.popUpWait, Self.appRuleWait))
            return pendingPopUp == info.uid
        }
        // Do Not Disturb without an alwaysAlert app: listed, nothing else.
        guard !isDoNotDisturbOn else { return false }
        if important { wake(now: now) }
        if let pattern { vibrate(pattern, now: now) }
        // A new alert pops up unless a call or a passkey has the screen;
        // it is drawn when it opens (WatchModel+PopUp).
        if activeCall == nil && !isAwaitingPairingAnswer {
            popUpRequested(info.uid, now: now)
            if pendingPopUp == info.uid { return true }
        }
        return false
    }

    /// The rule of a stored notification: muted from the wrist, else the
    /// first filter that matches what it says, else its app's, if any.
    func appRule(_ uid: NotificationID, now: MonotonicInstant) -> AppRule? {
        guard let n = notifications.notification(uid) else { return nil }
        if isMutedOnWatch(n, now: now) { return AppRule(mute: true) }
        return userSettings.hasRules ? userSettings.rule(for: n) : nil
    }

    /// Plays what the waiting alert's rule says; true when it may pop up.
    func decideAlert(_ alert: PendingAlert, now: MonotonicInstant) -> Bool {
        pendingAlert = nil
        let rule = appRule(alert.uid, now: now)
        if rule?.mute == true { return false }
        let always = rule?.alwaysAlert == true
        if isDoNotDisturbOn && !always { return false }
        var pattern = rule?.vibrate ?? alert.pattern
        if always && pattern == nil { pattern = .double }
        if rule?.vibrateNone == true { pattern = nil }
        if alert.important || always { wake(now: now) }
        if let pattern {
            vibrate(pattern, now: now, anyHour: always)
        }
        return true
    }

    // MARK: - Calls

    /// The ring of a call: now, or once its app is known when some app is
    /// muted; nothing while Do Not Disturb silences calls.
    func ring(_ uid: NotificationID, pattern: VibrationPattern?, now: MonotonicInstant) {
        guard let pattern else { return }
        if isDoNotDisturbOn && userSettings.doNotDisturb.calls == .silent { return }
        guard userSettings.hasMute || appMutes.any(now: now) else {
            vibrate(pattern, now: now)
            return
        }
        // Filters read the title and message too: they wait for the whole fetch.
        if let n = notifications.notification(uid), n.available.contains(.appIdentifier),
            userSettings.filters.isEmpty || !n.isFetchPending
        {
            if appRule(uid, now: now)?.mute != true { vibrate(pattern, now: now) }
            return
        }
        pendingRing = uid
        pendingRingPattern = pattern
        pendingRingDeadline = now.advanced(by: max(settings.popUpWait, Self.appRuleWait))
        effects.requestShown(uid)
    }

    /// The waiting call's attributes arrived: ring unless its app is muted.
    func ringAttributesArrived(_ uid: NotificationID, now: MonotonicInstant) {
        guard pendingRing == uid, let n = notifications.notification(uid),
            n.available.contains(.appIdentifier) || !n.isFetchPending
        else { return }
        let pattern = pendingRingPattern
        cancelPendingRing()
        guard ringingCall == uid, appRule(uid, now: now)?.mute != true, let pattern else { return }
        vibrate(pattern, now: now)
    }

    /// The app did not arrive in time: the call rings (calls ring unless muted explicitly).
    func pendingRingDeadlinePassed(now: MonotonicInstant) {
        let uid = pendingRing
        let pattern = pendingRingPattern
        cancelPendingRing()
        if let uid, ringingCall == uid, let pattern { vibrate(pattern, now: now) }
    }

    func cancelPendingRing() {
        pendingRing = nil
        pendingRingPattern = nil
        pendingRingDeadline = nil
    }
}

extension UserSettings {
    /// The rule for a stored notification (filters first, then its app's).
    public func rule(for n: Notification) -> AppRule? {
        rule(app: n.bytes(.appIdentifier), title: n.bytes(.title), subtitle: n.bytes(.subtitle), message: n.bytes(.message))
    }

    /// Whether the screens show "Notification" instead of what `n` says.
    /// (Callers ask only when `hasHideContent`: the renderer's hook is set
    /// at load only then, so the tables are not scanned twice per row.)
    public func hidesContent(_ n: Notification) -> Bool {
        rule(for: n)?.hideContent == true
    }
}
