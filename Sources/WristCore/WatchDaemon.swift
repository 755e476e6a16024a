import ANCS
import WearerSettings
import BoardConfig
import Display
import GATT
import Graphics
import HAL
import Haptics
import Harness
import Input
import LinuxHAL
import LinuxLoop
import Log
import Loop
import Peripheral
import Power
import PhoneServices
import Screens
import SimBoard
import Systemd
import TextFormat
import Watch
import WatchFiles

/// The daemon's composition root: one event loop; the board's devices
/// (display, buttons, motor and phone link, from the `BoardDevicesFactory`
/// chosen once); the harness; and an orderly shutdown on SIGINT / SIGTERM
/// that leaves the motor off.
public final class WatchDaemon {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    let lifetime = Lifetime()
    deinit { lifetime.end() }

    public struct Options {
        /// Stop after this long (scripted runs).
        public var duration: Duration?
        /// `unix:PATH`: listen for phone links there (simulated board only).
        public var phoneEndpoint: String?
        /// `unix:PATH`: serve the harness line protocol there.
        public var harnessEndpoint: String?
        /// What the built-in simulated iPhone plays when no phone endpoint is given.
        public var phoneScript: [PhoneEvent]?
        /// Given: the built-in phone is a simulated Android one (Gadgetbridge) playing this.
        public var androidPhoneScript: [AndroidPhoneEvent]?
        /// The system clock is LinuxHAL's local time while it is synchronised,
        /// else unknown (demo and tests pin it).
        public var settings = WatchSettings(systemClock: { SystemClock.isSynchronisedRecently ? LocalClock.now() : nil },
                                            wallInstant: { SystemClock.instant(localNanoseconds: $0 &* 1_000_000_000, utcOffsetSeconds: nil) })
        /// Use `settings`' display power timings instead of the board file's.
        public var keepPowerSettings = false
        /// Where bonds are kept (default: $STATE_DIRECTORY from systemd, else /var/lib/wristcore).
        public var stateDirectory: String?
        /// Take up the Do Not Disturb state and the notification list kept in the state directory, and keep
        /// every change there (false: the demo, a show that must not change the real watch's state).
        public var keepsDoNotDisturb = true
        /// The `--board` argument, checked again before a SIGHUP restarts
        /// (nil: not checked, as in tests that pass a `Board`).
        public var boardArgument: String?
        /// sd_notify's socket and the watchdog timeout (tests); by default
        /// `$NOTIFY_SOCKET` and `$WATCHDOG_USEC`, as systemd sets them.
        public var systemdNotify: (socket: String, watchdogTimeout: Duration?)?
        /// The file whose creation powers the board off (an empty battery):
        /// by default `$RUNTIME_DIRECTORY/power-off`, which the package's
        /// `wristcore-poweroff.path` unit watches (docs/battery.md).
        public var powerOffRequestPath: String?
        /// Where the running watch's status goes for `wristcore doctor` (by default `$RUNTIME_DIRECTORY/status`).
        public var runningStatusPath: String?
        public init() {}
    }

    public let board: Board
    let logger: Logger
    let options: Options
    let devicesFactory: BoardDevicesFactory

    /// Set while running (tests drive the daemon in-process).
    public private(set) var devices: (any BoardDevices)?
    public private(set) var watch: WatchController?
    public private(set) var buttons: WatchButtons?
    public private(set) var harness: HarnessServer?
    /// The watch's battery gauge, read now and then (a board file with `battery`).
    public internal(set) var battery: BatteryMonitor?
    /// The simulated board's panel (tests look at its registers).
    public var emulatedDisplay: EmulatedI2CDisplay? { (devices as? SimulatedBoardDevices)?.display }

    /// - Parameter devices: which devices to run on; by default what the board file asks for.
    public init(board: Board, logger: Logger, options: Options = Options(), devices: BoardDevicesFactory? = nil) {
        self.board = board
        self.logger = logger
        self.options = options
        devicesFactory = devices ?? .matching(board)
    }

    /// The run loop of a process that drives the motor: every catchable
    /// terminating signal goes through its shutdown steps (motor off).
    static func makeLoop() throws(WristCoreFailure) -> EpollLoop {
        do {
            let loop = try EpollLoop()
            try loop.handleTerminationSignals()
            return loop
        } catch {
            throw WristCoreFailure("cannot start the event loop: \(error)")
        }
    }

