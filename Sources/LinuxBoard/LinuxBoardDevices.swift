import BoardConfig
import Graphics
import HAL
import LinuxHAL
import LinuxLoop
import Log
import Peripheral
import Power
import SimBoard
import TextFormat

/// A real board's devices on Linux: the display on i2c-dev, buttons and motor
/// on libgpiod lines, and the phone over Bluetooth LE (the watch owns its
/// controller through the kernel's management socket: docs/bluetooth.md).
///
/// Each button's GPIO line is paired with a software line, so the harness can
/// press buttons on a real board too (docs/harness.md); both feed the same
/// gesture recognizer.
public final class LinuxBoardDevices: BoardDevices {
    public let board: Board
    /// The Bluetooth peripheral, while the phone link runs.
    public private(set) var bluetooth: BluetoothPeripheral?

    private let loop: EpollLoop
    private let logger: Logger
    private let stateDirectory: String
    private let phoneEndpoint: String?
    private var softwarePresses = ButtonRoleTable<SimulatedButtonLine>()

    /// - Parameters:
    ///   - stateDirectory: where bonds are kept.
    ///   - phoneEndpoint: a `--phone` given by mistake (refused by `preflight`).
    public init(board: Board, loop: EpollLoop, logger: Logger, stateDirectory: String, phoneEndpoint: String? = nil) {
        self.board = board
        self.loop = loop
        self.logger = logger
        self.stateDirectory = stateDirectory
        self.phoneEndpoint = phoneEndpoint
    }

    public var hardwareNote: String? { nil }
    public var displayLocation: String { board.display.devicePath }
    public var isWired: Bool { true }

    /// Refuses a board whose devices are missing or busy, saying how to fix it.
    public func preflight() throws(WristCoreFailure) {
        if phoneEndpoint != nil {
            throw WristCoreFailure("--phone is for the simulated board (--board sim); a real board talks to the phone over Bluetooth", exitCode: WristCoreExit.usageOrConfiguration)
        }
        let report = Doctor(board: board, stateDirectory: stateDirectory).check()
        for line in report.lines { logger.debug("\(line)") }
        if report.failed {
            let failures = report.lines.filter { $0.hasPrefix("FAIL") }.joined(separator: "\n")
            throw WristCoreFailure("the board's devices are not ready:\n\(failures)\n(run 'wristcore doctor --board \(board.source)' for the full check)")
        }
    }

    public func openDisplay(_ wiring: DisplayWiring) throws(HALError) -> any I2CTransport {
        try I2CDevice(bus: wiring.bus, address: wiring.address)
    }

    public func openButton(_ wiring: ButtonWiring, debounce: Duration) throws(HALError) -> any ButtonLine {
        let gpio = try GPIOButtonLine(
            chip: wiring.chip, line: wiring.line.gpioLineID, activeLow: wiring.activeLow, bias: wiring.bias.gpioBias,
            debounce: debounce, consumer: "wristcore-\(wiring.role.rawValue)")
        let software = SimulatedButtonLine { [loop] in loop.now }
        softwarePresses[wiring.role] = software
        return GPIOButtonWithSoftwarePresses(gpio: gpio, software: software)
    }

    public func openMotor(_ wiring: MotorWiring) throws(HALError) -> any MotorLine {
        try GPIOMotorLine(chip: wiring.chip, line: wiring.line.gpioLineID, activeLow: wiring.activeLow, consumer: "wristcore-motor")
    }

    /// The Bluetooth link: advertises, pairs (the passkey on screen, confirmed
    /// with the buttons), keeps bonds, and hands each accepted L2CAP ATT link
    /// to the watch.
    public func openBattery(_ wiring: BatteryWiring) throws(HALError) -> any BatteryGauge {
        try Self.openGauge(wiring)
    }

    /// The gauge the board file names, opened (the daemon and `doctor`).
    static func openGauge(_ wiring: BatteryWiring) throws(HALError) -> any BatteryGauge {
        switch wiring.gauge {
        case .powerSupply(let name):
            return try PowerSupplyBattery(name: name)
        case .max17048(let bus, let address):
            return try MAX1704xGauge(chip: .max17048, registers: I2CRegisterDevice(bus: bus, address: address))
        case .max17043(let bus, let address):
            return try MAX1704xGauge(chip: .max17043, registers: I2CRegisterDevice(bus: bus, address: address))
        }
    }

    public func setBattery(percent: Int, charging: Bool) -> Bool { false }

    public func startPhoneLink(_ handlers: PhoneLinkHandlers) throws(WristCoreFailure) {
        var options = BluetoothPeripheral.Options()
        options.adapterLossTimeout = board.bluetooth.adapterLossTimeout
        let bt = BluetoothPeripheral.kernel(board: board, stateDirectory: stateDirectory, loop: loop, logger: logger, options: options)
        bt.onConnection = { link in handlers.connected(link, link) }
        bt.onDisconnected = { _ in handlers.disconnected() }
        bt.onPairingRequest = { [unowned(unsafe) bt] passkey in
            handlers.pairingRequested(passkey) { accept in bt.confirmPairing(accept) }
        }
        bt.onPairingEnded = { accepted in handlers.pairingEnded(accepted) }
        bt.onStateChange = { [board] state in
            switch state {
            case .stopped, .failed, .adapterLost: handlers.stateChanged(.off)
            case .advertising: handlers.stateChanged(.advertising)
            case .connected: handlers.stateChanged(.connected)
            case .encrypted: handlers.stateChanged(.encrypted)
            }
            handlers.statusChanged(Self.status(of: state, board: board, now: LocalClock.now()))
        }
        bt.onAdapterLost = { _ in handlers.adapterChanged(false) }
        bt.onAdapterReturned = { _ in handlers.adapterChanged(true) }
        bt.onPairedChanged = { paired in handlers.pairedChanged(paired) }
        bt.onFailure = { error in handlers.failed("Bluetooth: \(error)") }
        bt.onStaleBond = { address in handlers.staleBond(address) }
        bt.onBondSaveFailed = { failure in handlers.notice(failure.notice) }
        bluetooth = bt
        // Start-up completes on the loop (mgmt answers); `ready` reports it.
        bt.start { result in
            switch result {
            case .success: handlers.ready(nil)
            case .failure(let error): handlers.ready("Bluetooth: \(error)")
            }
        }
    }

    /// The peripheral's state as systemd's STATUS= line.
    static func status(of state: BluetoothPeripheral.State, board: Board, now: CivilTime) -> String {
        let hci = "hci\(board.bluetooth.hciIndex)"
        switch state {
        case .stopped: return "Bluetooth stopped"
        case .advertising: return "advertising as \"\(board.bluetooth.name)\" on \(hci)"
        case .connected(let a): return "connected to \(a)"
        case .encrypted(let a, let level): return "connected to \(a) (\(level))"
        case .adapterLost(let loss):
            return "Bluetooth adapter \(hci) gone since \(now) (\(loss)); exiting if not back within \(board.bluetooth.adapterLossTimeout.components.seconds) s"
        case .failed(let why): return "Bluetooth failed: \(why)"
        }
    }

    public func stopPhoneLink() {
        bluetooth?.stop()
        bluetooth = nil
    }

    public func setButton(_ role: ButtonRole, active: Bool) -> Bool {
        softwarePresses[role]?.push(active: active) ?? false
    }

    public func panelImage() -> MonoImage? { nil }
}
