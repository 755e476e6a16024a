import BoardConfig
import HAL
import Haptics
import Input
import PhoneFeeds
import Screens
import Timekeeping

/// Alarms (issue 25 item 4): the wearer's, set from the watch menu's
/// "Alarms", and the phone's (Gadgetbridge's `alarm`). They ring on the
/// watch's own clock: the shell keeps one timer at `nextAlarmRing` (a
/// CLOCK_REALTIME absolute timer while the time comes from the system
/// clock, so a clock step fires or re-arms it; the monotonic clock while it
/// comes from the phone) and calls `alarmTimeReached` when it fires or the
/// clock is set. No alarm on, no timer: an idle watch still sleeps.
///
/// An alarm rings whatever Do Not Disturb and quiet hours say: the wearer
/// set it. It rings until a button answers it (positive: snooze for the
/// settings file's `snoozeMinutes`; negative: dismiss) or for a minute,
/// which snoozes it (at most `maxSnoozes` times in a row, then it gives up).
/// A one-time alarm switches itself off when it rings; the wearer's alarms
/// are kept across restarts (`WatchEffects.alarmsChanged`).
extension WatchModel {
    /// An alarm whose minute passed more than this long ago (the clock was
    /// stepped past it, or the board was asleep) does not ring late.
    static let alarmLateLimit: Int64 = 10 * 60
    /// How long an alarm or the timer rings unanswered.
    static let ringLength: Duration = .seconds(60)
    /// Unanswered alarms snooze this many times, then stop.
    static let maxSnoozes = 3

    /// When the next alarm rings, in local seconds (`Alarm`), strictly after
    /// now; nil when none is on or the watch does not know the time. The
    /// shell arms its timer for it; what is due when it fires is counted
    /// from the first time the watch knew the time.
    public func alarmToArm(now: MonotonicInstant) -> Int64? {
        guard let local = localSeconds(at: now) else { return nil }
        if alarmsCheckedUpTo == nil { alarmsCheckedUpTo = local }
        return alarms.nextRing(after: local)?.at
    }

    /// When the next alarm rings (local seconds), without touching what is due (`state`).
    public func nextAlarmRing(now: MonotonicInstant) -> Int64? {
        localSeconds(at: now).flatMap { alarms.nextRing(after: $0)?.at }
    }

    /// The shell's alarm timer fired, or the wall clock was set: rings the
    /// latest alarm whose minute came since the last look (unless it is
    /// more than `alarmLateLimit` late), and switches a one-time one off.
    public func alarmTimeReached(now: MonotonicInstant) {
        guard let local = localSeconds(at: now) else { return }
        let since = alarmsCheckedUpTo ?? local
        alarmsCheckedUpTo = local
        guard since < local else { return }  // the clock went back: nothing came
        // The latest ring in (since, local]: the one that is due now.
        var due: (row: Int, at: Int64)?
        for row in 0..<alarms.count {
            var t = alarms[row].nextRing(after: since)
            while let ring = t, ring <= local {
                if due == nil || ring > due!.at { due = (row, ring) }
                t = alarms[row].nextRing(after: ring)
            }
        }
        guard let due else { return }
        let alarm = alarms[due.row]
        alarms.rang(due.row)
        if !alarms.isFromPhone(due.row) && alarm.days.isEmpty { effects.keepAlarms() }
        guard local - due.at <= Self.alarmLateLimit else {
            alarmsSkipped += 1
            return
        }
        startRinging(.alarm(hour: alarm.hour, minute: alarm.minute, snoozes: 0), now: now)
    }

    /// The time became known or changed source: what is due is counted from here.
    func alarmClockRestarted(now: MonotonicInstant) {
        alarmsCheckedUpTo = localSeconds(at: now)
    }

    // MARK: Ringing

