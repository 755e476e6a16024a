import Notifications
import Graphics

extension ScreenRenderer {
    static let incomingCallTitle: StaticString = "Incoming call"
    static let answerFallback: StaticString = "Answer"
    static let declineFallback: StaticString = "Decline"

    /// An incoming call: "Incoming call", the caller (the title) as large as
    /// fits, and the phone's own action labels ("Answer" / "Decline" when it
    /// sent none) over the positive and negative buttons. No status bar.
    /// A `notice` ("Could not answer") replaces the heading, inverted; on a
    /// compact panel it replaces the caller's line.
    func drawIncomingCall(_ n: Notification?, notice: CallNotice?, into fb: Framebuffer) {
        var positive = n?.bytes(.positiveActionLabel) ?? UnsafeRawBufferPointer(start: nil, count: 0)
        var negative = n?.bytes(.negativeActionLabel) ?? UnsafeRawBufferPointer(start: nil, count: 0)
        if positive.isEmpty { positive = Self.answerFallback.rawBytes }
        if negative.isEmpty { negative = Self.declineFallback.rawBytes }
        let content = drawButtonLabels(positive: positive, negative: negative, into: fb)
        let caller = n?.bytes(.title) ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let ic = CategoryIcons.incomingCall
        var top = content.top
        let room = content.bottom - content.top

        if isCompact || room < 36 {
            // One line, between the labels or beside them (`labelFreeArea`).
            let area = labelFreeArea(positive: positive, negative: negative, rows: 11)
            if let notice {
                return drawCallNotice(notice, top: area.y, height: area.height, columns: (area.x, area.width), into: fb)
            }
            // The handset and the caller (or "Incoming call").
            let text = caller.isEmpty ? Self.incomingCallTitle.rawBytes : caller
            let chain = area.height >= 16 ? fonts.body : fonts.small
            let ascent = area.height >= 16 ? maxAscent(chain) : latinAscent(chain)
            let lineHeight = area.height >= 16 ? 16 : 10
            let y = area.y + max(0, (area.height - lineHeight) / 2)
            icon(fb, ic, x: area.x + 1, y: y + (lineHeight - ic.height) / 2)
            line(fb, text, chain, x: area.x + ic.width + 4, baseline: y + ascent, maxWidth: area.width - ic.width - 5)
            return
        }
        if let notice {
            drawCallNotice(notice, top: top, height: 11, into: fb)
        } else {
            // The heading with the handset, centred.
            let headingWidth = ic.width + 3 + measure(Self.incomingCallTitle.rawBytes, fonts.small)
            let hx = (width - headingWidth) / 2
            icon(fb, ic, x: hx, y: top + 1)
            line(fb, Self.incomingCallTitle, fonts.small, x: hx + ic.width + 3, baseline: top + 9, maxWidth: width)
        }
        top += 12
        // The caller: one line of the large font when it fits, else up to two
        // centred lines of the body font.
        guard !caller.isEmpty else { return }
        let area = content.bottom - top
        if measure(caller, fonts.large) <= width - 2 && area >= 20 {
            let baseline = top + (area - 20) / 2 + maxAscent(fonts.large)
            line(fb, caller, fonts.large, x: 0, baseline: baseline, maxWidth: width, alignment: .center)
            return
        }
        noticeLayout.layout(caller, fonts: fonts.body, width: width - 4, maxLines: max(1, min(2, area / 16)))
        if noticeLayout.lineCount > 1 && noticeLayout.height() > area {
            // Two CJK lines with their leading can be a row too tall.
            noticeLayout.layout(caller, fonts: fonts.body, width: width - 4, maxLines: 1)
        }
        let y = top + max(0, (area - noticeLayout.height()) / 2)
        noticeLayout.draw(caller, fonts: fonts.body, into: fb, x: 2, y: y, alignment: .center)
    }
}

extension ScreenRenderer {
    /// The call's notice: one line of the small font, inverted, centred in
    /// the band of `band` rows from `top` (across the panel or `columns`).
    func drawCallNotice(_ notice: CallNotice, top: Int, height band: Int, columns: (x: Int, width: Int)? = nil,
                        into fb: Framebuffer) {
        drawNoticeBand(notice.text.rawBytes, top: top, height: band, columns: columns, into: fb)
    }
}
