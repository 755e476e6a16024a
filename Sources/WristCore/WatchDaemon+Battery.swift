import BoardConfig
import HAL
import LinuxHAL
import LinuxLoop
import Power
import Watch

/// The watch's battery: the gauge the board file names, read now and then,
/// and the clean power-off when it is empty (docs/battery.md).
extension WatchDaemon {
    /// The battery monitor, or nil without a `battery` in the board file. A
    /// gauge that does not open is logged, with how to fix it, and the watch
    /// runs without: a watch that shows no battery beats no watch
    /// (`wristcore doctor` warns about it too).
    func makeBattery(loop: EpollLoop, watch: WatchController, devices: any BoardDevices) -> BatteryMonitor? {
        guard let wiring = board.battery else { return nil }
        watch.model.battery = wiring
        let gauge: any BatteryGauge
        do throws(HALError) { gauge = try devices.openBattery(wiring) } catch {
            logger.error("battery: \(error); the watch runs without its battery level")
            return nil
        }
        logger.info("battery: \(gauge.location), low at \(wiring.lowPercent)%, critical at \(wiring.criticalPercent)%")
        let monitor = BatteryMonitor(gauge: gauge, loop: loop, interval: wiring.interval)
        watch.follow(monitor)
        watch.powerOffHandler = { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.requestPowerOff() } }
        return monitor
    }

    /// The battery is empty: ask the system to power off (motor off as in any shutdown).
    func requestPowerOff() {
        guard let path = options.powerOffRequestPath ?? PowerOffRequest.defaultPath else {
            return logger.error("battery empty: not powering off (no $RUNTIME_DIRECTORY: run by systemd with wristcore-poweroff.path, docs/battery.md)")
        }
        do throws(HALError) {
            let made = try PowerOffRequest.make(at: path)
            logger.critical("battery empty: asked the system to power off (\(path)\(made ? "" : ", already asked"))")
        } catch {
            logger.error("battery empty: cannot ask for a power-off: \(error); docs/battery.md")
        }
    }
}
