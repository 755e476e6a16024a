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

        /// The best style that fits `columns` x `rows` (leaving `reservedRows`
        /// for the legend); ASCII when the terminal is not UTF-8.
        public static func choose(width: Int, height: Int, columns: Int, rows: Int, reservedRows: Int, utf8: Bool) -> Style {
            guard utf8 else { return .ascii }
            if width + 2 <= columns && (height + 1) / 2 + 2 + reservedRows <= rows { return .halfBlocks }
            return .braille
        }
    }

    /// The image framed by a border, one string per line.
    public static func lines(_ image: MonoImage, style: Style) -> [String] {
        let (cw, ch) = style == .halfBlocks ? (1, 2) : (2, 4)
        let columns = (image.width + cw - 1) / cw
        let rows = (image.height + ch - 1) / ch
        let (h, v, tl, tr, bl, br) = style == .ascii ? ("-", "|", "+", "+", "+", "+") : ("─", "│", "┌", "┐", "└", "┘")
        var out = [tl + String(repeating: h, count: columns) + tr]
        func lit(_ x: Int, _ y: Int) -> Bool { x < image.width && y < image.height && image[x, y] }
        for row in 0..<rows {
            var line = v
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
            out.append(line + v)
        }
        out.append(bl + String(repeating: h, count: columns) + br)
        return out
    }
}
