import Graphics

extension ScreenRenderer {
    /// A short notice under the status bar, wrapped and centred both ways
    /// (cut with an ellipsis when it does not fit).
    func drawNotice(_ text: UnsafeRawBufferPointer, status: StatusInfo, into fb: Framebuffer) {
        drawStatusBar(status, into: fb)
        let top = Self.statusBarHeight + 1
        let area = height - top
        let chain = isCompact ? fonts.small : fonts.body
        let margin = 2
        noticeLayout.layout(text, fonts: chain, width: width - 2 * margin, maxLines: noticeLayout.capacity)
        let fit = noticeLayout.linesFitting(in: area)
        if noticeLayout.lineCount > fit {
            noticeLayout.layout(text, fonts: chain, width: width - 2 * margin, maxLines: fit)
        }
        let h = noticeLayout.height()
        let y = top + max(0, (area - h) / 2)
        noticeLayout.draw(text, fonts: chain, into: fb, x: margin, y: y, alignment: .center)
    }
}
