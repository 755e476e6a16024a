import AMS
import Graphics
import HAL

/// The Now Playing screen (docs/screens.md): the status bar and the player's
/// name (128x64 only), the title (two lines at 128x64, one at 128x32), the
/// artist, and a progress line: the play state glyph, elapsed m:ss, a bar
/// and the duration (no bar and no duration while the duration is unknown);
/// the volume bar takes the progress line's place while it is up.
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
        // Rows: (title top, title lines, progress baseline, notice band top).
        let titleTop: Int, titleLines: Int, progressBaseline: Int, bandTop: Int
        if isCompact {
            (titleTop, titleLines, progressBaseline, bandTop) = (0, 1, height, 13)
        } else {
            (titleTop, titleLines, progressBaseline, bandTop) = (21, 2, height, 11)
            drawStatusBar(status, into: fb)
            if content.notice == nil {
                _ = media.playerName.withUTF8 { name in
                    line(fb, name, fonts.small, x: 0, baseline: 19, maxWidth: width, alignment: .center)
                }
            }
        }
        // At 128x32 the notice takes the artist's place.
        let withArtist = content.notice == nil || !isCompact
        media.artist.withUTF8 { artist in
            media.title.withUTF8 { title in
                let rows = nowPlayingRows(
                    title, artist: withArtist ? artist : UnsafeRawBufferPointer(start: nil, count: 0),
                    titleTop: titleTop, titleLines: titleLines, progressBaseline: progressBaseline)
                if !title.isEmpty {
                    titleLayout.draw(title, fonts: fonts.body, into: fb, x: 1, y: rows.titleY, alignment: .center)
                }
                if let baseline = rows.artistBaseline {
                    artistLayout.draw(artist, fonts: fonts.small, into: fb, x: 0, y: baseline - artistLayout.ascent,
                                      alignment: .center)
                }
            }
        }
        if let notice = content.notice {
            fill(fb, Rect(x: 0, y: bandTop, width: width, height: 10))
            line(fb, notice.text, fonts.small, x: 0, baseline: bandTop + 8, maxWidth: width, alignment: .center, ink: .off)
        }
        if let bar = content.volumeBar {
            drawVolumeBar(bar, percent: media.volumePercent, baseline: progressBaseline, into: fb)
        } else {
            drawProgress(media, now: content.now, baseline: progressBaseline, into: fb)
        }
    }

    /// The artist's line (the detail screen's subtitle layout, free here).
    private var artistLayout: TextLayout { subtitleLayout }

    /// Lays out the title and the artist and places them: the title centred
    /// in `titleLines` rows of the body font from `titleTop` (two CJK lines,
    /// taller, become one; so do two lines above a CJK artist), the artist
    /// on its baseline above the progress line. CJK and emoji glyphs fill
    /// their whole 16-row cell, so when either line has them a blank row is
    /// kept between the two and above the progress line, as the detail
    /// screen's leading does: the title moves up, and where it still does
    /// not fit (128x32) the artist is left out. Latin lines keep their places.
    private func nowPlayingRows(
        _ title: UnsafeRawBufferPointer, artist: UnsafeRawBufferPointer, titleTop: Int, titleLines: Int,
        progressBaseline: Int
    ) -> (titleY: Int, artistBaseline: Int?) {
        var artistBaseline = isCompact ? 22 : 55
        var artistTop = Int.max
        artistLayout.layout(artist, fonts: fonts.small, width: width, maxLines: 1)
        if artistLayout.lineCount > 0 {
            if artistLayout.leading > 0 {
                // Its last row stays clear of the progress line's top (the glyph's and the digits').
                let descent = artistLayout.lineHeight - artistLayout.leading - artistLayout.ascent
                artistBaseline = min(artistBaseline, progressBaseline - MediaIcons.playing.height - 1 - descent)
            }
            artistTop = artistBaseline - artistLayout.ascent
        }
        guard !title.isEmpty else { return (0, artistTop == Int.max ? nil : artistBaseline) }
        titleLayout.layout(title, fonts: fonts.body, width: width - 2, maxLines: titleLines)
        let gap = titleLayout.leading > 0 || artistLayout.leading > 0 ? 1 : 0
        let band = titleLines * 13
        let room = artistTop == Int.max ? band : min(band, artistTop - gap - titleTop)
        if titleLayout.lineCount > 1 && titleLayout.height() > room {
            titleLayout.layout(title, fonts: fonts.body, width: width - 2, maxLines: 1)
        }
        let h = titleLayout.height()
        var y = titleTop + max(0, (band - h) / 2)
        guard artistTop != Int.max else { return (y, nil) }
        y = max(titleTop, min(y, artistTop - gap - h))
        return (y, y + h + gap <= artistTop ? artistBaseline : nil)
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