    /// Runs until a signal (or `duration`) and returns after a clean shutdown.
    public func run() throws(WristCoreFailure) {
        let loop = try Self.makeLoop()
        // SIGHUP re-reads the settings file: a broken one keeps the daemon running.
        loop.shutdownSignalFilter = { [lifetime, unowned(unsafe) self] sig in
            sig != ProcessSignals.restart || lifetime.isOver || self.reloadAllowed()
        }
        try run(on: loop)
        if let sig = loop.receivedSignal {
            restartRequested = sig == ProcessSignals.restart
            logger.info("received \(ProcessSignals.name(sig)), shut down cleanly\(restartRequested ? "; restarting in place" : "")")
        }
    }

    /// After `run()`: the daemon stopped on SIGHUP, which asks for a clean
    /// restart in place (the caller re-executes the binary: the board file is
    /// read again and the devices reopened, under the same PID).
    public private(set) var restartRequested = false
    /// After a SIGHUP: the board and settings files as checked, for the new image.
    public internal(set) var checkedForRestart = CheckedFiles()

    /// The wearer's settings file (docs/settings.md), read at start.
    public private(set) var userSettings = UserSettings.defaults

    /// Builds everything on `loop`, runs it, and tears it down (motor off on
    /// every way out, including errors).
    public func run(on loop: EpollLoop) throws(WristCoreFailure) {
        try start(on: loop)
        defer { stop() }
        if let d = options.duration { loop.schedule(after: d) { loop.shutdown() } }
        // READY=1 waits until the phone link accepts phones (Bluetooth starts on the loop).
        running = true
        if phoneLinkReady { startSystemdNotifications(loop: loop) }
        // Start-up is over: only the code the watch runs from now on stays resident.
        let trimmed = ResidentCode.trim()
        logger.debug("dropped \(trimmed.mappings) file mappings (\(trimmed.bytes / 1024) KiB) from the resident set")
        logger.info("press Ctrl-C to stop")
        do throws(HALError) { try loop.run() } catch { throw WristCoreFailure("event loop failed: \(error)") }
        if let failure = phoneLinkFailure { throw failure }
    }

    private var motorLine: (any MotorLine)?
    /// The simulated board's motor line (tests inject failures).
    public var simulatedMotorLine: SimulatedMotorLine? { motorLine as? SimulatedMotorLine }
    /// The phone link did not start: the loop was shut down and `run(on:)` throws this.
    private var phoneLinkFailure: WristCoreFailure?
    private var phoneLinkReady = false
    private var running = false
    private var systemd: SystemdSupervisor?
    /// The phone link's last status, for STATUS= (with the ANCS health).
    private var phoneLinkStatus: String?
    /// What the last STATUS= said about ANCS, to build the text only on a change.
    private var healthStatusKey: WatchController.HealthStatusKey?
    /// The running watch's status file as last written; a failed write is logged once.
    private var runningStatus: RunningWatchStatus.Report?
    private var runningStatusFailed = false
    private var loop: EpollLoop?

    /// Opens the devices and starts the watch on `loop` without running it
    /// (tests then drive the loop themselves). Pair with `stop()`.
    public func start(on loop: EpollLoop) throws(WristCoreFailure) {
        self.loop = loop
        userSettings = try loadUserSettings()
        let devices = try devicesFactory.make(
            BoardDevicesContext(board: board, loop: loop, logger: logger, options: options, stateDirectory: stateDirectory))
        self.devices = devices
        try devices.preflight()
        let d = board.display
        logger.info("WristCore \(WristCoreVersion.string) on \(board.name) [\(board.source)]\(devices.hardwareNote.map { " (\($0))" } ?? "")")
        logger.info("display \(d.controller.rawValue) \(d.width)x\(d.height) on \(devices.displayLocation) at 0x\(String(d.address, radix: 16, uppercase: true)); buttons: \(board.buttons.map { $0.role.rawValue }.joined(separator: ", ")); motor: \(board.motor == nil ? "none" : "yes")")

        // The motor first, so every later failure path can switch it off.
        let motor = try makeMotor(loop: loop, devices: devices)
        loop.onShutdown { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.safeMotorOff() } }

