/// How far the driver moves the picture on the glass against OLED burn-in,
/// in the panel's pixels: `x` columns right, `y` rows down (as the viewer
/// holds the module at rotation 0 or 180). Content pushed past an edge is
/// cut and the uncovered edge is dark, as if the picture had been drawn
/// shifted.
///
/// The controller does the vertical part itself: the display start line
/// (0x40 | n) makes it show RAM from another row, so a vertical step is one
/// command byte and RAM is not rewritten. None of the SSD1306, SSD1309 and
/// SH1106 can offset columns: their column window (SSD130x) or column offset
/// (SH1106) only says where bytes land, so a horizontal step means
/// rewriting every lit column. `OLEDDriver` therefore takes a horizontal
/// step only with a flush that rewrites the screen anyway (a screen change),
/// or a full one.
public struct PanelShift: Sendable, Equatable, CustomStringConvertible {
    /// Columns to the right, 0...7.
    public var x: Int
    /// Rows down, 0...7.
    public var y: Int

    public init(x: Int, y: Int) {
        precondition((0...7).contains(x) && (0...7).contains(y), "a panel shift of (\(x), \(y)) is outside 0...7")
        self.x = x
        self.y = y
    }

    public static let zero = PanelShift(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}
