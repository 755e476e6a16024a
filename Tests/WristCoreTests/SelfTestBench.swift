import BoardConfig
import Display
import Foundation
import Graphics
import HAL
import LinuxHAL
import Log
import Loop
import Screens
import SimBoard
import Testing

@testable import WristCore
import TextFormat
@testable import BenchTools

/// The self-test on the simulated board's devices and a manual loop: buttons
/// pushed like the harness pushes them, time moved by the test, the glass
/// decoded from the driver's I2C bytes by the emulated panel.
final class SelfTestBench {
    let loop = ManualLoop()
    let devices: any BoardDevices
    let simulated: SimulatedBoardDevices
    let sequence: SelfTestSequence
    private(set) var lines: [String] = []

    static let fonts: ScreenFonts = {
        let loader = FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent)
        do { return try ScreenFonts.standard(loader: loader) } catch { fatalError("\(error)") }
    }()

    /// - Parameters:
    ///   - wired: the simulated devices behind `AlteredDevices`, which says they
    ///     are wired, so the advice is a real board's (pins, wires, gpioinfo).
    ///   - wrap: puts a test double around the simulated devices (a failing bus, a stuck line ...).
    init(board: Board = BoardLoader.builtInSimulated, quick: Bool = false, timeout: Duration = .seconds(15), wired: Bool = false,
         wrap: ((SimulatedBoardDevices) -> any BoardDevices)? = nil) {
        var logger = Logger(label: "selftest-tests")
        logger.logLevel = .critical
        simulated = SimulatedBoardDevices(board: board, loop: loop, sockets: UnixLocalSockets(), logger: logger)
        devices = wrap?(simulated) ?? (wired ? AlteredDevices(simulated) as any BoardDevices : simulated)
        var options = SelfTestOptions()
        options.quick = quick
        options.stepTimeout = timeout
        let box = LineBox()
        sequence = SelfTestSequence(board: board, devices: devices, loop: loop, fonts: Self.fonts, options: options) { box.lines.append($0) }
        self.box = box
    }

    private final class LineBox { var lines: [String] = [] }
    private let box: LineBox
    /// Everything the terminal got so far.
    var output: String { box.lines.joined(separator: "\n") }

    func start() {
        sequence.start()
        loop.runDeferred()
    }

    /// A press of 80 ms and 80 ms after the release, as the harness's `press`.
    func press(_ role: ButtonRole) {
        #expect(simulated.setButton(role, active: true))
        loop.advance(by: .milliseconds(80))
        #expect(simulated.setButton(role, active: false))
        loop.advance(by: .milliseconds(80))
    }

    /// Presses the expected button of the step under way (or answers yes), and waits for the next step.
    func answerYesOrPress() {
        switch sequence.step {
        case .display, .motor: press(.positive)
        case .button(let role):
            press(role)
            loop.advance(by: sequence.options.feedbackPause)
        case nil: Issue.record("no step under way")
        }
    }

    /// What the emulated panel shows (the driver's bytes, decoded).
    var glass: MonoImage { simulated.panelImage()! }

    var motorOn: Bool { simulated.motorLine?.isActive ?? false }

    /// The built-in simulated board with another panel geometry / controller.
    static func board(controller: ControllerFamily = .ssd1306, height: Int = 64, columnOffset: Int? = nil,
                      withoutMotor: Bool = false, buttons: [ButtonRole]? = nil) -> Board {
        var b = BoardLoader.builtInSimulated
        b.display.controller = controller
        b.display.height = height
        b.display.columnOffset = columnOffset ?? (controller == .sh1106 ? 2 : 0)
        if withoutMotor { b.motor = nil }
        if let buttons { b.buttons = b.buttons.filter { buttons.contains($0.role) } }
        return b
    }
}

/// The simulated devices with one thing changed: the display's transport,
/// a button line, or the motor line; and they say they are wired (a real
/// board on /dev/i2c-1), so the self-test's advice is about the wiring.
final class AlteredDevices: BoardDevices {
    let base: SimulatedBoardDevices
    var display: ((DisplayWiring) throws(HALError) -> any I2CTransport)?
    var button: ((ButtonWiring) throws(HALError) -> (any ButtonLine)?)?

    init(_ base: SimulatedBoardDevices) { self.base = base }

    var hardwareNote: String? { base.hardwareNote }
    var displayLocation: String { "/dev/i2c-1" }
    var isWired: Bool { true }
    func preflight() throws(WristCoreFailure) {}
    func openDisplay(_ wiring: DisplayWiring) throws(HALError) -> any I2CTransport {
        if let display { return try display(wiring) }
        return try base.openDisplay(wiring)
    }
    func openButton(_ wiring: ButtonWiring, debounce: Duration) throws(HALError) -> any ButtonLine {
        if let button, let line = try button(wiring) { return line }
        return try base.openButton(wiring, debounce: debounce)
    }
    func openMotor(_ wiring: MotorWiring) throws(HALError) -> any MotorLine { try base.openMotor(wiring) }
    func openBattery(_ wiring: BatteryWiring) throws(HALError) -> any BatteryGauge { try base.openBattery(wiring) }
    func setBattery(percent: Int, charging: Bool) -> Bool { base.setBattery(percent: percent, charging: charging) }
    func startPhoneLink(_ handlers: PhoneLinkHandlers) throws(WristCoreFailure) {}
    func stopPhoneLink() {}
    func setButton(_ role: ButtonRole, active: Bool) -> Bool { base.setButton(role, active: active) }
    func panelImage() -> MonoImage? { base.panelImage() }
}

extension Golden {
    /// Compares a picture with `EndToEnd/Golden/<file>` (WRISTCORE_UPDATE_GOLDEN=1 writes it).
    /// With WRISTCORE_SELFTEST_PNG=<dir> each picture is also written there as a PNG (scale 4), for docs/selftest/.
    static func compare(image: MonoImage, file: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let dir = ProcessInfo.processInfo.environment["WRISTCORE_SELFTEST_PNG"] {
            let name = file.replacingOccurrences(of: ".pbm", with: ".png")
            try? Data(image.png(scale: 4)).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        do { try compare(pbm: Array(image.pbmPlain().utf8), file: file, sourceLocation: sourceLocation) } catch {
            Issue.record("\(file): \(error)", sourceLocation: sourceLocation)
        }
    }
}

