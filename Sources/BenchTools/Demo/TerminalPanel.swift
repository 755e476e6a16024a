import Graphics

/// Draws the panel's pixels as terminal text, at the panel's real aspect
/// (terminal cells are about twice as tall as wide):
/// - half blocks (▀ ▄ █): 1x2 pixels a cell, 128x64 → 128 columns x 32 rows;
/// - braille (⠁…⣿): 2x4 pixels a cell, 128x64 → 64 x 16, fits 80x24 over SSH;
/// - ASCII: 2x4 pixels a cell shaded by how many are lit, for terminals
///   without UTF-8.
public enum TerminalPanel {
    public enum Style: String, Sendable, CaseIterable {
        case halfBlocks = "blocks", braille, ascii

        /// Pixels per cell, across and down.
        var cell: (columns: Int, rows: Int) { self == .halfBlocks ? (1, 2) : (2, 4) }
    }

    /// Columns and rows of a terminal.
    public struct Size: Equatable, Sendable, CustomStringConvertible {
        public var columns: Int
        public var rows: Int
        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }
        public var description: String { "\(columns)x\(rows)" }
    }

    /// How the panel and the lines under it share a terminal.
    public struct Layout: Equatable, Sendable {
        public var style: Style
        /// A border left and right of the panel (when the columns allow).
        public var sides: Bool
        /// A border above and below (when the rows allow).
        public var rules: Bool
        /// Set when a sharper style (half blocks) would fit a terminal this
        /// big: the screen says "enlarge the terminal to ..." under the panel.
        public var sharperAt: Size?
        /// Rows left under the panel (and the enlarge line) for the caller's lines.
        public var footerRows: Int
        /// Plain ASCII everywhere: the panel, its border and every line under it.
        public var ascii: Bool

        /// The panel's rows on screen, its border included.
        public func panelRows(height: Int) -> Int {
            (height + style.cell.rows - 1) / style.cell.rows + (rules ? 2 : 0)
        }
    }

    /// Chooses the style and the border for a `width` x `height` panel in a
    /// `terminal`, keeping at least `footerRows` rows under it:
    /// - half blocks when `width` columns and half the panel's rows fit with
    ///   the footer (128x34 for 128x64 with a two-row footer): the border
    ///   goes first, left and right when the columns are short, above and
    ///   below when the rows are;
    /// - else braille, with one more row under it saying how big the
    ///   terminal would have to be for half blocks;
    /// - ASCII when the terminal is not UTF-8; `forced` picks the style
    ///   instead, with no enlarge line.
    ///
    /// The lines around the panel are plain ASCII (`Layout.ascii`) when the
    /// terminal is not UTF-8 or the style is ASCII.
    public static func layout(width: Int, height: Int, terminal: Size, footerRows: Int, utf8: Bool, forced: Style? = nil) -> Layout {
        let ascii = !utf8 || forced == .ascii
        var style: Style
        var sharperAt: Size?
        let blocks = Size(columns: width, rows: (height + 1) / 2 + footerRows)
        if let forced {
            style = forced
        } else if !utf8 {
            style = .ascii
        } else if terminal.columns >= blocks.columns && terminal.rows >= blocks.rows {
            style = .halfBlocks
        } else {
            style = .braille
            sharperAt = blocks
        }
        let cell = style.cell
        let columns = (width + cell.columns - 1) / cell.columns
        let rows = (height + cell.rows - 1) / cell.rows
        let under = footerRows + (sharperAt == nil ? 0 : 1)
        let sides = terminal.columns >= columns + 2
        let rules = terminal.rows >= rows + 2 + under
        let left = terminal.rows - rows - (rules ? 2 : 0) - (sharperAt == nil ? 0 : 1)
        return Layout(style: style, sides: sides, rules: rules, sharperAt: sharperAt, footerRows: max(footerRows, left), ascii: ascii)
    }

    /// The line under a panel drawn in braille when half blocks need a bigger terminal.
    public static func enlargeLine(_ size: Size) -> String {
        "enlarge the terminal to \(size) for a sharper panel"
    }

    /// The image (framed by a border all round), one string per line.
    public static func lines(_ image: MonoImage, style: Style) -> [String] {
        lines(image, layout: Layout(style: style, sides: true, rules: true, sharperAt: nil, footerRows: 0, ascii: style == .ascii))
    }

    /// The image as `layout` draws it: its border where the layout has one,
    /// then the enlarge line when there is one.
    public static func lines(_ image: MonoImage, layout: Layout) -> [String] {
        let style = layout.style
        let (cw, ch) = style.cell
        let columns = (image.width + cw - 1) / cw
        let rows = (image.height + ch - 1) / ch
        let (h, v, tl, tr, bl, br) = style == .ascii || layout.ascii ? ("-", "|", "+", "+", "+", "+") : ("─", "│", "┌", "┐", "└", "┘")
        let side = layout.sides ? v : ""
        var out: [String] = []
        let rule = String(repeating: h, count: columns)
        if layout.rules { out.append(layout.sides ? tl + rule + tr : rule) }
        func lit(_ x: Int, _ y: Int) -> Bool { x < image.width && y < image.height && image[x, y] }
        for row in 0..<rows {
            var line = side
            for col in 0..<columns {
                let x = col * cw
                let y = row * ch
                switch style {
                case .halfBlocks:
                    switch (lit(x, y), lit(x, y + 1)) {
                    case (true, true): line += "█"
                    case (true, false): line += "▀"
                    case (false, true): line += "▄"
                    case (false, false): line += " "
                    }
                case .braille:
                    // Braille dot order: 1 2 3 7 down the left column, 4 5 6 8 down the right.
                    let bits = [(0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80)]
                    var code = 0
                    for (dx, dy, bit) in bits where lit(x + dx, y + dy) { code |= bit }
                    line += code == 0 ? " " : String(UnicodeScalar(0x2800 + code)!)
                case .ascii:
                    var n = 0
                    for dy in 0..<4 { for dx in 0..<2 where lit(x + dx, y + dy) { n += 1 } }
                    line += [" ", ".", ":", "+", "#"][min(4, (n + 1) / 2)]
                }
            }
            out.append(line + side)
        }
        if layout.rules { out.append(layout.sides ? bl + rule + br : rule) }
        if let size = layout.sharperAt { out.append(enlargeLine(size)) }
        return out
    }
}
