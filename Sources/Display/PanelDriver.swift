import Graphics
import HAL

/// What the watch needs from a display driver: the seam between the app
/// (WatchController, the self-test) and a controller's driver. `OLEDDriver`
/// is the implementation for the SSD1306 / SSD1309 / SH1106 families; a
/// controller with another command set would be another class conforming
/// to this, chosen by `PanelDrivers.make`.
///
/// A class protocol: the watch holds one `any PanelDriver`, which Embedded
/// Swift allows only for class-bound existentials. No overload of a
/// requirement in a protocol extension: a `flush(_:)` beside
/// `flush(_:full:)`, called on `any PanelDriver`, built fine for the host
/// but in Embedded mode called through the wrong witness table (the daemon
/// crashed at its first render), so every caller passes `full:`.
public protocol PanelDriver: AnyObject {
    /// The panel being driven (geometry, addressing).
    var spec: ControllerSpec { get }
    /// The bus the driver writes to (the harness finds an emulated panel through it).
    var transport: any I2CTransport { get }
    /// True while the panel is on (not sleeping).
    var isOn: Bool { get }
    /// Statistics of the last flush, and totals since creation.
    var lastFlush: FlushStats { get }
    var totals: FlushStats { get }

    /// Resets the controller to a known state for `rotation`, panel on, RAM cleared.
    func initialize(rotation: Rotation) throws(HALError)
    func setContrast(_ value: UInt8) throws(HALError)
    func setDisplayOn(_ on: Bool) throws(HALError)
    /// Moves the picture on the glass from the next flush on (burn-in).
    func setShift(_ shift: PanelShift)
    /// Sends what changed in `fb` since the last flush (with `full`, everything).
    @discardableResult
    func flush(_ fb: Framebuffer, full: Bool) throws(HALError) -> FlushStats
    /// Ends the session (the picture kept or cleared as the options say).
    func shutdown() throws(HALError)
}

extension OLEDDriver: PanelDriver {}

/// Makes the driver for a registered panel: the one place that maps a
/// controller to its driver class.
public enum PanelDrivers {
    public static func make(_ spec: ControllerSpec, transport: any I2CTransport,
                            options: DisplayOptions = DisplayOptions()) -> any PanelDriver {
        // Every registered family speaks the SSD1306 command set.
        OLEDDriver(spec: spec, transport: transport, options: options)
    }
}
