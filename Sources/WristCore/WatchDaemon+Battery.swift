import BoardConfig
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Power
import Watch

/// The watch's battery: the gauge the board file names, read now and then,
/// and the clean power-off when it is empty (docs/battery.md).
extension WatchDaemon {
    /// The battery monitor, or nil without a `battery` in the board file. A
    /// gauge that does not open is logged, with how to fix it, and the watch
    /// runs without: a watch that shows no battery beats no watch
    /// (`wristcore doctor` reports it too).
    func makeBattery(loop: EpollLoop, watch: WatchController, devices: any BoardDevices) -> BatteryMonitor? {
        guard let wiring = board.battery else { return nil }
        watch.model.battery = wiring
        let gauge: any BatteryGauge
        do throws(HALError) { gauge = try devices.openBattery(wiring) } catch {
            logger.error("battery: \(error); the watch runs without its battery level")
            return nil
        }
        logger.info("battery: \(gauge.location), read every \(wiring.interval), low at \(wiring.lowPercent)%, critical at \(wiring.criticalPercent)%"
            + (wiring.powerOffWhenCritical ? " (powers off)" : ""))
        let monitor = BatteryMonitor(gauge: gauge, loop: loop, interval: wiring.interval)
        monitor.readingHandler = { [unowned(unsafe) watch] reading in watch.watchBatteryRead(reading) }
        let interval = wiring.interval
        monitor.failureHandler = { [logger] error in
            if let error {
                logger.warning("battery: cannot read \(gauge.location): \(error); trying again every \(interval)")
            } else {
                logger.notice("battery: \(gauge.location) answers again")
            }
        }
        watch.powerOffHandler = { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.requestPowerOff() } }
        return monitor
    }

    /// Where the power-off request goes: --power-off-request (tests), else
    /// `$RUNTIME_DIRECTORY/power-off` under systemd; nil when run by hand.
    var powerOffRequestPath: String? {
        options.powerOffRequestPath
            ?? CurrentProcess.environment("RUNTIME_DIRECTORY")?.split(separator: ":").first.map { String($0) + "/power-off" }
    }

    /// The battery is empty: ask the system to power off. The daemon itself
    /// has no privilege to: it creates the request file, which the
    /// package's `wristcore-poweroff.path` unit turns into `systemctl
    /// poweroff`; systemd then stops the daemon like any shutdown (motor off).
    func requestPowerOff() {
        guard let path = powerOffRequestPath else {
            logger.error("battery empty: not powering off (no $RUNTIME_DIRECTORY: run by systemd with wristcore-poweroff.path, docs/battery.md)")
            return
        }
        do throws(HALError) {
            let created = try FileBytes.createExclusive(Array("battery empty\n".utf8), at: path)
            logger.critical("battery empty: asked the system to power off (\(path)\(created ? "" : ", already asked"))")
        } catch {
            logger.error("battery empty: cannot ask for a power-off: \(error); docs/battery.md")
        }
    }
}
