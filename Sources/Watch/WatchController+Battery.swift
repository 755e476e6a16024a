import HAL
import Power

/// The watch's battery on the controller: the monitor's readings go to the
/// model (glyph, low notice, critical power-off), and a change of level or
/// charging is told to a Gadgetbridge phone too.
extension WatchController {
    /// Takes the readings of `monitor` from now on; a failed reading is
    /// logged once, and the first good one after it.
    public func follow(_ monitor: BatteryMonitor) {
        monitor.readingHandler = { [unowned(unsafe) self] reading in self.watchBatteryRead(reading) }
        monitor.failureHandler = { [logger] error in
            if let error {
                logger.warning("battery: cannot read it: \(error); trying again at every reading")
            } else {
                logger.notice("battery: the gauge answers again")
            }
        }
    }

    /// A reading of the watch's battery gauge.
    public func watchBatteryRead(_ reading: BatteryReading) {
        let before = model.watchBattery
        model.watchBatteryRead(reading, now: now)
        if let session, session.gadgetbridge.isActive,
            before?.percent != reading.percent || before?.charging != reading.charging
        {
            session.gadgetbridge.sendBatteryStatus(reading)
        }
        afterInput()
    }
}
