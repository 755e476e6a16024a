import HAL

/// Motor-on time inside a sliding window (60 s): the past on-intervals in a
/// fixed ring, preallocated, so accounting never allocates.
///
/// When more intervals are needed than the ring holds, the two oldest are
/// merged into one spanning both (the gap counts as on-time): the estimate
/// can only err on the side of less vibration.
struct OnTimeWindow {
    let window: Duration
    private var starts: [MonotonicInstant]
    private var ends: [MonotonicInstant]
    private var head = 0
    private(set) var count = 0

    init(window: Duration = .seconds(60), capacity: Int = 128) {
        precondition(capacity >= 2)
        self.window = window
        starts = Array(repeating: .zero, count: capacity)
        ends = Array(repeating: .zero, count: capacity)
    }

    private var capacity: Int { starts.count }
    private func slot(_ i: Int) -> Int { (head + i) % capacity }

    /// Records that the motor was on from `start` to `end`.
    mutating func record(from start: MonotonicInstant, to end: MonotonicInstant) {
        guard end > start else { return }
        if count == capacity {
            let first = slot(0), second = slot(1)
            starts[second] = starts[first]
            head = second
            count -= 1
        }
        let s = slot(count)
        starts[s] = start
        ends[s] = end
        count += 1
    }

    /// On-time inside (now - window, now], counting a motor still on since `onSince`.
    mutating func used(at now: MonotonicInstant, onSince: MonotonicInstant?) -> Duration {
        let windowStart = now.advanced(by: .zero - window)
        // Drop intervals that ended before the window.
        while count > 0 && ends[head] <= windowStart {
            head = slot(1)
            count -= 1
        }
        var total = Duration.zero
        for i in 0..<count {
            let s = slot(i)
            total += ends[s] - max(starts[s], windowStart)
        }
        if let onSince, now > onSince { total += now - max(onSince, windowStart) }
        return total
    }
}