        do throws(WristCoreFailure) {
            let watch = try makeWatch(loop: loop, motor: motor, devices: devices)
            self.watch = watch
            watch.model.disconnectAlertDelay = board.bluetooth.disconnectAlert
            watch.model.userSettings = userSettings
            if options.keepsDoNotDisturb { keepDoNotDisturb(watch, loop: loop); keepHistory(watch); keepMutes(watch, loop: loop); keepAlarms(watch) }
            buttons = try makeButtons(loop: loop, watch: watch, devices: devices)
            if let path = try PathText.unixEndpoint(options.harnessEndpoint, flag: "--harness") {
                let server: HarnessServer
                do throws(HALError) {
                    server = try HarnessServer(path: path, sockets: UnixLocalSockets(), loop: loop, logger: logger, hooks: harnessHooks(watch))
                } catch { throw WristCoreFailure("cannot start: \(error)") }
                harness = server
                logger.info("harness listening on unix:\(path)")
                // Only with a harness; it returns at once while no client follows the motor.
                // Through `harness`, which stop() clears: a closed server is never called.
                motor?.stateHandler = { [lifetime, unowned(unsafe) self] on, at in
                    if !lifetime.isOver { self.harness?.motorChanged(on: on, at: at) }
                }
                // Likewise for the events stream while no client asked for it.
                watch.notificationObserver = { [lifetime, unowned(unsafe) self, unowned(unsafe) watch] event in
                    guard !lifetime.isOver else { return }
                    self.harness?.notificationEvent(event, store: watch.notifications, now: watch.now)
                }
                watch.mediaObserver = { [lifetime, unowned(unsafe) self, unowned(unsafe) watch] event, state in
                    if case .commandFailed = event { return }
                    guard !lifetime.isOver else { return }
                    self.harness?.mediaChanged(state, now: watch.now)
                }
            }
            systemd = makeSystemdSupervisor(loop: loop)
            battery = makeBattery(loop: loop, watch: watch, devices: devices)
            try startPhone(loop: loop, watch: watch, devices: devices)
            do throws(HALError) { try watch.start(rotation: Rotation(rawValue: d.rotation) ?? .r0) } catch {
                throw WristCoreFailure("cannot start: \(error)")
            }
            battery?.start()
        } catch {
            stop()
            throw error
        }
    }

    /// Motor off, lines released, panel off, sockets closed. Idempotent.
    public func stop() {
        safeMotorOff()
        systemd?.stopping()
        systemd = nil
        if runningStatus != nil, let path = options.runningStatusPath ?? RunningWatchStatus.runtimePath { try? AtomicFileStore().remove(path) }
        runningStatus = nil
        devices?.stopPhoneLink()
        watch?.stop()
        buttons?.close()
        harness?.close()
        battery?.stop()
        battery = nil
        watch?.session?.close()
        motorLine?.release()
        motorLine = nil
        buttons = nil
        harness = nil
    }

    private func safeMotorOff() {
        watch?.motor?.forceOff()
        try? motorLine?.setActive(false)
    }

    // MARK: - Parts

    private func makeMotor(loop: EpollLoop, devices: any BoardDevices) throws(WristCoreFailure) -> MotorController? {
        guard let wiring = board.motor else { return nil }
        let line: any MotorLine
        do throws(HALError) { line = try devices.openMotor(wiring) } catch {
            throw WristCoreFailure("motor: \(error)")
        }
        motorLine = line
        // Quiet hours are the watch model's decision (WatchSettings.quietHours); the motor only plays.
        let motor = MotorController(line: line, scheduler: loop, configuration: HapticsConfiguration())
        motor.errorHandler = { [logger] error in logger.error("motor switched off after an error: \(error)") }
        return motor
    }

    private func makeWatch(loop: EpollLoop, motor: MotorController?, devices: any BoardDevices) throws(WristCoreFailure) -> WatchController {
        let d = board.display
        guard let spec = ControllerSpec.panel(d.controller, width: d.width, height: d.height) else {
            throw WristCoreFailure("no controller description for \(d.controller.rawValue) \(d.width)x\(d.height)")
        }
        let transport: any I2CTransport
        do throws(HALError) { transport = try devices.openDisplay(d) } catch {
            throw WristCoreFailure("display: \(error)")
        }
        var displayOptions = DisplayOptions(contrast: d.contrast, columnOffset: d.columnOffset)
        displayOptions.persist = false
        let driver = PanelDrivers.make(spec, transport: transport, options: displayOptions)
        let rotation = Rotation(rawValue: d.rotation) ?? .r0
        let framebuffer = Framebuffer(width: spec.width, height: spec.height, rotation: rotation)
        let fonts = try ResourcePaths.screenFonts()
        let renderer = ScreenRenderer(width: framebuffer.width, height: framebuffer.height, fonts: fonts, placement: buttonPlacement)
        renderer.setWatchName(board.bluetooth.name)
        let rules = userSettings
        if rules.hasHideContent { renderer.contentHidden = { n in rules.hidesContent(n) } }
        var settings = options.settings
        // The settings file's quietHours replace the board file's; they
        // read the watch's clock (the phone's time, else a synchronised
        // system clock, else none: not quiet).
        let boardQuietHours = board.motor?.quietHours.map { QuietHours(startMinute: $0.start, endMinute: $0.end) }
        settings.quietHours = userSettings.quietHours.resolved(board: boardQuietHours)
        if !options.keepPowerSettings {
            settings.dimAfter = d.dimAfter
            settings.offAfter = d.offAfter
        }
        if board.setSystemClock {
            settings.setSystemClock = { local, utcOffset throws(HALError) in
                guard let instant = SystemClock.instant(localNanoseconds: local, utcOffsetSeconds: utcOffset) else {
                    throw HALError(operation: "place the phone's time in the local time zone", errno: 0, reason: "mktime failed")
                }
                try SystemClock.set(instant)
            }
        }
        return WatchController(
            loop: loop, logger: logger, settings: settings, renderer: renderer, framebuffer: framebuffer,
            driver: driver, contrast: d.contrast, motor: motor, policy: board.motor?.policy ?? .standard)
    }

    /// Call and pairing labels go over the buttons as the board file places them.
    private var buttonPlacement: ButtonPlacement {
        ButtonPlacement(
            positive: board.button(.positive)?.position ?? .bottomRight,
            negative: board.button(.negative)?.position ?? .bottomLeft)
    }

    private func makeButtons(loop: EpollLoop, watch: WatchController, devices: any BoardDevices) throws(WristCoreFailure) -> WatchButtons {
        var lines = ButtonRoleTable<any ButtonLine>()
        for b in board.buttons {
            do throws(HALError) {
                lines[b.role] = try devices.openButton(b, debounce: board.input.debounce)
            } catch {
                for l in lines.values { l.release() }
                throw WristCoreFailure("\(b.role.rawValue) button: \(error)")
            }
        }
        let timing = ButtonTiming(debounce: board.input.debounce, longPress: board.input.longPress, doublePress: board.input.doublePress)
        do throws(HALError) {
            return try WatchButtons(roles: board.buttons.map { $0.role }, lines: { lines[$0] }, timing: timing, loop: loop, logger: logger) {
                [unowned(unsafe) watch] role, gesture in watch.button(role, gesture)
            }
        } catch { throw WristCoreFailure("cannot start: \(error)") }
    }

    /// The phone link of the board's devices (Bluetooth on a real board:
    /// docs/bluetooth.md), reported to the watch.
    private func startPhone(loop: EpollLoop, watch: WatchController, devices: any BoardDevices) throws(WristCoreFailure) {
        try devices.startPhoneLink(PhoneLinkHandlers(
            linkInUse: { [unowned(unsafe) watch] in watch.session != nil },
            connected: { [unowned(unsafe) self, unowned(unsafe) watch] channel, security in
                self.attachPhone(channel, security: security, loop: loop, watch: watch)
            },
            disconnected: { [unowned(unsafe) watch] in watch.phoneDisconnected() },
            stateChanged: { [unowned(unsafe) watch] state in watch.link = state },
            pairingRequested: { [unowned(unsafe) watch] passkey, reply in watch.showPairing(passkey: passkey, reply: reply) },
            pairingEnded: { [unowned(unsafe) watch] _ in watch.pairingFinished() },
            staleBond: { [unowned(unsafe) watch] address in
                watch.bondWasLost(address: "\(address)")
            },
            notice: { [unowned(unsafe) watch] text in watch.showNotice(text) },
            ready: { [lifetime, unowned(unsafe) self, unowned(unsafe) loop] failure in
                guard !lifetime.isOver else { return }
                guard let failure else {
                    self.phoneLinkReady = true
                    // Before `run` started the loop, `run` sends READY=1 itself.
                    if self.running { self.startSystemdNotifications(loop: loop) }
                    return
                }
                // A failure stops the daemon (the shutdown steps switch the motor off); `run(on:)` throws it.
                self.logger.error("the phone link did not start: shutting down")
                self.phoneLinkFailure = WristCoreFailure(failure)
                loop.shutdown()
            },
            adapterChanged: { [lifetime, unowned(unsafe) self, unowned(unsafe) watch] present in
                // No watchdog pings while the adapter is gone (SystemdSupervisor).
                if !lifetime.isOver { self.systemd?.setPhoneLinkHealthy(present) }
                if !present { watch.link = .off }
                watch.adapterChanged(present: present)
            },
            pairedChanged: { [unowned(unsafe) watch] paired in watch.pairedChanged(paired) },
            statusChanged: { [lifetime, unowned(unsafe) self] text in if !lifetime.isOver { self.phoneLinkStatusChanged(text) } },
            failed: { [lifetime, unowned(unsafe) self, unowned(unsafe) loop] why in
                guard !lifetime.isOver else { return }
                // Exit non-zero (the shutdown steps switch the motor off): systemd restarts the unit.
                self.logger.error("\(why): shutting down for a restart")
                self.phoneLinkFailure = WristCoreFailure(why)
                loop.shutdown()
            }))
    }

    /// Runs a phone session over an accepted link.
    func attachPhone(_ channel: any PacketChannel, security: (any LinkSecurityControl)?, loop: EpollLoop, watch: WatchController) {
        var consumerConfiguration = NotificationConsumer.Configuration()
        consumerConfiguration.fetchDate = true
        consumerConfiguration.fetchSubtitle = true
        let session = PhoneSession(
            channel: channel, loop: loop, security: security, deviceName: board.bluetooth.name,
            firmwareRevision: "WristCore \(WristCoreVersion.string)", consumerConfiguration: consumerConfiguration,
            uartRequiresEncryption: board.bluetooth.uartRequiresEncryption)
        watch.phoneConnected(session)
        do { try session.start() } catch {
            logger.warning("phone link failed at once: \(error)")
            session.close()
            watch.phoneDisconnected()
        }
    }

    private func harnessHooks(_ watch: WatchController) -> HarnessServer.Hooks {
        var hooks = HarnessServer.Hooks(
            setButton: { [lifetime, unowned(unsafe) self] role, active in !lifetime.isOver && self.setButton(role, active: active) },
            snapshot: { [lifetime, unowned(unsafe) self] format in
                guard !lifetime.isOver else { return [] }
                let image = self.screenImage(watch)
                switch format {
                case .pbm: return Array(image.pbmPlain().utf8)
                case .png: return image.png(scale: 1)
                }
            },
            notificationsJSON: { HarnessJSON.notifications(watch.notifications) },
            stateJSON: { HarnessJSON.state(watch.snapshot, bus: Self.displayBus(watch)) })
        hooks.setBattery = { [lifetime, unowned(unsafe) self] percent, charging in
            guard !lifetime.isOver, let battery = self.battery, self.devices?.setBattery(percent: percent, charging: charging) == true
            else { return false }
            battery.readNow()
            return true
        }
        hooks.clearHistory = { [lifetime] in !lifetime.isOver && watch.clearHistory() }
        hooks.setPhoneBattery = { [lifetime, unowned(unsafe) self] level in
            guard !lifetime.isOver, let phone = (self.devices as? SimulatedBoardDevices)?.builtInPhone else { return false }
            phone.setBattery(UInt8(level))
            return true
        }
        return hooks
    }

    /// The display bus as the harness reports it: on the simulated board
    /// the emulated bus's own count (every byte that reached the "panel"),
    /// else the driver's.
    static func displayBus(_ watch: WatchController) -> DisplayBusCounters {
        var c = watch.displayBus
        if let emulated = watch.displayTransport as? EmulatedI2CDisplay {
            c.bytes = emulated.busBytes
            c.transactions = emulated.transactions
        }
        return c
    }

    /// Presses (or releases) a button in software, as an edge on its line
    /// now: the harness, the demo. False when the board has no such button.
    public func setButton(_ role: ButtonRole, active: Bool) -> Bool {
        buttons != nil && devices?.setButton(role, active: active) == true
    }

    /// What the panel shows: what the devices can tell (the simulated panel
    /// decodes the bytes it received), else the framebuffer.
    func screenImage(_ watch: WatchController) -> MonoImage {
        if let glass = devices?.panelImage() {
            return glass.viewed(as: Rotation(rawValue: board.display.rotation) ?? .r0)
        }
        return MonoImage(watch.framebuffer)
    }
}

