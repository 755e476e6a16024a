import Graphics

extension ScreenRenderer {
    /// Height of a button label box.
    var labelHeight: Int { 12 }

    /// Draws the positive label (a filled box, the action that goes ahead)
    /// and the negative one (an outlined box) in the corners of their
    /// buttons, each at most half the width; with `sharing`, a label may
    /// take what a short one on the same edge leaves. Returns the rows left
    /// between the labels for the content.
    @discardableResult
    func drawButtonLabels(positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer, sharing: Bool = false,
                          into fb: Framebuffer) -> (top: Int, bottom: Int) {
        let half = width / 2 - 1
        let widths = sharing ? labelWidths(positive: positive, negative: negative) : (positive: half, negative: half)
        drawLabel(negative, at: placement.negative, filled: false, maxWidth: widths.negative, into: fb)
        drawLabel(positive, at: placement.positive, filled: true, maxWidth: widths.positive, into: fb)
        return labelBands(positive: positive, negative: negative)
    }

    /// The widest each box may be: half the panel, or what a short label
    /// on the same edge leaves ("Mark as Read" beside "Clear").
    func labelWidths(positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer)
        -> (positive: Int, negative: Int) {
        let half = width / 2 - 1
        guard !positive.isEmpty, !negative.isEmpty else { return (width, width) }
        guard placement.positive.isTop == placement.negative.isTop,
              placement.positive.isLeft != placement.negative.isLeft else { return (half, half) }
        let p = labelNaturalWidth(positive), n = labelNaturalWidth(negative)
        let gap = 2
        return (n < half ? width - gap - n : half, p < half ? width - gap - p : half)
    }

    static let labelPad = 3

    /// A box that fits its label.
    func labelNaturalWidth(_ text: UnsafeRawBufferPointer) -> Int { measure(text, fonts.small) + 2 * Self.labelPad }

    /// The rows the labels leave for the content, without drawing them:
    /// `top` is the first free row (0 when no label is at the top), `bottom`
    /// the end of the free rows (`height` when none is at the bottom).
    func labelBands(positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer) -> (top: Int, bottom: Int) {
        let corners = (placement.positive, placement.negative)
        let anyTop = (!positive.isEmpty && corners.0.isTop) || (!negative.isEmpty && corners.1.isTop)
        let anyBottom = (!positive.isEmpty && !corners.0.isTop) || (!negative.isEmpty && !corners.1.isTop)
        return (anyTop ? labelHeight + 1 : 0, anyBottom ? height - labelHeight - 1 : height)
    }

    /// One label box in a corner, at most `maxWidth` wide (cut with an
    /// ellipsis beyond).
    func drawLabel(_ text: UnsafeRawBufferPointer, at corner: ButtonCorner, filled: Bool, maxWidth: Int,
                   into fb: Framebuffer) {
        guard !text.isEmpty else { return }
        let pad = Self.labelPad
        let box = labelBox(text, at: corner, maxWidth: maxWidth)
        let boxWidth = box.width
        if let probe = layoutProbe {
            return probe.recordLabel(Rect(x: box.x, y: box.y, width: box.width, height: box.height))
        }
        if filled { fill(fb, box) } else { stroke(fb, box) }
        clipped(fb, box.insetBy(1)) {
            line(fb, text, fonts.small, x: box.x + pad, baseline: box.y + 9, maxWidth: boxWidth - 2 * pad,
                 alignment: .center, ink: filled ? .off : .on)
        }
    }

    /// The box of a label in its corner, at most `maxWidth` wide.
    func labelBox(_ text: UnsafeRawBufferPointer, at corner: ButtonCorner, maxWidth: Int) -> Rect {
        let boxWidth = min(maxWidth, labelNaturalWidth(text))
        return Rect(x: corner.isLeft ? 0 : width - boxWidth, y: corner.isTop ? 0 : height - labelHeight,
                    width: boxWidth, height: labelHeight)
    }

    /// A one-line notice in the small font, inverted, in the band of `band`
    /// rows from `top`, across the panel or the `columns` given (the call's
    /// "Could not answer", the detail's "Could not clear").
    func drawNoticeBand(_ text: UnsafeRawBufferPointer, top: Int, height band: Int,
                        columns: (x: Int, width: Int)? = nil, into fb: Framebuffer) {
        let h = 11
        let y = top + max(0, (band - h) / 2)
        let c = columns ?? (0, width)
        fill(fb, Rect(x: c.x, y: y, width: c.width, height: h))
        line(fb, text, fonts.small, x: c.x, baseline: y + 9, maxWidth: c.width, alignment: .center, ink: .off)
    }
}
