import AMS
import HAL

/// The Now Playing screen's progress arithmetic: the elapsed text shows
/// whole seconds (m:ss), the bar fills `elapsed × width / duration` pixels,
/// and `nextChange` says when either next changes on the panel, so the watch
/// redraws then and not on a fixed tick (and not at all while the display
/// is off: the screen is drawn from `MediaState.elapsedMilliseconds(at:)`
/// when it wakes).
public enum MediaProgress {
    /// Durations past this (about 3 years) draw no bar: the products below
    /// stay far from overflow.
    static let longestBarDuration: Int64 = 1 << 40

    /// Pixels filled in a bar `width` pixels wide at `elapsed` of `duration`
    /// milliseconds (0 ... width).
    public static func filledPixels(elapsed: Int64, duration: Int64, width: Int) -> Int {
        guard width > 0, duration > 0, duration <= longestBarDuration else { return 0 }
        let e = min(max(elapsed, 0), duration)
        return Int(e * Int64(width) / duration)
    }

    /// The first instant after `now` at which the shown second of the
    /// elapsed time or the fill of a bar `barWidth` pixels wide changes; nil
    /// when nothing moves (rate 0, no elapsed time reported, or at the end
    /// the rate is heading to).
    public static func nextChange(_ media: MediaState, after now: MonotonicInstant, barWidth: Int) -> MonotonicInstant? {
        guard let at = media.elapsedAt, media.playbackRateMilli != 0 else { return nil }
        let rate = Int64(media.playbackRateMilli)
        let e = media.elapsedMilliseconds(at: now)
        let d = media.durationMilliseconds.flatMap { $0 > 0 && $0 <= longestBarDuration ? $0 : nil }
        let w = Int64(max(0, barWidth))
        // The elapsed value at which the panel changes next.
        var target: Int64
        if rate > 0 {
            if let d, e >= d { return nil }
            target = (e / 1000 + 1) * 1000
            if let d, w > 0 {
                let p = Int64(filledPixels(elapsed: e, duration: d, width: Int(w)))
                if p < w { target = min(target, ceilDiv((p + 1) * d, w)) }
                target = min(target, d)
            }
        } else {
            if e <= 0 { return nil }
            target = (e / 1000) * 1000 - 1
            if let d, w > 0 {
                let p = Int64(filledPixels(elapsed: e, duration: d, width: Int(w)))
                if p > 0 { target = max(target, ceilDiv(p * d, w) - 1) }
            }
            target = max(target, 0)
        }
        // elapsedMilliseconds(at:) adds trunc(sinceMs × rate / 1000) to the
        // reported value: the first whole millisecond since `at` reaching
        // `target`.
        let distance = rate > 0 ? target - media.elapsedMilliseconds : media.elapsedMilliseconds - target
        guard distance > 0 else { return now.advanced(by: .milliseconds(1)) }
        let (scaled, overflow) = distance.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        let sinceMs = ceilDiv(scaled, abs(rate))
        let instant = at.advanced(by: .milliseconds(sinceMs))
        return instant > now ? instant : now.advanced(by: .milliseconds(1))
    }

    /// ⌈a / b⌉ for a ≥ 0, b > 0.
    static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { (a + b - 1) / b }
}
