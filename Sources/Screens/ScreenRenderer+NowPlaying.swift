import AMS
import Graphics
import HAL

/// The Now Playing screen (docs/screens.md): the status bar and the player's
/// name (128x64 only), the title (two lines at 128x64, one at 128x32), the
/// artist, and a progress line: the play state glyph, elapsed m:ss, a bar
/// and the duration (no bar and no duration while the duration is unknown).
/// Text is drawn from the media state's fixed storage, numbers from the
/// scratch buffer: nothing allocates.
extension ScreenRenderer {
    static let nothingPlaying: StaticString = "Nothing playing"

    /// Gap between the glyph, the times and the bar.
    static let progressGap = 3

    func drawNowPlaying(_ content: NowPlayingContent?, status: StatusInfo, into fb: Framebuffer) {
        guard let content, content.media.hasPlayer else {
            return drawNotice(Self.nothingPlaying.rawBytes, status: status, into: fb)
        }
        let media = content.media
        // Rows: (title top, title lines, artist baseline, progress baseline, notice band top).
        let titleTop: Int, titleLines: Int, artistBaseline: Int, progressBaseline: Int, bandTop: Int
        if isCompact {
            (titleTop, titleLines, artistBaseline, progressBaseline, bandTop) = (0, 1, 22, height, 13)
        } else {
            (titleTop, titleLines, artistBaseline, progressBaseline, bandTop) = (21, 2, 55, height, 11)
            drawStatusBar(status, into: fb)
            if content.notice == nil {
                _ = media.playerName.withUTF8 { name in
                    line(fb, name, fonts.small, x: 0, baseline: 19, maxWidth: width, alignment: .center)
                }
            }
        }
        media.title.withUTF8 { drawMediaTitle($0, top: titleTop, lines: titleLines, into: fb) }
        if let notice = content.notice {
            fill(fb, Rect(x: 0, y: bandTop, width: width, height: 10))
            line(fb, notice.text, fonts.small, x: 0, baseline: bandTop + 8, maxWidth: width, alignment: .center, ink: .off)
        }
        if content.notice == nil || !isCompact {
            _ = media.artist.withUTF8 { artist in
                line(fb, artist, fonts.small, x: 0, baseline: artistBaseline, maxWidth: width, alignment: .center)
            }
        }
        drawProgress(media, now: content.now, baseline: progressBaseline, into: fb)
    }

    /// The title centred in `lines` rows of the body font from `top`; a
    /// single line sits in the middle of the band. Two lines of CJK (1 px
    /// of leading each, taller) that overflow the band become one.
    private func drawMediaTitle(_ title: UnsafeRawBufferPointer, top: Int, lines: Int, into fb: Framebuffer) {
        guard !title.isEmpty else { return }
        let band = lines * 13
        titleLayout.layout(title, fonts: fonts.body, width: width - 2, maxLines: lines)
        if titleLayout.lineCount > 1 && titleLayout.height() > band + 1 {
            titleLayout.layout(title, fonts: fonts.body, width: width - 2, maxLines: 1)
        }
        let y = top + max(0, (band - titleLayout.height()) / 2)
        titleLayout.draw(title, fonts: fonts.body, into: fb, x: 1, y: y, alignment: .center)
    }

    /// The progress line with the small font's baseline at `baseline`: the
    /// play state glyph on the digits' rows, elapsed time, the bar, duration.
    private func drawProgress(_ media: MediaState, now: MonotonicInstant, baseline: Int, into fb: Framebuffer) {
        let glyph = MediaIcons.glyph(media.playbackState)
        icon(fb, glyph, x: 0, y: baseline - 7)
        let elapsed = media.elapsedMilliseconds(at: now)
        let x = glyph.width + Self.progressGap
        guard let duration = media.durationMilliseconds, duration > 0 else {
            appendMinutesSeconds(elapsed, to: scratch.clear())
            line(fb, scratch.bytes, fonts.small, x: x, baseline: baseline, maxWidth: width - x)
            return
        }
        let slot = timeSlotWidth(duration)  // (uses the scratch buffer)
        appendMinutesSeconds(elapsed, to: scratch.clear())
        line(fb, scratch.bytes, fonts.small, x: x, baseline: baseline, maxWidth: slot)
        appendMinutesSeconds(duration, to: scratch.clear())
        line(fb, scratch.bytes, fonts.small, x: width - slot, baseline: baseline, maxWidth: slot, alignment: .trailing)
        let inner = nowPlayingBarWidth(durationMilliseconds: duration)
        guard inner > 0 else { return }
        let barX = x + slot + Self.progressGap
        stroke(fb, Rect(x: barX, y: baseline - 6, width: inner + 2, height: 5))
        let filled = MediaProgress.filledPixels(elapsed: elapsed, duration: duration, width: inner)
        if filled > 0 { fill(fb, Rect(x: barX + 1, y: baseline - 5, width: filled, height: 3)) }
    }

    /// The pixels the progress bar fills at the end of a track this long
    /// (0: no bar is drawn). The bar's place depends only on the duration,
    /// so it stays put while the elapsed text changes width.
    public func nowPlayingBarWidth(durationMilliseconds duration: Int64?) -> Int {
        guard let duration, duration > 0, duration <= MediaProgress.longestBarDuration else { return 0 }
        let slot = timeSlotWidth(duration)
        let outer = width - (MediaIcons.playing.width + Self.progressGap) - 2 * (slot + Self.progressGap)
        return max(0, outer - 2)
    }

    /// Width of the duration's text: both times get a slot this wide (the
    /// elapsed time is never longer).
    private func timeSlotWidth(_ duration: Int64) -> Int {
        appendMinutesSeconds(duration, to: scratch.clear())
        return measure(scratch.bytes, fonts.small)
    }

    /// "m:ss" (minutes up to 999).
    func appendMinutesSeconds(_ milliseconds: Int64, to out: TextScratch) {
        let seconds = Int(min(max(milliseconds, 0) / 1000, 999 * 60 + 59))
        out.append(decimal: seconds / 60).append(":").append(decimal: seconds % 60, width: 2)
    }
}
