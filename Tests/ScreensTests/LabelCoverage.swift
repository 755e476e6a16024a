import Graphics
import Screens
import Testing

/// Issue 27: no screen draws its content (text, icons, bars) under a
/// button label. `Panel.render` runs this after every frame, so every
/// golden picture of this target is checked: the frame is drawn again
/// under a `LayoutProbe` (content only, no clips) and no content pixel may
/// fall in a label box or the 1-px margin around it; on the detail screen,
/// whose body is laid out in lines above the label row, not in the label's
/// rows at all (its box and the blank row beside it, across the panel). A
/// line cut at the edge of its area counts: unclipped, it lands there.
enum LabelCoverage {
    /// The probe's frame: the label boxes and the content pixels they cover.
    struct Report {
        var boxes: [Rect]
        var covered: [(x: Int, y: Int)]
    }

    /// What each box keeps free: the box with its 1-px margin, or its rows
    /// across the panel of `width` x `height` with the blank one on the
    /// content's side (below a box at the top, above one at the bottom).
    static func keptFree(_ box: Rect, rowsAcross: Bool, width: Int, height: Int) -> Rect {
        guard rowsAcross else { return Rect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2) }
        let atTop = box.y + box.height / 2 < height / 2
        return Rect(x: 0, y: atTop ? box.y : box.y - 1, width: width, height: box.height + 1)
    }

    /// Draws once more with a probe on `renderer` (`draw` renders the same
    /// frame into the framebuffer it gets) and reports what is covered.
    static func probe(_ renderer: ScreenRenderer, rowsAcross: Bool, _ draw: (Framebuffer) -> Void) -> Report {
        let probe = LayoutProbe()
        renderer.layoutProbe = probe
        defer { renderer.layoutProbe = nil }
        let fb = Framebuffer(width: renderer.width, height: renderer.height)
        draw(fb)
        return Report(boxes: probe.labelBoxes, covered: covered(MonoImage(fb), by: probe.labelBoxes, rowsAcross: rowsAcross))
    }

    /// The lit pixels of `content` where `boxes` keep free.
    static func covered(_ content: MonoImage, by boxes: [Rect], rowsAcross: Bool) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        let panel = Rect(x: 0, y: 0, width: content.width, height: content.height)
        for box in boxes {
            let r = keptFree(box, rowsAcross: rowsAcross, width: content.width, height: content.height).intersection(panel)
            for y in r.y..<r.maxY { for x in r.x..<r.maxX where content[x, y] { out.append((x, y)) } }
        }
        return out
    }

    static func expectNothingCovered(_ renderer: ScreenRenderer, _ screen: Screen,
                                     sourceLocation: SourceLocation, _ draw: (Framebuffer) -> Void) {
        var isDetail = false
        if case .detail = screen { isDetail = true }
        let report = probe(renderer, rowsAcross: isDetail, draw)
        guard let first = report.covered.first else { return }
        Issue.record("""
            label covers content: \(screen) at \(renderer.width)x\(renderer.height): \(report.covered.count) content \
            pixels where the label boxes \(report.boxes) keep free, the first at (\(first.x),\(first.y))
            """, sourceLocation: sourceLocation)
    }
}
