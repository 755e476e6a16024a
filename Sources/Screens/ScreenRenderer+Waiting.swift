import Graphics

extension ScreenRenderer {
    static let waitingTitle: StaticString = "Waiting for phone"
    static let waitingHint: StaticString = "Connect to"

    /// No phone: the status bar (Bluetooth state), "Waiting for phone", and
    /// the name the phone lists in its Bluetooth settings.
    func drawWaiting(_ status: StatusInfo, into fb: Framebuffer) {
        drawStatusBar(status, into: fb)
        if isCompact {
            line(fb, Self.waitingTitle, fonts.small, x: 0, baseline: 20, maxWidth: width, alignment: .center)
            line(fb, nameBuffer.bytes, fonts.small, x: 0, baseline: 30, maxWidth: width, alignment: .center)
            return
        }
        line(fb, Self.waitingTitle, fonts.body, x: 0, baseline: 29, maxWidth: width, alignment: .center)
        line(fb, Self.waitingHint, fonts.small, x: 0, baseline: 45, maxWidth: width, alignment: .center)
        line(fb, nameBuffer.bytes, fonts.body, x: 0, baseline: 59, maxWidth: width, alignment: .center)
    }
}
