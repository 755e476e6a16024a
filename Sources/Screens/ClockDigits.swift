import Graphics

/// The idle clock's digits: seven-segment figures drawn from rectangles,
/// sized for the bus. A minute tick rewrites only the digits that changed,
/// and each digit's cell is `width` columns of at most 3 display pages
/// (`height` rows placed inside them), so the usual tick (one digit) is at
/// most 3 x 9 = 27 data bytes: with the window commands, 40 bytes on the
/// bus. Segments (the usual letters):
///
///      aaaaaaa
///     f       b
///     f       b
///      ggggggg
///     e       c
///     e       c
///      ddddddd
struct ClockDigits {
    /// Columns of a digit.
    let width: Int
    /// Rows of a digit.
    let height: Int
    /// Segment thickness.
    let stroke: Int
    /// Columns between two digits.
    let gap: Int
    /// Columns of the colon's dots.
    let colonWidth: Int

    /// The idle clock's: 9 x 22.
    static let idle = ClockDigits(width: 9, height: 22, stroke: 3, gap: 3, colonWidth: 3)

    /// Segments lit for 0...9 (bit 0 = a ... bit 6 = g).
    static let segments: [UInt8] = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F]
    /// Segment g alone: the time is unknown.
    static let dash: UInt8 = 0x40

    /// "HH:MM": four digits, the colon between the pairs with a gap on each side.
    var timeWidth: Int { 4 * width + 4 * gap + colonWidth }

    /// Where the i-th digit of "HH:MM" starts, from the time's left edge
    /// (fixed cells: the time never moves as digits change).
    func digitX(_ i: Int) -> Int {
        i < 2 ? i * (width + gap) : 2 * (width + gap) + colonWidth + gap + (i - 2) * (width + gap)
    }

    /// The rectangles of the lit segments of `mask`, relative to the digit's
    /// top-left corner. Horizontal segments stop a column short of each side
    /// (rounded corners); the middle one is centred.
    func forEachRect(_ mask: UInt8, _ body: (Rect) -> Void) {
        let w = width, h = height, t = stroke
        let half = h / 2
        let inner = w - 2
        if mask & 0x01 != 0 { body(Rect(x: 1, y: 0, width: inner, height: t)) }                      // a
        if mask & 0x02 != 0 { body(Rect(x: w - t, y: 1, width: t, height: half - 1)) }               // b
        if mask & 0x04 != 0 { body(Rect(x: w - t, y: half, width: t, height: h - 1 - half)) }        // c
        if mask & 0x08 != 0 { body(Rect(x: 1, y: h - t, width: inner, height: t)) }                  // d
        if mask & 0x10 != 0 { body(Rect(x: 0, y: half, width: t, height: h - 1 - half)) }            // e
        if mask & 0x20 != 0 { body(Rect(x: 0, y: 1, width: t, height: half - 1)) }                   // f
        if mask & 0x40 != 0 { body(Rect(x: 1, y: half - t / 2, width: inner, height: t)) }           // g
    }

    /// The colon's two dots, relative to the time's top-left corner.
    func forEachColonDot(_ body: (Rect) -> Void) {
        let x = 2 * (width + gap)
        let third = height / 3
        body(Rect(x: x, y: third - stroke / 2, width: colonWidth, height: stroke))
        body(Rect(x: x, y: height - third - stroke / 2, width: colonWidth, height: stroke))
    }
}
