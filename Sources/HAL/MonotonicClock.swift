/// Something that tells the current monotonic time.
///
/// The run loop's clock reads CLOCK_MONOTONIC; a test clock is advanced by hand.
public protocol MonotonicClock: AnyObject {
    var now: MonotonicInstant { get }
}

/// A clock that only moves when a test moves it.
public final class ManualClock: MonotonicClock {
    public var now: MonotonicInstant
    public init(now: MonotonicInstant = .zero) { self.now = now }
    public func advance(by d: Duration) { now = now.advanced(by: d) }
}
