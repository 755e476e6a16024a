import HAL

/// The countdown timer: a length the wearer sets with the buttons, then
/// running to a deadline on the monotonic clock (a length of time, not a
/// time of day: a clock step does not move it). It rings when it ends.
public struct CountdownTimer: Sendable, Equatable {
    /// The longest length the buttons set: 99 minutes.
    public static let maxSeconds = 99 * 60
    /// What a new timer starts from: 5 minutes.
    public static let defaultSeconds = 5 * 60

    public enum State: Sendable, Equatable {
        /// Set to `seconds`, not running.
        case stopped
        /// Ends at the deadline.
        case running(until: MonotonicInstant)
        /// Paused with `left` to go.
        case paused(left: Duration)
    }

    /// The length the wearer set, in seconds.
    public var length: Int = CountdownTimer.defaultSeconds
    public private(set) var state = State.stopped

    public init() {}

    /// Seconds left at `now` (rounded up: "0:01" until it ends), or the length when stopped.
    public func secondsLeft(at now: MonotonicInstant) -> Int {
        switch state {
        case .stopped: return length
        case .running(let until): return Self.roundedUp(until.duration(since: now))
        case .paused(let left): return Self.roundedUp(left)
        }
    }

    /// When it ends (nil unless running).
    public var deadline: MonotonicInstant? {
        if case .running(let until) = state { return until }
        return nil
    }

    public var isRunning: Bool { deadline != nil }

    /// Starts (or resumes) at `now`; a zero length does not start.
    public mutating func start(now: MonotonicInstant) {
        switch state {
        case .stopped:
            guard length > 0 else { return }
            state = .running(until: now.advanced(by: .seconds(length)))
        case .paused(let left):
            state = .running(until: now.advanced(by: left))
        case .running:
            break
        }
    }

    public mutating func pause(now: MonotonicInstant) {
        guard case .running(let until) = state else { return }
        state = .paused(left: max(.zero, until.duration(since: now)))
    }

    /// Back to its length, not running (it ended, or the wearer reset it).
    public mutating func reset() { state = .stopped }

    /// Changes the length by `minutes` (stopped only), within 1...99 minutes.
    public mutating func adjust(byMinutes minutes: Int) {
        guard state == .stopped else { return }
        length = max(60, min(Self.maxSeconds, (length / 60 + minutes) * 60))
    }

    static func roundedUp(_ d: Duration) -> Int {
        let (s, a) = d.components
        if s < 0 { return 0 }
        return Int(s) + (a > 0 ? 1 : 0)
    }
}
