import LinuxLoop
import ANCS
import BoardConfig
import Display
import Foundation
import GATT
import Graphics
import HAL
import Haptics
import Input
import LinuxHAL
import Logging
import Loop
import Peripheral
import PhoneServices
import Screens
import SimBoard
import Watch

/// The daemon's composition root: one event loop; the board's display,
/// buttons and motor (real or simulated); the phone link; the harness; and an
/// orderly shutdown on SIGINT / SIGTERM that leaves the motor off.
public final class WatchDaemon {
    public struct Options {
        /// Stop after this long (scripted runs).
        public var duration: Duration?
        /// `unix:PATH`: listen for phone links there (simulated board only).
        public var phoneEndpoint: String?
        /// `unix:PATH`: serve the harness line protocol there.
        public var harnessEndpoint: String?
        /// What the built-in simulated iPhone plays when no phone endpoint is given.
        public var phoneScript: [PhoneEvent]?
        public var settings = WatchSettings()
        /// Use `settings`' display power timings instead of the board file's.
        public var keepPowerSettings = false
        /// Where bonds are kept (default: $STATE_DIRECTORY from systemd, else /var/lib/wristcore).
        public var stateDirectory: String?
        public init() {}
    }

    public let board: Board
    let logger: Logger
    let options: Options

    /// Set while running (tests drive the daemon in-process).
    public private(set) var watch: WatchController?
    public private(set) var buttons: WatchButtons?
    public private(set) var harness: HarnessServer?
    public private(set) var builtInPhone: SimulatedPhone?
    /// The simulated panel, on the simulated board.
    public private(set) var emulatedDisplay: EmulatedI2CDisplay?

    public init(board: Board, logger: Logger, options: Options = Options()) {
        self.board = board
        self.logger = logger
        self.options = options
    }

    public convenience init(board: Board, logger: Logger, duration: Double?) {
        var o = Options()
        o.duration = duration.map { .milliseconds(Int64($0 * 1000)) }
        self.init(board: board, logger: logger, options: o)
    }

    /// Runs until a signal (or `duration`) and returns after a clean shutdown.
    public func run() throws {
        try preflight()
        let loop: EpollLoop
        do {
            loop = try EpollLoop()
            try loop.handleTerminationSignals()
        } catch {
            throw WristCoreFailure("cannot start the event loop: \(error)")
        }
        try run(on: loop)
        if let sig = loop.receivedSignal { logger.info("received signal \(sig), shut down cleanly") }
    }

    /// Builds everything on `loop`, runs it, and tears it down (motor off on
    /// every way out, including errors).
    public func run(on loop: EpollLoop) throws {
        try start(on: loop)
        defer { stop() }
        if let d = options.duration { loop.schedule(after: d) { loop.shutdown() } }
        startSystemdNotifications(loop: loop)
        logger.info("press Ctrl-C to stop")
        do { try loop.run() } catch { throw WristCoreFailure("event loop failed: \(error)") }
    }

    private var motorLine: (any MotorLine)?
    /// The simulated board's motor line (tests inject failures).
    public var simulatedMotorLine: SimulatedMotorLine? { motorLine as? SimulatedMotorLine }
    public private(set) var bluetooth: BluetoothPeripheral?
    private var systemd: SystemdNotifier?
    private var phoneEndpoint: SimulatedPhoneEndpoint?
    private var loop: EpollLoop?

    /// Opens the devices and starts the watch on `loop` without running it
    /// (tests then drive the loop themselves). Pair with `stop()`.
    public func start(on loop: EpollLoop) throws {
        self.loop = loop
        let d = board.display
        logger.info("WristCore \(WristCoreVersion.string) on \(board.name) [\(board.source)]\(board.simulated ? " (simulated hardware)" : "")")
        logger.info("display \(d.controller.rawValue) \(d.width)x\(d.height) on \(board.simulated ? "the emulator" : d.devicePath) at 0x\(String(d.address, radix: 16, uppercase: true)); buttons: \(board.buttons.map(\.role.rawValue).joined(separator: ", ")); motor: \(board.motor == nil ? "none" : "yes")")

        // The motor first, so every later failure path can switch it off.
        let motor = try makeMotor(loop: loop)
        loop.onShutdown { [weak self] in self?.safeMotorOff() }

        do {
            let watch = try makeWatch(loop: loop, motor: motor)
            self.watch = watch
            buttons = try makeButtons(loop: loop, watch: watch)
            if let path = try endpointPath(options.harnessEndpoint, flag: "--harness") {
                harness = try HarnessServer(path: path, loop: loop, logger: logger, hooks: harnessHooks(watch))
                logger.info("harness listening on unix:\(path)")
            }
            motor?.stateHandler = { [weak self] on, at in self?.harness?.motorChanged(on: on, at: at) }
            try startPhone(loop: loop, watch: watch)
            try watch.start(rotation: Rotation(rawValue: d.rotation) ?? .r0)
        } catch {
            stop()
            if let e = error as? WristCoreFailure { throw e }
            throw WristCoreFailure("cannot start: \(error)")
        }
    }

