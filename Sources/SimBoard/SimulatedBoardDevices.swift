import BoardConfig
import Graphics
import HAL
import Log
import Loop
import Power
import TextFormat

/// The simulated board's devices: an emulated panel decoding the driver's
/// I2C messages, buttons whose edges the harness and the demo push, a motor
/// line that reports its level, and a phone — a peer on the phone endpoint
/// (`--phone unix:PATH`), else the built-in simulated iPhone (or, given an
/// Android script, the simulated Gadgetbridge phone) over an in-process
/// link. No fd is opened here: sockets come from the injected `LocalSockets`.
public final class SimulatedBoardDevices: BoardDevices {
    public struct Options {
        /// Listen for phone links at this path instead of starting the built-in iPhone.
        public var phoneEndpointPath: String?
        /// What the built-in iPhone plays (default: `BuiltInScenario.events`).
        public var phoneScript: [PhoneEvent]?
        /// Given: the built-in phone is an Android one playing this instead.
        public var androidScript: [AndroidPhoneEvent]?
        public init(phoneEndpointPath: String? = nil, phoneScript: [PhoneEvent]? = nil, androidScript: [AndroidPhoneEvent]? = nil) {
            self.phoneEndpointPath = phoneEndpointPath
            self.phoneScript = phoneScript
            self.androidScript = androidScript
        }
    }

    public let board: Board
    public let options: Options
    /// The panel, once opened.
    public private(set) var display: EmulatedI2CDisplay?
    /// The motor, once opened (tests inject failures).
    public private(set) var motorLine: SimulatedMotorLine?
    /// The buttons opened, by role.
    public private(set) var buttonLines = ButtonRoleTable<SimulatedButtonLine>()
    /// The battery's fuel gauge, once opened: a MAX17048 whatever the board
    /// file names (nothing is opened on the simulated board).
    public private(set) var fuelGauge: EmulatedFuelGauge?
    /// The built-in iPhone, when no phone endpoint is given.
    public private(set) var builtInPhone: SimulatedPhone?
    /// The built-in Android phone, when the options give an Android script.
    public private(set) var builtInAndroidPhone: SimulatedAndroidPhone?
    public private(set) var phoneEndpoint: SimulatedPhoneEndpoint?

    private let loop: any EventLoop
    private let sockets: any LocalSockets
    private let logger: Logger

    public init(board: Board, loop: any EventLoop, sockets: any LocalSockets, logger: Logger, options: Options = Options()) {
        self.board = board
        self.loop = loop
        self.sockets = sockets
        self.logger = logger
        self.options = options
    }

    public var hardwareNote: String? { "simulated hardware" }
    public var displayLocation: String { "the emulator" }
    public var isWired: Bool { false }

    public func preflight() throws(WristCoreFailure) {}

    public func openDisplay(_ wiring: DisplayWiring) throws(HALError) -> any I2CTransport {
        // The emulator models each registered controller on its own (it is
        // the driver's independent oracle): a controller it has no model of
        // is an error here, not an SSD1306 in disguise.
        let name = "\(wiring.controller.rawValue)-\(wiring.width)x\(wiring.height)"
        guard let panel = EmulatedPanel.named(name) else {
            throw HALError(operation: "emulate display \(name)", errno: 0, reason: "the display emulator has no model of this panel",
                           hint: "add one to Sources/SimBoard/DisplayEmulator.swift (docs/display.md, \"Adding a controller\")")
        }
        let emulated = EmulatedI2CDisplay(panel: panel, address: wiring.address)
        display = emulated
        return emulated
    }

    public func openButton(_ wiring: ButtonWiring, debounce: Duration) throws(HALError) -> any ButtonLine {
        let line = SimulatedButtonLine { [loop] in loop.now }
        buttonLines[wiring.role] = line
        return line
    }

    public func openMotor(_ wiring: MotorWiring) throws(HALError) -> any MotorLine {
        let line = SimulatedMotorLine()
        motorLine = line
        return line
    }

    public func openBattery(_ wiring: BatteryWiring) throws(HALError) -> any BatteryGauge {
        let registers = EmulatedFuelGauge()
        fuelGauge = registers
        return try MAX1704xGauge(chip: .max17048, registers: registers)
    }

    public func setBattery(percent: Int, charging: Bool) -> Bool {
        guard let fuelGauge else { return false }
        fuelGauge.set(percent: percent, charging: charging)
        return true
    }

    public func startPhoneLink(_ handlers: PhoneLinkHandlers) throws(WristCoreFailure) {
        do throws(HALError) { try startSimulatedLink(handlers) } catch { throw WristCoreFailure("cannot start: \(error)") }
    }

    private func startSimulatedLink(_ handlers: PhoneLinkHandlers) throws(HALError) {
        if let path = options.phoneEndpointPath {
            handlers.stateChanged(.advertising)
            phoneEndpoint = try SimulatedPhoneEndpoint(path: path, sockets: sockets, loop: loop, logger: logger) { [loop] channel in
                guard !handlers.linkInUse() else { return false }
                // Like a real board's Bluetooth: connected, then advertising
                // again when the link closes (the session has reported its end
                // to the watch). Deferred: a link closes from deep inside the
                // session's receive path.
                let link = EndpointPhoneLink(channel) {
                    loop.deferWork { if !handlers.linkInUse() { handlers.stateChanged(.advertising) } }
                }
                handlers.connected(link, nil)
                handlers.stateChanged(.connected)
                return true
            }
            logger.info("phone endpoint listening on unix:\(path) (SOCK_SEQPACKET, one ATT PDU per message)")
            handlers.ready(nil)
            return
        }
        if let script = options.androidScript {
            let (watchEnd, phoneEnd) = try sockets.packetPair(names: ("phone link", "simulated Android phone"))
            let phone = SimulatedAndroidPhone(channel: phoneEnd, loop: loop)
            // What it sends and reads is the story of an Android demo: info, as the watch's own lines.
            phone.logHandler = { [logger] line in logger.info("simulated Android phone: \(line)") }
            builtInAndroidPhone = phone
            handlers.connected(watchEnd, nil)
            try phone.start()
            phone.run(script)
            handlers.ready(nil)
            return
        }
        let (watchEnd, phoneEnd) = try sockets.packetPair(names: ("phone link", "simulated iPhone"))
        let phone = SimulatedPhone(channel: phoneEnd, loop: loop)
        phone.logHandler = { [logger] line in logger.debug("simulated iPhone: \(line)") }
        builtInPhone = phone
        handlers.connected(watchEnd, nil)
        try phone.start()
        phone.run(options.phoneScript ?? BuiltInScenario.events)
        handlers.ready(nil)
    }

    public func stopPhoneLink() {
        phoneEndpoint?.close()
        phoneEndpoint = nil
    }

    public func setButton(_ role: ButtonRole, active: Bool) -> Bool {
        buttonLines[role]?.push(active: active) ?? false
    }

    public func panelImage() -> MonoImage? { display?.emulator.image() }
}
