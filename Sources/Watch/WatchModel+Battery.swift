import BoardConfig
import HAL
import Haptics

/// The batteries: the watch's own (its gauge, read now and then by the
/// battery monitor) and the phone's (an iPhone's Battery Service).
///
/// Low (the board file's `battery.lowPercent`, default 15, not charging): a
/// notice and a short pulse, once; again only after charging or after the
/// level rose 5 points above it (a gauge wobbling at the threshold says it
/// once). Critical (`criticalPercent`, default 5, not charging): the notice
/// says so and, with `powerOffWhenCritical`, the shell powers the board off
/// cleanly before the cell's protection cuts it (docs/battery.md).
extension WatchModel {
    static let lowBatteryRearm = 5

    /// A reading of the watch's gauge.
    public func watchBatteryRead(_ reading: BatteryReading, now: MonotonicInstant) {
        let changed = watchBattery != reading
        watchBattery = reading
        if changed { requestRender() }
        guard let battery else { return }
        if reading.charging || reading.percent >= battery.lowPercent + Self.lowBatteryRearm {
            batteryLowWarned = false
        }
        if reading.charging || reading.percent > battery.criticalPercent {
            batteryCritical = false
        }
        if !reading.charging && reading.percent <= battery.criticalPercent && !batteryCritical {
            batteryCritical = true
            batteryLowWarned = true
            _ = vibrate(.short, now: now, anyHour: true)
            if battery.powerOffWhenCritical {
                showNotice("Battery empty: powering off", now: now)
                effects.requestPowerOff()
            } else {
                showNotice("Battery empty: charge the watch now", now: now)
            }
            return
        }
        if !reading.charging && reading.percent <= battery.lowPercent && !batteryLowWarned {
            // A call or a passkey keeps the screen: the notice comes with the next reading.
            switch screen {
            case .incomingCall, .pairing: return
            default: break
            }
            batteryLowWarned = true
            _ = vibrate(.short, now: now)
            showNotice("Battery low: \(reading.percent)%", now: now)
        }
    }

    /// The phone's battery level (0...100), or nil when it is no longer known.
    public func phoneBatteryChanged(_ percent: Int?) {
        guard phoneBattery != percent else { return }
        phoneBattery = percent
        requestRender()
    }
}