    /// Motor off, lines released, panel off, sockets closed. Idempotent.
    public func stop() {
        safeMotorOff()
        try? systemd?.stopping()
        systemd = nil
        bluetooth?.stop()
        bluetooth = nil
        watch?.stop()
        buttons?.close()
        harness?.close()
        phoneEndpoint?.close()
        watch?.session?.close()
        motorLine?.release()
        motorLine = nil
        buttons = nil
        harness = nil
        phoneEndpoint = nil
    }

    private func safeMotorOff() {
        watch?.motor?.forceOff()
        try? motorLine?.setActive(false)
    }

    // MARK: - Parts

    private func preflight() throws {
        guard !board.simulated else { return }
        if options.phoneEndpoint != nil {
            throw WristCoreFailure("--phone is for the simulated board (--board sim); a real board talks to the phone over Bluetooth", exitCode: WristCoreExit.usageOrConfiguration)
        }
        // Refuse to start on a board whose devices are missing or busy, saying how to fix it.
        let report = Doctor(board: board, stateDirectory: stateDirectory).check()
        for line in report.lines { logger.debug("\(line)") }
        if report.failed {
            let failures = report.lines.filter { $0.hasPrefix("FAIL") }.joined(separator: "\n")
            throw WristCoreFailure("the board's devices are not ready:\n\(failures)\n(run 'wristcore doctor --board \(board.source)' for the full check)")
        }
    }

    private func makeMotor(loop: EpollLoop) throws -> MotorController? {
        guard let wiring = board.motor else { return nil }
        let line: any MotorLine
        if board.simulated {
            line = SimulatedMotorLine()
        } else {
            do {
                line = try GPIOMotorLine(chip: wiring.chip, line: wiring.line.gpioLineID, activeLow: wiring.activeLow, consumer: "wristcore-motor")
            } catch {
                throw WristCoreFailure("motor: \(error)")
            }
        }
        motorLine = line
        var haptics = HapticsConfiguration()
        if let q = wiring.quietHours { haptics.quietHours = QuietHours(startMinute: q.start, endMinute: q.end) }
        let motor = MotorController(line: line, scheduler: loop, configuration: haptics, minuteOfDay: {
            let t = WallClock.system()
            return t.hour * 60 + t.minute
        })
        motor.errorHandler = { [logger] error in logger.error("motor switched off after an error: \(error)") }
        return motor
    }

    private func makeWatch(loop: EpollLoop, motor: MotorController?) throws -> WatchController {
        let d = board.display
        guard let spec = ControllerSpec.named("\(d.controller.rawValue)-\(d.width)x\(d.height)") ?? ControllerSpec.named(d.controller.rawValue) else {
            throw WristCoreFailure("no controller description for \(d.controller.rawValue) \(d.width)x\(d.height)")
        }
        let transport: any I2CTransport
        if board.simulated {
            let panel = EmulatedPanel.named("\(d.controller.rawValue)-\(d.width)x\(d.height)") ?? .ssd1306_128x64
            let emulated = EmulatedI2CDisplay(panel: panel, address: d.address)
            emulatedDisplay = emulated
            transport = emulated
        } else {
            do { transport = try I2CDevice(bus: d.bus, address: d.address) } catch {
                throw WristCoreFailure("display: \(error)")
            }
        }
        var displayOptions = DisplayOptions(contrast: d.contrast, columnOffset: d.columnOffset)
        displayOptions.persist = false
        let driver = OLEDDriver(spec: spec, transport: transport, options: displayOptions)
        let rotation = Rotation(rawValue: d.rotation) ?? .r0
        let framebuffer = Framebuffer(width: spec.width, height: spec.height, rotation: rotation)
        let fonts: ScreenFonts
        do { fonts = try ScreenFonts.standard(searchPath: ResourcePaths.fontSearchPath()) } catch {
            throw ResourcePaths.fontsMissing(error)
        }
        let renderer = ScreenRenderer(width: framebuffer.width, height: framebuffer.height, fonts: fonts, placement: buttonPlacement)
        renderer.setWatchName(board.bluetooth.name)
        var settings = options.settings
        if !options.keepPowerSettings {
            settings.dimAfter = d.dimAfter
            settings.offAfter = d.offAfter
        }
        return WatchController(
            loop: loop, logger: logger, settings: settings, renderer: renderer, framebuffer: framebuffer,
            driver: driver, contrast: d.contrast, motor: motor, policy: board.motor?.policy ?? .standard)
    }

