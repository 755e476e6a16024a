import Graphics

extension ScreenRenderer {
    static let pairingTitle: StaticString = "Pairing code"
    static let confirmLabel: StaticString = "Confirm"
    static let rejectLabel: StaticString = "Reject"

    /// Numeric comparison: the six-digit passkey (zero-padded, as "012 345")
    /// in the large font, "Confirm" over the positive button and "Reject"
    /// over the negative one. No status bar.
    func drawPairing(passkey: UInt32, into fb: Framebuffer) {
        let content = drawButtonLabels(positive: Self.confirmLabel.rawBytes, negative: Self.rejectLabel.rawBytes, into: fb)
        var top = content.top
        if !isCompact && content.bottom - content.top >= 36 {
            line(fb, Self.pairingTitle, fonts.small, x: 0, baseline: top + 9, maxWidth: width, alignment: .center)
            top += 12
        }
        let code = Int(passkey % 1_000_000)
        scratch.clear().append(decimal: code / 1000, width: 3).append(" ").append(decimal: code % 1000, width: 3)
        // Centre the digits' ink in the rows left.
        let inkHeight = digitInkTop - digitInkBottom + 1
        let inkY = top + max(0, (content.bottom - top - inkHeight) / 2)
        line(fb, scratch.bytes, fonts.large, x: 0, baseline: inkY + digitInkTop, maxWidth: width, alignment: .center)
    }
}