    /// Rings `alert` now: the ringing screen, the alert's pattern at any
    /// hour (Do Not Disturb and quiet hours do not apply).
    func startRinging(_ alert: RingingAlert, now: MonotonicInstant) {
        if ringing == nil, case let current = screen, !current.isRinging { screenBeforeRinging = current }
        ringing = alert
        snoozeDeadline = nil
        snoozedAlert = nil
        ringDeadline = now.advanced(by: Self.ringLength)
        screen = .ringing(alert)
        keepAwakeChanged(now: now)
        let pattern: VibrationPattern
        switch alert {
        case .alarm: pattern = userSettings.alarmPattern
        case .timer: pattern = userSettings.timerPattern
        }
        vibrate(pattern, now: now, anyHour: true)
        requestRender()
    }

    /// A button on the ringing screen: positive snoozes an alarm, negative
    /// (or any button for the timer) stops it.
    func ringingButton(_ role: ButtonRole, _ gesture: ButtonGesture, now: MonotonicInstant) {
        guard let alert = ringing, gesture == .press || gesture == .longPress else { return }
        if case .alarm = alert, role == .positive || role == .select {
            snooze(now: now)
        } else {
            stopRinging(now: now)
        }
    }

    /// Unanswered for `ringLength`: an alarm snoozes (up to `maxSnoozes`), the timer stops.
    func ringTimedOut(now: MonotonicInstant) {
        ringDeadline = nil
        if case .alarm(_, _, let snoozes) = ringing, snoozes < Self.maxSnoozes {
            snooze(now: now)
        } else {
            stopRinging(now: now)
        }
    }

    private func snooze(now: MonotonicInstant) {
        guard case .alarm(let h, let m, let snoozes) = ringing else { return }
        endRinging()
        snoozedAlert = .alarm(hour: h, minute: m, snoozes: snoozes + 1)
        snoozeDeadline = now.advanced(by: .seconds(userSettings.snoozeMinutes * 60))
        screen = .message("Snoozed for \(userSettings.snoozeMinutes) min")
        ringEnded(now: now)
        requestRender()
    }

    func snoozeEnded(now: MonotonicInstant) {
        snoozeDeadline = nil
        guard let alert = snoozedAlert else { return }
        snoozedAlert = nil
        startRinging(alert, now: now)
    }

    /// Dismissed or stopped: the motor stops, the screen goes back.
    func stopRinging(now: MonotonicInstant) {
        guard let alert = ringing else { return }
        endRinging()
        if case .timer = alert { countdown.reset() }
        screen = screenBeforeRinging.isRinging ? clockScreen : screenBeforeRinging
        ringEnded(now: now)
        requestRender()
    }

    private func endRinging() {
        ringing = nil
        ringDeadline = nil
        effects.requestStopMotor()
    }

    /// After a ring ended: the panel counts down to dimming again.
    private func ringEnded(now: MonotonicInstant) { keepAwakeChanged(now: now) }

    // MARK: The phone's alarms

    /// The phone sent its alarm list (Gadgetbridge): it replaces the phone's
    /// old one and rings like the wearer's own.
    public func phoneAlarmsReceived(_ list: some Sequence<Alarm>, now: MonotonicInstant) {
        if alarmsCheckedUpTo == nil { alarmClockRestarted(now: now) }
        alarms.replacePhoneAlarms(list)
        if case .alarms = screen { requestRender() }
    }

    /// The wearer's alarms kept before a restart. Not written back.
    public func restoreAlarms(_ list: [Alarm], now: MonotonicInstant) {
        for a in list { alarms.add(a) }
        alarmClockRestarted(now: now)
    }
}

extension Screen {
    var isRinging: Bool {
        if case .ringing = self { return true }
        return false
    }
}

extension PhoneAlarms {
    /// The phone's alarms as the watch rings them (the same weekday bits).
    var asAlarms: [Timekeeping.Alarm] {
        (0..<count).map { i in
            let a = self[i]
            return Timekeeping.Alarm(hour: a.hour, minute: a.minute, days: AlarmDays(rawValue: a.weekdays), enabled: a.enabled)
        }
    }
}