    /// Call and pairing labels go over the buttons as the board file places them.
    private var buttonPlacement: ButtonPlacement {
        func corner(_ p: ButtonPosition?) -> ButtonCorner? {
            switch p {
            case .topLeft: .topLeft
            case .topRight: .topRight
            case .bottomLeft: .bottomLeft
            case .bottomRight: .bottomRight
            case nil: nil
            }
        }
        return ButtonPlacement(
            positive: corner(board.button(.positive)?.position) ?? .bottomRight,
            negative: corner(board.button(.negative)?.position) ?? .bottomLeft)
    }

    private func makeButtons(loop: EpollLoop, watch: WatchController) throws -> WatchButtons {
        var lines: [ButtonRole: any ButtonLine] = [:]
        if !board.simulated {
            for b in board.buttons {
                do {
                    lines[b.role] = try GPIOButtonLine(
                        chip: b.chip, line: b.line.gpioLineID, activeLow: b.activeLow, bias: b.bias.gpioBias,
                        debounce: board.input.debounce, consumer: "wristcore-\(b.role.rawValue)")
                } catch {
                    for l in lines.values { l.release() }
                    throw WristCoreFailure("\(b.role.rawValue) button: \(error)")
                }
            }
        }
        let timing = ButtonTiming(debounce: board.input.debounce, longPress: board.input.longPress, doublePress: board.input.doublePress)
        return try WatchButtons(roles: board.buttons.map(\.role), lines: lines, timing: timing, loop: loop, logger: logger) {
            [unowned watch] role, gesture in watch.button(role, gesture)
        }
    }

    private func startPhone(loop: EpollLoop, watch: WatchController) throws {
        guard board.simulated else {
            // Real boards: the Bluetooth link (docs/bluetooth.md).
            try startBluetooth(loop: loop, watch: watch)
            return
        }
        if let path = try endpointPath(options.phoneEndpoint, flag: "--phone") {
            watch.link = .advertising
            phoneEndpoint = try SimulatedPhoneEndpoint(path: path, loop: loop, logger: logger) { [unowned self, unowned watch] channel in
                guard watch.session == nil else { return false }
                self.attachPhone(channel, security: nil, loop: loop, watch: watch)
                return true
            }
            logger.info("phone endpoint listening on unix:\(path) (SOCK_SEQPACKET, one ATT PDU per message)")
            return
        }
        // The built-in simulated iPhone, over an in-process socket pair.
        let (watchEnd, phoneEnd) = try SeqPacketChannel.pair(names: ("phone link", "simulated iPhone"))
        let phone = SimulatedPhone(channel: phoneEnd, loop: loop)
        phone.logHandler = { [logger] line in logger.debug("simulated iPhone: \(line)") }
        builtInPhone = phone
        attachPhone(watchEnd, security: nil, loop: loop, watch: watch)
        try phone.start()
        phone.run(options.phoneScript ?? BuiltInScenario.events)
    }

    /// Runs a phone session over an accepted link.
    func attachPhone(_ channel: any PacketChannel, security: (any LinkSecurityControl)?, loop: EpollLoop, watch: WatchController) {
        var consumerConfiguration = NotificationConsumer.Configuration()
        consumerConfiguration.fetchDate = true
        consumerConfiguration.fetchSubtitle = true
        let session = PhoneSession(
            channel: channel, loop: loop, security: security, deviceName: board.bluetooth.name,
            consumerConfiguration: consumerConfiguration)
        watch.phoneConnected(session)
        do { try session.start() } catch {
            logger.warning("phone link failed at once: \(error)")
            session.close()
            watch.phoneDisconnected()
        }
    }