extension WatchDaemon {
    /// Where bonds live: --state-dir, else systemd's $STATE_DIRECTORY, else /var/lib/wristcore.
    var stateDirectory: String {
        options.stateDirectory
            ?? CurrentProcess.environment("STATE_DIRECTORY")?.split(separator: ":").first.map(String.init)
            ?? BondStore.defaultDirectory
    }

    /// READY=1 once running, WATCHDOG=1 from the loop while the phone link
    /// is healthy (a hung loop or a lost adapter stops the pings and systemd
    /// restarts the unit), when started by systemd.
    func startSystemdNotifications(loop: EpollLoop) {
        systemd?.ready()
        startHealthStatus(loop: loop)
    }

    /// The phone link's own status changed (advertising, connected to ...).
    func phoneLinkStatusChanged(_ text: String) {
        phoneLinkStatus = text
        refreshStatus()
    }

    /// STATUS= is the phone link's status and, while a phone is connected,
    /// its ANCS health (`systemctl status wristcore`).
    func refreshStatus() {
        guard let systemd else { return }
        var text = phoneLinkStatus ?? "running on \(board.name)"
        if let watch, watch.session != nil { text += "; " + watch.healthStatus }
        if let causes = watch?.statusCauses, !causes.isEmpty { text += "; " + causes }
        systemd.setStatus(text)  // sent only when it changed
        if let watch { writeRunningStatus(text, watch: watch) }
    }

