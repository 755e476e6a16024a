import HAL

/// OLED burn-in protection: every `pixelShiftInterval` static content moves
/// one step around a 2x2 pixel square. The step is taken on the first
/// minute tick at or after it falls due (WatchModel+MinuteTick): it has no
/// wake-up of its own, and none while the panel is dark.
extension WatchModel {
    /// Where content is drawn now, relative to its place.
    public var pixelShift: (x: Int, y: Int) {
        switch shiftStep & 3 {
        case 0: (0, 0)
        case 1: (1, 0)
        case 2: (1, 1)
        default: (0, 1)
        }
    }

    func startBurnInShift(now: MonotonicInstant) {
        shiftDeadline = now.advanced(by: settings.pixelShiftInterval)
    }

    /// One step, and the next deadline on the period grid after `now` (one
    /// step after a stall, never a burst, like a repeating loop timer).
    func shiftDeadlinePassed(now: MonotonicInstant) {
        guard let due = shiftDeadline, due <= now else { return }
        let interval = UInt64(max(settings.pixelShiftInterval.nanosecondsClamped, 1))
        let periods = (now.nanoseconds - due.nanoseconds) / interval + 1
        shiftDeadline = MonotonicInstant(nanoseconds: due.nanoseconds &+ periods &* interval)
        shiftStep &+= 1
        requestRender()
    }
}
