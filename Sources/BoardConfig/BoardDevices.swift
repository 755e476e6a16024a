import Graphics
import HAL
import TextFormat

/// The devices of one board behind one seam: the display's I2C transport, a
/// line per button, the motor line and the phone link. The composition root
/// chooses the implementation once — Linux devices (i2c-dev, libgpiod,
/// Bluetooth) for a board file, simulated ones (an emulated panel, buttons
/// pushed by the harness, a simulated iPhone) for the sim board and the demo —
/// and nothing above it asks which it got.
///
/// Implementations get the board, the run loop and their options when made;
/// the daemon then opens what the board file lists.
public protocol BoardDevices: AnyObject {
    /// For the start-up log: "simulated hardware"; nil for a real board.
    var hardwareNote: String? { get }
    /// Where the display is, for the start-up log ("/dev/i2c-1", "the emulator").
    var displayLocation: String { get }
    /// True when the devices are real pins and buses, so advice about wires,
    /// `gpioinfo` and `i2cdetect` applies; false on the simulated board,
    /// whose buttons only keys and the harness press (the self-test says so).
    var isWired: Bool { get }

    /// Checks, before anything is opened, that the devices are there, free and
    /// usable with the options given; throws a failure that says how to fix it.
    func preflight() throws(WristCoreFailure)

    /// Opens the display's bus.
    func openDisplay(_ wiring: DisplayWiring) throws(HALError) -> any I2CTransport
    /// Opens one button's line (debounced by the kernel when it can).
    func openButton(_ wiring: ButtonWiring, debounce: Duration) throws(HALError) -> any ButtonLine
    /// Opens the motor's line, inactive.
    func openMotor(_ wiring: MotorWiring) throws(HALError) -> any MotorLine

    /// Opens the watch's battery gauge (the board file's `battery`).
    func openBattery(_ wiring: BatteryWiring) throws(HALError) -> any BatteryGauge
    /// Sets the simulated board's battery (the harness, tests); false on a
    /// real board, whose battery only its charger changes.
    func setBattery(percent: Int, charging: Bool) -> Bool

    /// Starts accepting phone links (advertising on a real board); every
    /// accepted link and what happens to it is reported through `handlers`.
    func startPhoneLink(_ handlers: PhoneLinkHandlers) throws(WristCoreFailure)
    /// Stops accepting links and tears the link machinery down (idempotent).
    func stopPhoneLink()

    /// Changes a button's level in software, as an edge on its line now (the
    /// harness; the demo's keys and scenario). False when the board has no
    /// such button or its line is released.
    func setButton(_ role: ButtonRole, active: Bool) -> Bool

    /// What the glass shows, unrotated, when the devices can tell (the
    /// simulated panel decodes it from the bytes it received); nil on real
    /// hardware, where the framebuffer is the best answer.
    func panelImage() -> MonoImage?
}
