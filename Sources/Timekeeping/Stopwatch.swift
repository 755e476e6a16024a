import HAL

/// The stopwatch: start, stop, laps, reset, on the monotonic clock. The
/// latest laps are kept in a fixed table (the count goes on past it).
public struct Stopwatch: Sendable, Equatable {
    /// Laps kept (the screen shows the latest); older ones are counted only.
    public static let lapCapacity = 8

    /// Time run before the current start.
    private var banked: Duration = .zero
    /// When it started running (nil: stopped).
    public private(set) var startedAt: MonotonicInstant?
    /// Laps taken since the reset (the number of the latest).
    public private(set) var lapCount = 0
    /// The latest laps' lengths, oldest first.
    private var lengths = InlineArray<8, Duration>(repeating: .zero)
    private var lengthsKept = 0
    /// The run's time at the latest lap.
    private var lastSplit: Duration = .zero

    public init() {}

    public var isRunning: Bool { startedAt != nil }

    /// The time run at `now`.
    public func elapsed(at now: MonotonicInstant) -> Duration {
        guard let startedAt else { return banked }
        return banked + max(.zero, now.duration(since: startedAt))
    }

    public mutating func start(now: MonotonicInstant) {
        if startedAt == nil { startedAt = now }
    }

    public mutating func stop(now: MonotonicInstant) {
        guard startedAt != nil else { return }
        banked = elapsed(at: now)
        startedAt = nil
    }

    /// Takes a lap (running only).
    public mutating func lap(now: MonotonicInstant) {
        guard isRunning else { return }
        let split = elapsed(at: now)
        if lengthsKept == Self.lapCapacity {
            for i in 0..<(Self.lapCapacity - 1) { lengths[i] = lengths[i + 1] }
            lengthsKept -= 1
        }
        lengths[lengthsKept] = split - lastSplit
        lengthsKept += 1
        lastSplit = split
        lapCount += 1
    }

    public mutating func reset() { self = Stopwatch() }

    /// Laps kept, at most `lapCapacity`.
    public var lapsKept: Int { lengthsKept }

    /// The `i`th latest lap (0: the latest): its number and its own length.
    public func lap(_ i: Int) -> (number: Int, length: Duration)? {
        guard i >= 0, i < lengthsKept else { return nil }
        return (lapCount - i, lengths[lengthsKept - 1 - i])
    }

    public static func == (a: Stopwatch, b: Stopwatch) -> Bool {
        guard a.banked == b.banked, a.startedAt == b.startedAt, a.lapCount == b.lapCount, a.lengthsKept == b.lengthsKept,
              a.lastSplit == b.lastSplit else { return false }
        for i in 0..<a.lengthsKept where a.lengths[i] != b.lengths[i] { return false }
        return true
    }
}
