import Graphics

/// The volume bar of Now Playing (`VolumeBar`), on the progress line's
/// rows while it is up: the speaker, a thin outlined bar filled in
/// proportion to the phone's volume, and the level in percent. When the
/// phone has not said its level (Gadgetbridge never does) there is no bar
/// to fill: the speaker and what the press asked for ("Volume up").
/// Numbers go through the scratch buffer: nothing allocates.
extension ScreenRenderer {
    /// The widest level: the bar keeps its length whatever the level.
    static let fullVolume: StaticString = "100%"

    /// Draws the bar with the small font's baseline at `baseline` (where
    /// the progress line's would be); `percent` is the phone's volume.
    func drawVolumeBar(_ bar: VolumeBar, percent: Int8?, baseline: Int, into fb: Framebuffer) {
        let speaker = MediaIcons.speaker
        icon(fb, speaker, x: 0, y: baseline - speaker.height)
        let x = speaker.width + Self.progressGap
        guard let percent else {
            line(fb, bar.words, fonts.small, x: x, baseline: baseline, maxWidth: width - x)
            return
        }
        let slot = measure(Self.fullVolume.rawBytes, fonts.small)
        _ = scratch.clear().append(decimal: Int(percent)).append("%")
        line(fb, scratch.bytes, fonts.small, x: width - slot, baseline: baseline, maxWidth: slot, alignment: .trailing)
        // The progress bar's rows and thickness, between the speaker and the level.
        let outer = width - slot - Self.progressGap - x
        guard outer > 2 else { return }
        stroke(fb, Rect(x: x, y: baseline - 6, width: outer, height: 5))
        let filled = Self.volumeFill(percent, width: outer - 2)
        if filled > 0 { fill(fb, Rect(x: x + 1, y: baseline - 5, width: filled, height: 3)) }
    }

    /// Pixels of a bar `width` wide lit at `percent` (0 ... 100).
    static func volumeFill(_ percent: Int8, width: Int) -> Int {
        min(max(Int(percent), 0), 100) * width / 100
    }
}
