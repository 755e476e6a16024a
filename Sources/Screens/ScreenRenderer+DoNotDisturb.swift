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

    func drawDoNotDisturbMenu(selected: Int, status: StatusInfo, into fb: Framebuffer) {
        drawMenu(Self.doNotDisturbTitle, count: DoNotDisturbMenu.entryCount, selected: selected, status: status, into: fb) {
            DoNotDisturbMenu.label(DoNotDisturbMenu.Entry(rawValue: $0) ?? .off)
        }
    }

    /// A menu: 128x64: the status bar, the title, then three entries at a
    /// time, the selected one inverted (the window follows it). 128x32: the
    /// entries only.
    func drawMenu(_ title: StaticString, count: Int, selected: Int, status: StatusInfo, into fb: Framebuffer,
                  label: (Int) -> StaticString) {
        drawMenu(title, count: count, selected: selected, status: status, into: fb) { i, draw in draw(label(i).rawBytes) }
    }

    /// The same, with each entry's text handed to `draw` by `label`.
    func drawMenu(_ title: StaticString, count: Int, selected: Int, status: StatusInfo, into fb: Framebuffer,
                  label: (Int, (UnsafeRawBufferPointer) -> Void) -> Void) {
        guard count > 0 else { return }
        let visible = 3
        var top = 1
        var rowHeight = 10
        if !isCompact {
            drawStatusBar(status, into: fb)
            line(fb, title, fonts.small, x: 0, baseline: Self.statusBarHeight + 10, maxWidth: width, alignment: .center)
            top = Self.statusBarHeight + 13
            rowHeight = (height - top) / visible
        }
        let sel = min(max(selected, 0), count - 1)
        let first = max(0, min(sel - 1, count - visible))
        let chain = isCompact ? fonts.small : fonts.body
        for entry in first..<min(count, first + visible) {
            let y = top + (entry - first) * rowHeight
            label(entry) { text in line(fb, text, chain, x: 3, baseline: y + rowHeight - 2, maxWidth: width - 6) }
            if entry == sel { fill(fb, Rect(x: 0, y: y, width: width, height: rowHeight), .invert) }
        }
    }
}