    private func endpointPath(_ spec: String?, flag: String) throws -> String? {
        guard let spec else { return nil }
        guard spec.hasPrefix("unix:"), spec.count > 5 else {
            throw WristCoreFailure("\(flag) takes unix:PATH (for example \(flag) unix:/tmp/wristcore-\(flag.dropFirst(2)).sock), not '\(spec)'", exitCode: WristCoreExit.usageOrConfiguration)
        }
        return String(spec.dropFirst(5))
    }

    private func harnessHooks(_ watch: WatchController) -> HarnessServer.Hooks {
        HarnessServer.Hooks(
            setButton: { [weak self] role, active in self?.buttons?.inject(role, active: active) ?? false },
            snapshot: { [weak self] format in
                guard let self else { return [] }
                let image = self.screenImage(watch)
                switch format {
                case .pbm: return Array(image.pbmPlain().utf8)
                case .png: return image.png(scale: 1)
                }
            },
            notificationsJSON: { HarnessJSON.notifications(watch.notifications) },
            stateJSON: { HarnessJSON.state(watch) })
    }

    /// What the panel shows: decoded from the bytes the emulator received on
    /// the simulated board; the framebuffer on a real one.
    func screenImage(_ watch: WatchController) -> MonoImage {
        if let e = emulatedDisplay {
            let rotation = Rotation(rawValue: board.display.rotation) ?? .r0
            return e.emulator.image().viewed(as: rotation)
        }
        return MonoImage(watch.framebuffer)
    }
}

extension LineSelector {
    /// The same line in the HAL's terms.
    public var gpioLineID: GPIOLineID {
        switch self {
        case .offset(let o): .offset(o)
        case .name(let n): .name(n)
        }
    }
}

extension LineBias {
    var gpioBias: GPIOBias {
        switch self {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .disabled: .disabled
        case .asIs: .asIs
        }
    }
}


extension WatchDaemon {
    /// Where bonds live: --state-dir, else systemd's $STATE_DIRECTORY, else /var/lib/wristcore.
    var stateDirectory: String {
        options.stateDirectory
            ?? ProcessInfo.processInfo.environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init)
            ?? BondStore.defaultDirectory
    }

    /// The Bluetooth link of a real board: the watch owns the controller
    /// through the kernel's management socket, advertises, pairs (the passkey
    /// on screen, confirmed with the buttons), keeps bonds, and hands each
    /// accepted L2CAP ATT link to a phone session.
    func startBluetooth(loop: EpollLoop, watch: WatchController) throws {
        let bt = BluetoothPeripheral(
            settings: board.bluetooth, ioCapability: BluetoothPeripheral.ioCapability(for: board),
            keyStore: BondStore(directory: stateDirectory), loop: loop, logger: logger)
        bt.onConnection = { [unowned self, unowned watch] link in
            self.attachPhone(link, security: link, loop: loop, watch: watch)
        }
        bt.onDisconnected = { [unowned watch] _ in watch.phoneDisconnected() }
        bt.onPairingRequest = { [unowned watch, unowned bt] passkey in
            watch.showPairing(passkey: passkey) { accept in bt.confirmPairing(accept) }
        }
        bt.onPairingEnded = { [unowned watch] _ in watch.pairingFinished() }
        bt.onStateChange = { [unowned watch] state in
            switch state {
            case .stopped, .failed: watch.link = .off
            case .advertising: watch.link = .advertising
            case .connected: watch.link = .connected
            case .encrypted: watch.link = .encrypted
            }
        }
        bt.onStaleBond = { [unowned watch] address in
            watch.showNotice("Pair again: the phone \(address) forgot this watch")
        }
        bluetooth = bt
        do { try bt.start() } catch {
            throw WristCoreFailure("Bluetooth: \(error)")
        }
    }

    /// READY=1 once running, WATCHDOG=1 from the loop (a hung loop stops the
    /// pings and systemd restarts the unit), when started by systemd.
    func startSystemdNotifications(loop: EpollLoop) {
        guard let notifier = (try? SystemdNotifier.fromEnvironment()) ?? nil else { return }
        systemd = notifier
        try? notifier.ready(status: "running on \(board.name)")
        if let interval = SystemdNotifier.watchdogPingInterval() {
            let timer = loop.makeTimer { [weak notifier] in try? notifier?.watchdog() }
            loop.arm(timer, after: interval, repeating: interval)
        }
    }
}
