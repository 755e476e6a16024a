import Graphics

extension ScreenRenderer {
    /// Height of a button label box.
    var labelHeight: Int { 12 }

    /// Draws the positive label (a filled box, the action that goes ahead)
    /// and the negative one (an outlined box) in the corners of their
    /// buttons. Returns the rows left between the labels for the content.
    @discardableResult
    func drawButtonLabels(positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer,
                          into fb: Framebuffer) -> (top: Int, bottom: Int) {
        drawLabel(negative, at: placement.negative, filled: false, into: fb)
        drawLabel(positive, at: placement.positive, filled: true, into: fb)
        let corners = (placement.positive, placement.negative)
        let anyTop = (!positive.isEmpty && corners.0.isTop) || (!negative.isEmpty && corners.1.isTop)
        let anyBottom = (!positive.isEmpty && !corners.0.isTop) || (!negative.isEmpty && !corners.1.isTop)
        return (anyTop ? labelHeight + 1 : 0, anyBottom ? height - labelHeight - 1 : height)
    }

    /// One label box in a corner, at most half the width.
    func drawLabel(_ text: UnsafeRawBufferPointer, at corner: ButtonCorner, filled: Bool, into fb: Framebuffer) {
        guard !text.isEmpty else { return }
        let pad = 3
        let boxWidth = min(width / 2 - 1, measure(text, fonts.small) + 2 * pad)
        let box = Rect(x: corner.isLeft ? 0 : width - boxWidth, y: corner.isTop ? 0 : height - labelHeight,
                       width: boxWidth, height: labelHeight)
        if filled { fill(fb, box) } else { stroke(fb, box) }
        clipped(fb, box.insetBy(1)) {
            line(fb, text, fonts.small, x: box.x + pad, baseline: box.y + 9, maxWidth: boxWidth - 2 * pad,
                 alignment: .center, ink: filled ? .off : .on)
        }
    }
}
