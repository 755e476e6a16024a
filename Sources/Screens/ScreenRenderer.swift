import Notifications
import Graphics
import PhoneFeeds

/// Draws the watch's screens into a `Framebuffer`.
///
/// Everything it needs while drawing is allocated in `init`: the text
/// layouts, the byte buffers numbers and dates are formatted into, the
/// watch's name. Notification text is drawn straight from the consumer's
/// storage (`UnsafeRawBufferPointer`), constant text from `StaticString`s,
/// so `render` creates no String and no Array.
///
/// Panels: 128x64 shows the status bar on most screens; panels under 64
/// rows (128x32) are *compact*: the list and the detail screen drop the
/// status bar and show less (see docs/screens.md).
///
/// Not thread-safe: use it from the run loop's thread.
public final class ScreenRenderer {
    public let width: Int
    public let height: Int
    public let fonts: ScreenFonts
    /// Where the positive / negative buttons are (labels follow them).
    public var placement: ButtonPlacement
    /// Panels under 64 rows show less on each screen.
    public let isCompact: Bool
    /// Whether a notification hides its content (the settings file's
    /// `hideContent`, an app's or a filter's); set once, nil: none does.
    public var contentHidden: ((Notification) -> Bool)?
    /// Tests only: draw the content without labels or clips (`LayoutProbe`).
    public var layoutProbe: LayoutProbe?

    // Composed text (times, dates, counts, ages) and the watch's name.
    let scratch = TextScratch(capacity: 48)
    let nameBuffer = TextScratch(capacity: 48)
    // Layouts: one line with an ellipsis; the detail body; wrapped notices.
    let lineLayout = TextLayout(capacity: 2)
    let titleLayout = TextLayout(capacity: 8)
    let subtitleLayout = TextLayout(capacity: 4)
    let messageLayout = TextLayout(capacity: 64)
    let noticeLayout = TextLayout(capacity: 6)

    /// The first list row shown; moves only when the selection leaves the window.
    var listTop = 0
    /// The detail being laid out has more Message on the phone (a last
    /// body line says so).
    var detailHasMore = false
    /// The ANCS health of the frame's notifications (the status bar's mark).
    var ancsHealth = NotificationSourceHealth.State.ok

    /// The large font's digits: their highest ink row is `digitInkTop`
    /// above the baseline, their lowest `digitInkBottom` (see `GlyphInk`).
    let digitInkTop: Int
    let digitInkBottom: Int
    let colonInk: (left: Int, right: Int)

    /// Rows of the status bar, separator included.
    static let statusBarHeight = 11

