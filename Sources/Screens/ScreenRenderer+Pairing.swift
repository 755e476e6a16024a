import Graphics

extension ScreenRenderer {
    static let pairingTitle: StaticString = "Pairing code"
    static let confirmLabel: StaticString = "Confirm"
    static let rejectLabel: StaticString = "Reject"

    /// Numeric comparison: the six-digit passkey (zero-padded, as "012 345")
    /// in the large font, "Confirm" over the positive button and "Reject"
    /// over the negative one. No status bar.
    func drawPairing(passkey: UInt32, into fb: Framebuffer) {
        let confirm = Self.confirmLabel.rawBytes, reject = Self.rejectLabel.rawBytes
        drawButtonLabels(positive: confirm, negative: reject, into: fb)
        let inkHeight = digitInkTop - digitInkBottom + 1
        // Between the labels, or beside them when they leave too few rows.
        var area = labelFreeArea(positive: confirm, negative: reject, rows: inkHeight)
        if !isCompact && area.height >= 36 {
            line(fb, Self.pairingTitle, fonts.small, x: area.x, baseline: area.y + 9, maxWidth: area.width,
                 alignment: .center)
            area.y += 12
            area.height -= 12
        }
        let code = Int(passkey % 1_000_000)
        scratch.clear().append(decimal: code / 1000, width: 3).append(" ").append(decimal: code % 1000, width: 3)
        // Centre the digits' ink in the rows left.
        let inkY = area.y + max(0, (area.height - inkHeight) / 2)
        line(fb, scratch.bytes, fonts.large, x: area.x, baseline: inkY + digitInkTop, maxWidth: area.width,
             alignment: .center)
    }
}
