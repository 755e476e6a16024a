import BoardConfig
import Graphics
import Screens
import TextFormat

/// What the self-test draws on the panel. The display pattern reveals a wrong
/// controller type, column offset or height at a glance:
///
/// - a 1-pixel frame exactly on the panel's edges, with the left and right
///   edges two pixels thick (panel columns 0-1 and 126-127): an SH1106
///   driven as an SSD1306 loses the left edge and shows 2 columns of noise at
///   the right, the other way round loses the right edge;
/// - ticks on both sides at the middle rows (31/32 on a 64-row panel): a
///   64-row picture on a 32-row panel shows them on its bottom edge, and no
///   bottom line (row 63);
/// - text saying what the wearer should see, with "Yes" and "No" over the
///   positive and negative buttons.
///
/// The frame and ticks are drawn in panel coordinates (whatever the board's
/// rotation), the text in the wearer's.
final class SelfTestPatterns {
    let fonts: ScreenFonts
    /// Where the positive (Yes) and negative (No) buttons sit.
    let yesCorner: ButtonCorner
    let noCorner: ButtonCorner
    private let layout = TextLayout(capacity: 8)

    init(fonts: ScreenFonts, yesCorner: ButtonCorner = .bottomRight, noCorner: ButtonCorner = .bottomLeft) {
        self.fonts = fonts
        self.yesCorner = yesCorner
        self.noCorner = noCorner
    }

    /// What the display pattern's text asks.
    enum DisplayCaption {
        /// The interactive question, answered with the buttons.
        case question
        /// `--quick`: nobody answers.
        case quick
    }

    /// Ticks at the panel's middle rows, this long from each side edge.
    static let tickLength = 8

    // MARK: the display pattern

    func drawDisplayPattern(into fb: Framebuffer, caption: DisplayCaption) {
        let rotation = fb.rotation
        fb.rotation = .r0
        fb.clear()
        let w = fb.panelWidth
        let h = fb.panelHeight
        fb.strokeRect(Rect(x: 0, y: 0, width: w, height: h))
        fb.fill(Rect(x: 0, y: 0, width: 2, height: h))
        fb.fill(Rect(x: w - 2, y: 0, width: 2, height: h))
        let mid = h / 2 - 1
        fb.fill(Rect(x: 2, y: mid, width: Self.tickLength, height: 2))
        fb.fill(Rect(x: w - 2 - Self.tickLength, y: mid, width: Self.tickLength, height: 2))
        fb.rotation = rotation

        let compact = fb.height < 48
        switch caption {
        case .question:
            title(compact ? "Display 1/3" : "Display test", into: fb, compact: compact)
            // Kept clear of the ticks, centred on them.
            block(compact ? "Edges + ticks OK?" : "All 4 edges and ticks mid-height?", into: fb, inset: 4 + Self.tickLength)
            answerLabels(into: fb)
        case .quick:
            title(compact ? "Quick check" : "Quick self-test", into: fb, compact: compact)
            block("All 4 edges, ticks mid-height", into: fb, inset: 4 + Self.tickLength)
        }
    }

    // MARK: the other steps

    /// What a button step shows after a press.
    enum ButtonFeedback: Equatable {
        case none
        /// The expected button: "✓ POSITIVE".
        case pressed
        /// Another one, with its line.
        case other(ButtonRole, line: String)
    }

    func drawButtonPrompt(into fb: Framebuffer, role: ButtonRole, line: String, number: Int, of count: Int, feedback: ButtonFeedback) {
        fb.clear()
        let compact = fb.height < 48
        let name = role.rawValue.asciiUppercased()
        let w = fb.width
        switch feedback {
        case .pressed:
            title("Button \(number)/\(count)", into: fb, compact: compact)
            block("\(name) pressed", into: fb, inset: 2, font: compact ? fonts.small : fonts.body)
            bottom(line, into: fb)
            fb.invert(Rect(x: 0, y: 0, width: w, height: fb.height))
        case .none, .other:
            title(compact ? "\(number)/\(count) Press \(name)" : "Button \(number)/\(count)", into: fb, compact: compact)
            if compact {
                centredLine(line, y: 11, into: fb)
            } else {
                block("Press \(name)", into: fb, inset: 2, font: fonts.body, centreY: fb.height / 2 - 4)
                centredLine(line, y: fb.height / 2 + 7, into: fb)
            }
            // The other button's line is on the terminal; the panel has room for its name.
            if case .other(let other, _) = feedback {
                bottom("got \(other.rawValue.asciiUppercased()) instead", into: fb)
            }
        }
    }

