extension MonoImage {
    /// The picture with Unicode half blocks: each character cell shows two
    /// pixel rows (▀ ▄ █ or space), framed by a border.
    public func terminalString(border: Bool = true) -> String {
        var s = ""
        if border { s += "┌" + String(repeating: "─", count: width) + "┐\n" }
        var y = 0
        while y < height {
            if border { s += "│" }
            for x in 0..<width {
                let top = self[x, y]
                let bottom = y + 1 < height ? self[x, y + 1] : false
                switch (top, bottom) {
                case (false, false): s += " "
                case (true, false): s += "▀"
                case (false, true): s += "▄"
                case (true, true): s += "█"
                }
            }
            if border { s += "│" }
            s += "\n"
            y += 2
        }
        if border { s += "└" + String(repeating: "─", count: width) + "┘\n" }
        return s
    }
}
