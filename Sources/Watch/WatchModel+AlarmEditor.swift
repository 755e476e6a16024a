import BoardConfig
import HAL
import Input
import Screens
import Timekeeping

/// The "Alarms" screen and the alarm editor (docs/buttons.md). The list
/// shows the wearer's alarms, the phone's, then "New alarm"; choosing one of
/// the wearer's (or "New alarm") opens the editor, choosing one of the
/// phone's switches it on or off. In the editor the buttons that move
/// through a menu change the field (the hour, the minute in steps of
/// `minuteStep`, the days: `AlarmDays.choices`; up raises, down lowers),
/// choose goes to the next field, cancel to the one before; the last step
/// saves or deletes.
extension WatchModel {
    /// The editor's minute moves in these steps (a two-button watch has no
    /// quicker way through 60 minutes).
    static let minuteStep = 5

    func alarmsButton(_ role: ButtonRole, _ gesture: ButtonGesture, selected: Int, now: MonotonicInstant) {
        guard let step = MenuGesture(role, gesture) else { return }
        let rows = alarms.count + (alarms.ownCount < AlarmList.capacity ? 1 : 0)
        switch step {
        case .next, .previous:
            screen = .alarms(selected: step.moved(selected, count: rows))
        case .cancel:
            screen = .watchMenu(selected: WatchMenu.Entry.alarms.rawValue)
        case .choose:
            if selected < alarms.ownCount {
                screen = .alarmEditor(AlarmDraft(row: selected, alarm: alarms[selected]))
            } else if selected < alarms.count {
                alarms.setEnabled(selected, !alarms[selected].enabled)
                alarmClockRestarted(now: now)
            } else if alarms.ownCount < AlarmList.capacity {
                screen = .alarmEditor(AlarmDraft(row: nil, alarm: newAlarm(now: now)))
            }
        }
    }

    /// A new alarm starts at the next whole hour (07:00 while the time is unknown).
    private func newAlarm(now: MonotonicInstant) -> Alarm {
        let hour = wallClock.time(at: now).map { ($0.hour + 1) % 24 } ?? 7
        return Alarm(hour: hour, minute: 0)
    }

    func alarmEditorButton(_ role: ButtonRole, _ gesture: ButtonGesture, draft: AlarmDraft, now: MonotonicInstant) {
        guard let step = MenuGesture(role, gesture) else { return }
        var d = draft
        switch step {
        case .next, .previous:
            // Up raises the value, down lowers it (on a menu they move the other way).
            let by = role == .up ? 1 : role == .down ? -1 : step == .next ? 1 : -1
            switch d.field {
            case .hour: d.alarm.hour = (d.alarm.hour + by + 24) % 24
            case .minute: d.alarm.minute = ((d.alarm.minute / Self.minuteStep + by) * Self.minuteStep + 60) % 60
            case .days:
                let choices = AlarmDays.choices
                let at = choices.firstIndex(of: d.alarm.days) ?? 0
                d.alarm.days = choices[(at + by + choices.count) % choices.count]
            case .finish:
                // A new alarm has nothing to delete: "Save" only.
                if d.row != nil { d.finish = d.finish == .save ? .delete : .save }
            }
            screen = .alarmEditor(d)
        case .choose:
            guard d.field == .finish else {
                d.field = AlarmDraft.Field(rawValue: d.field.rawValue + 1) ?? .finish
                screen = .alarmEditor(d)
                return
            }
            finishEditing(d, now: now)
        case .cancel:
            guard let before = AlarmDraft.Field(rawValue: d.field.rawValue - 1) else {
                screen = .alarms(selected: d.row ?? alarms.count)
                return
            }
            d.field = before
            screen = .alarmEditor(d)
        }
    }

    private func finishEditing(_ d: AlarmDraft, now: MonotonicInstant) {
        var alarm = d.alarm
        alarm.enabled = true  // saving an alarm is setting it
        switch (d.row, d.finish) {
        case (let row?, .delete):
            alarms.remove(row)
            screen = .alarms(selected: min(row, alarms.count))
        case (let row?, .save):
            alarms.replace(row, with: alarm)
            screen = .alarms(selected: row)
        case (nil, _):
            guard alarms.add(alarm) else { return }
            screen = .alarms(selected: alarms.ownCount - 1)
        }
        alarmClockRestarted(now: now)
        effects.keepAlarms()
    }
}