    func drawMotorPrompt(into fb: Framebuffer) {
        fb.clear()
        let compact = fb.height < 48
        title(compact ? "Motor 3/3" : "Motor test", into: fb, compact: compact)
        block("Felt the pulses?", into: fb, inset: 4)
        answerLabels(into: fb)
    }

    func drawSummary(into fb: Framebuffer, _ summary: SelfTestSummary) {
        fb.clear()
        let compact = fb.height < 48
        if summary.allPassed {
            title("Self-test PASSED", into: fb, compact: compact)
            block("All \(summary.passedCount) steps passed", into: fb, inset: 2)
        } else {
            let failed = summary.results.filter { $0.outcome == .failed || $0.outcome == .notRun }.map { $0.name }
            title(summary.interruption != nil ? "Self-test STOPPED" : "Self-test FAILED", into: fb, compact: compact)
            block("Failed: " + failed.joined(separator: ", "), into: fb, inset: 2, top: compact ? 11 : 15)
            fb.invert(Rect(x: 0, y: 0, width: fb.width, height: compact ? 11 : 13))
        }
    }

    // MARK: text helpers

    private func title(_ text: String, into fb: Framebuffer, compact: Bool) {
        centredLine(text, y: compact ? 1 : 3, into: fb)
    }

    /// One line of the small font, centred, its top at `y`.
    private func centredLine(_ text: String, y: Int, into fb: Framebuffer) {
        let inset = 4
        layout.layout(text, fonts: fonts.small, width: fb.width - 2 * inset, maxLines: 1)
        layout.draw(text, fonts: fonts.small, into: fb, x: inset, y: y, alignment: .center)
    }

    /// Wrapped, centred text: around `centreY` (the middle of the screen by
    /// default), or from `top` down.
    private func block(_ text: String, into fb: Framebuffer, inset: Int, font: FontChain? = nil, centreY: Int? = nil, top: Int? = nil) {
        let chain = font ?? fonts.small
        let width = fb.width - 2 * inset
        let compact = fb.height < 48
        let rows = top.map { fb.height - $0 - 1 } ?? (compact ? fb.height - 22 : fb.height - 28)
        layout.layout(text, fonts: chain, width: width, maxLines: layout.capacity)
        let lines = min(layout.lineCount, layout.linesFitting(in: max(rows, 10)))
        if lines < layout.lineCount { layout.layout(text, fonts: chain, width: width, maxLines: lines) }
        let y = top ?? ((centreY ?? fb.height / 2) - layout.height() / 2)
        layout.draw(text, fonts: chain, into: fb, x: inset, y: y, alignment: .center)
    }

    /// One line at the bottom, centred.
    private func bottom(_ text: String, into fb: Framebuffer) {
        centredLine(text, y: fb.height - 11, into: fb)
    }

    /// "Yes" over the positive button, "No" over the negative one.
    private func answerLabels(into fb: Framebuffer) {
        label("Yes", at: yesCorner, into: fb)
        label("No", at: noCorner, into: fb)
    }

    private func label(_ text: String, at corner: ButtonCorner, into fb: Framebuffer) {
        let inset = 4
        let compact = fb.height < 48
        let width = TextLayout.measure(text, fonts: fonts.small)
        let x: Int
        let y: Int
        switch corner {
        case .topLeft, .bottomLeft: x = inset
        case .topRight, .bottomRight: x = fb.width - inset - width
        }
        switch corner {
        case .topLeft, .topRight: y = compact ? 1 : 3
        case .bottomLeft, .bottomRight: y = fb.height - (compact ? 10 : 12)
        }
        fb.drawText(text, fonts: fonts.small, x: x, y: y)
    }
}