    public init(width: Int, height: Int, fonts: ScreenFonts, placement: ButtonPlacement = .standard) {
        precondition(width >= 64 && height >= 32, "ScreenRenderer: \(width)x\(height) is smaller than 64x32")
        self.width = width
        self.height = height
        self.fonts = fonts
        self.placement = placement
        isCompact = height < 64
        let large = fonts.large.primary
        var top = Int.min, bottom = Int.max
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") {
            if let g = large.glyph(for: UInt32(c)), let ink = GlyphInk(g, of: large) {
                top = max(top, ink.top)
                bottom = min(bottom, ink.bottom)
            }
        }
        digitInkTop = top == Int.min ? large.ascent : top
        digitInkBottom = bottom == Int.max ? 1 : bottom
        if let g = large.glyph(for: UInt32(UInt8(ascii: ":"))), let ink = GlyphInk(g, of: large) {
            colonInk = (ink.left, ink.right)
        } else {
            colonInk = (0, large.defaultAdvance - 1)
        }
        setWatchName("WristCore")
    }

    /// The name shown while waiting for the phone (what the phone lists in
    /// Settings > Bluetooth). Copied into a fixed buffer (cut at 48 bytes).
    public func setWatchName(_ name: String) {
        nameBuffer.clear()
        var copy = name
        _ = copy.withUTF8 { nameBuffer.append(UnsafeRawBufferPointer($0)) }
    }

    // MARK: rendering

    /// Draws the whole screen (the burn-in shift moves the picture on the
    /// glass, `PanelDriver.setShift`, not here).
    /// `callNotice` is shown on the call screen (the phone refused an answer);
    /// `actionNotice` on the detail screen of its notification.
    /// Beside a connected link the Bluetooth glyph carries the health mark
    /// of `notifications` (`NotificationSourceHealth`: '?' unknown, '!' failing).
    /// `nowPlaying` is what the Now Playing screen shows (nil: nothing playing);
    /// `feeds` the phone's weather and calendar (the clock, their screens);
    /// `replies` the canned replies the reply picker lists; `mutedApps` what
    /// the "Muted apps" screen lists; `timekeeping` the alarms, the timer
    /// and the stopwatch (their screens).
    public func render(_ screen: Screen, status: StatusInfo, notifications: any NotificationSource,
                       into fb: Framebuffer, callNotice: CallNotice? = nil,
                       actionNotice: ActionNotice? = nil,
                       nowPlaying: NowPlayingContent? = nil, feeds: PhoneFeeds? = nil, replies: [String] = [],
                       report: StatusReport? = nil, mutedApps: MutedAppsView? = nil, timekeeping: TimekeepingView? = nil) {
        precondition(fb.width == width && fb.height == height,
                     "ScreenRenderer is \(width)x\(height), the framebuffer \(fb.width)x\(fb.height)")
        fb.resetClip()
        fb.clear()
        ancsHealth = notifications.health.state
        layoutProbe?.startFrame()
        defer { fb.resetClip() }
        switch screen {
        case .idleClock:
            drawIdleClock(status, feeds: feeds, into: fb)
        case .waitingForPhone:
            drawWaiting(status, into: fb)
        case .list(let selected):
            drawList(selected: selected, status: status, notifications: notifications, into: fb)
        case .detail(let uid, let scroll):
            if let n = notifications.notification(uid) {
                drawDetail(n, scroll: scroll, status: status, notice: actionNotice?.uid == uid ? actionNotice : nil,
                           into: fb)
            } else {
                drawNotice(Self.gone.rawBytes, status: status, into: fb)
            }
        case .incomingCall(let uid):
            drawIncomingCall(notifications.notification(uid), notice: callNotice, into: fb)
        case .pairing(let passkey):
            drawPairing(passkey: passkey, into: fb)
        case .message(let text):
            var copy = text  // a native String: no copy is made
            copy.withUTF8 { drawNotice(UnsafeRawBufferPointer($0), status: status, into: fb) }
        case .doNotDisturbMenu(let selected):
            drawDoNotDisturbMenu(selected: selected, status: status, into: fb)
        case .nowPlaying:
            drawNowPlaying(nowPlaying, status: status, into: fb)
        case .watchMenu(let selected):
            drawWatchMenu(selected: selected, status: status, into: fb)
        case .weather:
            drawWeather(feeds?.weather, status: status, into: fb)
        case .agenda(let scroll):
            drawAgenda(feeds?.agenda, scroll: scroll, status: status, into: fb)
        case .findingPhone:
            drawNotice(Self.ringingPhone.rawBytes, status: status, into: fb)
        case .notificationMenu(let uid, let selected):
            drawNotificationMenu(uid, selected: selected, notifications: notifications, replies: replies, status: status, into: fb)
        case .replyPicker(_, let selected):
            drawReplyPicker(selected: selected, replies: replies, status: status, into: fb)
        case .status(let scroll):
            drawStatus(report, scroll: scroll, status: status, into: fb)
        case .mutedApps(let selected):
            drawMutedApps(mutedApps, selected: selected, status: status, into: fb)
        case .alarms(let selected):
            drawAlarms(timekeeping, selected: selected, status: status, into: fb)
        case .alarmEditor(let draft):
            drawAlarmEditor(draft, status: status, into: fb)
        case .ringing(let alert):
            drawRinging(alert, into: fb)
        case .timer:
            drawTimer(timekeeping, status: status, into: fb)
        case .stopwatch:
            drawStopwatch(timekeeping, status: status, into: fb)
        }
    }

    static let gone: StaticString = "This notification is gone"
    static let ringingPhone: StaticString = "Ringing your phone. Any button stops it."

    // MARK: drawing helpers

    func fill(_ fb: Framebuffer, _ r: Rect, _ ink: Ink = .on) {
        fb.fill(Rect(x: r.x, y: r.y, width: r.width, height: r.height), ink)
    }

    func stroke(_ fb: Framebuffer, _ r: Rect) {
        fb.strokeRect(Rect(x: r.x, y: r.y, width: r.width, height: r.height))
    }

    func hline(_ fb: Framebuffer, x0: Int, x1: Int, y: Int, _ ink: Ink = .on) {
        fb.hline(x0: x0, x1: x1, y: y, ink)
    }

    func icon(_ fb: Framebuffer, _ b: Bitmap, x: Int, y: Int, ink: Ink = .on) {
        fb.draw(b, x: x, y: y, ink: ink)
    }

    /// Runs `body` with the clip narrowed to `r`;
    /// unclipped under a `LayoutProbe`, which must see what a clip would cut.
    func clipped(_ fb: Framebuffer, _ r: Rect, _ body: () -> Void) {
        if layoutProbe != nil { return body() }
        fb.withClip(Rect(x: r.x, y: r.y, width: r.width, height: r.height), body)
    }

    /// One line of text with its baseline at `baseline`, cut with an
    /// ellipsis to `maxWidth`, aligned inside `[x, x + maxWidth)`.
    /// Returns the width drawn.
    @discardableResult
    func line(_ fb: Framebuffer, _ text: UnsafeRawBufferPointer, _ chain: FontChain, x: Int, baseline: Int,
              maxWidth: Int, alignment: TextAlignment = .leading, ink: Ink = .on) -> Int {
        if text.isEmpty || maxWidth <= 0 { return 0 }
        lineLayout.layout(text, fonts: chain, width: maxWidth, maxLines: 1)
        lineLayout.draw(text, fonts: chain, into: fb, x: x, y: baseline - lineLayout.ascent,
                        alignment: alignment, ink: ink)
        return lineLayout.lineCount > 0 ? min(maxWidth, lineLayout.widestLine) : 0
    }

    func line(_ fb: Framebuffer, _ text: StaticString, _ chain: FontChain, x: Int, baseline: Int,
              maxWidth: Int, alignment: TextAlignment = .leading, ink: Ink = .on) {
        line(fb, text.rawBytes, chain, x: x, baseline: baseline, maxWidth: maxWidth, alignment: alignment, ink: ink)
    }

    /// Width of one line of text.
    func measure(_ text: UnsafeRawBufferPointer, _ chain: FontChain) -> Int {
        TextLayout.measure(text, fonts: chain)
    }

    /// Pixels from the top of a line of `chain` to its baseline when any of
    /// its fonts may be used (so lines with and without CJK share a baseline).
    func maxAscent(_ chain: FontChain) -> Int {
        var a = 0
        for f in chain.fonts { a = max(a, f.ascent) }
        return a
    }

    /// The ascent of the chain's first (Latin) font.
    func latinAscent(_ chain: FontChain) -> Int { chain.primary.ascent }
}

/// The inked box of a glyph, in font pixels: `left`...`right` are columns
/// from the pen (inclusive); the highest inked row is at `baseline - top`
/// and the lowest at `baseline - bottom` (ink height `top - bottom + 1`).
struct GlyphInk {
    var left: Int
    var right: Int
    var top: Int
    var bottom: Int

    init?(_ g: Glyph, of font: BitmapFont) {
        let area = font.bitmapArea
        var l = Int.max, r = Int.min, t = Int.min, b = Int.max
        for row in 0..<g.height {
            for col in 0..<g.width {
                let bit = row * g.width + col
                if area[g.bitmapOffset + (bit >> 3)] & (0x80 >> UInt8(bit & 7)) != 0 {
                    l = min(l, col + g.xOffset)
                    r = max(r, col + g.xOffset)
                    let above = g.yOffset + g.height - row  // this row is at baseline - above
                    t = max(t, above)
                    b = min(b, above)
                }
            }
        }
        if l == Int.max { return nil }
        left = l
        right = r
        top = t
        bottom = b
    }
}
