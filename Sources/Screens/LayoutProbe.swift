import Graphics

/// A check-up frame for tests (issue 27: no text under a button label).
///
/// While `ScreenRenderer.layoutProbe` is set, `render` draws the screen's
/// content only: each label box is recorded here instead of drawn, and no
/// clip narrows the drawing, so the framebuffer holds every pixel the
/// content meant to draw (a line cut at the edge of its area shows whole).
/// A content pixel inside a recorded box is text the label would cover.
/// The watch never sets it; then nothing is recorded and nothing allocates.
public final class LayoutProbe {
    /// The label boxes of the last frame, in framebuffer pixels.
    public private(set) var labelBoxes: [Rect] = []

    public init() {}

    func startFrame() { labelBoxes.removeAll(keepingCapacity: true) }

    func recordLabel(_ box: Rect) { labelBoxes.append(box) }
}
