import Graphics

/// The Do Not Disturb menu's entries, in the order the buttons move through them.
public enum DoNotDisturbMenu {
    public enum Entry: Int, CaseIterable, Sendable {
        case forOneHour, untilTurnedOff, off
    }

    public static let entryCount = Entry.allCases.count

    static func label(_ e: Entry) -> StaticString {
        switch e {
        case .forOneHour: "For 1 hour"
        case .untilTurnedOff: "Until I turn it off"
        case .off: "Off"
        }
    }
}

extension ScreenRenderer {
    static let doNotDisturbTitle: StaticString = "Do Not Disturb"

    /// 128x64: the status bar, the title, then the three entries, the
    /// selected one inverted. 128x32: the three entries only.
    func drawDoNotDisturbMenu(selected: Int, status: StatusInfo, into fb: Framebuffer) {
        var top = 1
        var rowHeight = 10
        if !isCompact {
            drawStatusBar(status, into: fb)
            line(fb, Self.doNotDisturbTitle, fonts.small, x: 0, baseline: Self.statusBarHeight + 10, maxWidth: width, alignment: .center)
            top = Self.statusBarHeight + 13
            rowHeight = (height - top) / DoNotDisturbMenu.entryCount
        }
        let sel = min(max(selected, 0), DoNotDisturbMenu.entryCount - 1)
        for entry in DoNotDisturbMenu.Entry.allCases {
            let y = top + entry.rawValue * rowHeight
            let row = Rect(x: 0, y: y, width: width, height: rowHeight)
            let chain = isCompact ? fonts.small : fonts.body
            line(fb, DoNotDisturbMenu.label(entry), chain, x: 3, baseline: y + rowHeight - 2, maxWidth: width - 6)
            if entry.rawValue == sel { fill(fb, row, .invert) }
        }
    }
}