    /// The running watch's status file (`RunningWatchStatus`, read by
    /// `wristcore doctor`): replaced when STATUS= or the causes change.
    private func writeRunningStatus(_ text: String, watch: WatchController) {
        guard let path = options.runningStatusPath ?? RunningWatchStatus.runtimePath else { return }
        let causes = watch.statusCauseList.map { RunningWatchStatus.Report.Cause(name: "\($0.name)", words: $0.words) }
        let report = RunningWatchStatus.Report(pid: RunningWatchStatus.currentPID, status: text, causes: causes)
        guard report != runningStatus else { return }
        runningStatus = report
        do throws(HALError) { try RunningWatchStatus.write(report, to: path) } catch {
            if !runningStatusFailed { logger.warning("cannot write the status for 'wristcore doctor': \(error)") }
            runningStatusFailed = true
        }
    }

    /// Refreshes STATUS= with the watchdog's period (its pings wake the loop
    /// then anyway; without a watchdog once a minute): the age of the last
    /// notification event moves on. The text is built only when what it
    /// says changed (at most once a minute while nothing happens).
    private func startHealthStatus(loop: EpollLoop) {
        guard systemd != nil else { return }
        refreshStatus()
        let watchdog = options.systemdNotify.map { $0.watchdogTimeout } ?? SystemdNotifier.watchdogTimeout()
        let interval = watchdog.map { $0 / 2 } ?? .seconds(60)
        let timer = loop.makeTimer { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.refreshHealthStatus() } }
        loop.arm(timer, after: interval, repeating: interval)
    }

    private func refreshHealthStatus() {
        guard let watch else { return }
        let key = watch.healthStatusKey
        guard key != healthStatusKey else { return }
        healthStatusKey = key
        refreshStatus()
    }

    /// The supervisor when systemd (or a test, `Options.systemdNotify`) listens.
    func makeSystemdSupervisor(loop: EpollLoop) -> SystemdSupervisor? {
        let status = "running on \(board.name)"
        let lossTimeout = board.bluetooth.adapterLossTimeout
        guard let given = options.systemdNotify else {
            return SystemdSupervisor.fromEnvironment(loop: loop, adapterLossTimeout: lossTimeout, status: status)
        }
        guard let notifier = try? SystemdNotifier(socket: given.socket) else { return nil }
        return SystemdSupervisor(notifier: notifier, loop: loop, watchdogTimeout: given.watchdogTimeout, adapterLossTimeout: lossTimeout, status: status)
    }
}
