import Graphics

extension ScreenRenderer {
    /// Where the call and pairing screens put their content so that no label
    /// covers it: the rows between the labels when at least `rows` are
    /// left, else (a short panel with one button at a top corner and one at
    /// a bottom corner: 6 rows on 128x32) the widest rectangle beside the
    /// boxes that is `rows` tall: the full-height column between the left
    /// and the right boxes, or the part of the panel beside the top boxes
    /// (above the bottom labels) or beside the bottom ones.
    /// Labels are each at most half the panel wide (`drawButtonLabels`
    /// without sharing).
    func labelFreeArea(positive: UnsafeRawBufferPointer, negative: UnsafeRawBufferPointer, rows: Int) -> Rect {
        let bands = labelBands(positive: positive, negative: negative)
        let between = Rect(x: 0, y: bands.top, width: width, height: bands.bottom - bands.top)
        if between.height >= rows { return between }
        var best = between
        func consider(_ columns: (x: Int, width: Int), y: Int, height h: Int) {
            if h >= rows && (best.height < rows || columns.width > best.width) {
                best = Rect(x: columns.x, y: y, width: columns.width, height: h)
            }
        }
        consider(freeColumns(positive, negative, top: true, bottom: true), y: 0, height: height)
        consider(freeColumns(positive, negative, top: true, bottom: false), y: 0, height: bands.bottom)
        consider(freeColumns(positive, negative, top: false, bottom: true), y: bands.top, height: height - bands.top)
        return best
    }

    /// The columns between the boxes at the left and those at the right,
    /// 2 px from each, counting the top boxes, the bottom ones or both.
    private func freeColumns(_ positive: UnsafeRawBufferPointer, _ negative: UnsafeRawBufferPointer,
                             top: Bool, bottom: Bool) -> (x: Int, width: Int) {
        let gap = 2
        var left = 0, right = width
        func exclude(_ text: UnsafeRawBufferPointer, _ corner: ButtonCorner) {
            guard !text.isEmpty, corner.isTop ? top : bottom else { return }
            let box = labelBox(text, at: corner, maxWidth: width / 2 - 1)
            if corner.isLeft { left = max(left, box.maxX + gap) } else { right = min(right, box.x - gap) }
        }
        exclude(positive, placement.positive)
        exclude(negative, placement.negative)
        return (left, max(0, right - left))
    }
}
