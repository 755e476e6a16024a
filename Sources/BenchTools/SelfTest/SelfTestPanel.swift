import BoardConfig
import Display
import Graphics
import HAL

/// The board's OLED for the self-test: opened through the board devices,
/// driven by `OLEDDriver` with the board file's controller, column offset,
/// contrast and rotation, exactly as the daemon drives it. The last picture
/// stays on the glass when the test ends (the summary).
final class SelfTestPanel {
    let framebuffer: Framebuffer
    private let driver: any PanelDriver

    /// Opens and initialises the panel; the error says what to fix (a
    /// missing bus: how to enable I2C; a NACK: the wiring and the address).
    init(board: Board, devices: any BoardDevices) throws(SelfTestPanelError) {
        let d = board.display
        guard let spec = ControllerSpec.panel(d.controller, width: d.width, height: d.height) else {
            throw .init(detail: "no controller description for \(d.controller.rawValue) \(d.width)x\(d.height)")
        }
        let transport: any I2CTransport
        do { transport = try devices.openDisplay(d) } catch { throw .init(error) }
        var options = DisplayOptions(contrast: d.contrast, columnOffset: d.columnOffset)
        options.persist = true
        driver = PanelDrivers.make(spec, transport: transport, options: options)
        let rotation = Rotation(rawValue: d.rotation) ?? .r0
        framebuffer = Framebuffer(width: spec.width, height: spec.height, rotation: rotation)
        do { try driver.initialize(rotation: rotation) } catch { throw .init(error) }
    }

    /// Draws with `draw` and sends what changed.
    func show(_ draw: (Framebuffer) -> Void) throws(HALError) {
        draw(framebuffer)
        _ = try driver.flush(framebuffer, full: false)
    }

    /// Leaves the last picture on the glass (`persist`) and stops driving it.
    func close() {
        try? driver.shutdown()
    }
}

/// Why the panel could not be used, with the fix when it is known.
struct SelfTestPanelError: Error {
    var detail: String
    var hint: String?
    init(detail: String, hint: String? = nil) {
        self.detail = detail
        self.hint = hint
    }
    init(_ error: HALError) {
        detail = "\(error.operation): \(error.reason)"
        hint = error.hint
    }
}
