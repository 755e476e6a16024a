/// One edge seen on a button's input line, already in logical terms: `active`
/// means "pressed" whatever the wiring (active-low is applied below this).
public struct LineEdge: Equatable, Sendable {
    public var active: Bool
    /// When the kernel saw the edge (CLOCK_MONOTONIC).
    public var timestamp: MonotonicInstant

    public init(active: Bool, timestamp: MonotonicInstant) {
        self.active = active
        self.timestamp = timestamp
    }
}

/// A requested input line that reports both edges (a button).
///
/// On Linux this is a libgpiod line request with both-edge events; the run
/// loop watches `pollDescriptor` and drains `readEdge()` until it returns nil.
/// On the simulated board (and for buttons pressed in software) edges are
/// pushed: the line calls `edgesQueued` and its owner drains `readEdge()` the
/// same way.
public protocol ButtonLine: AnyObject {
    /// The descriptor to watch for readability (-1 when edges are only pushed).
    var pollDescriptor: Int32 { get }
    /// Set once by the line's owner: called when edges were queued other than
    /// through `pollDescriptor` (pushed in software); the owner then drains
    /// `readEdge()`. A plain GPIO line never calls it.
    var edgesQueued: (() -> Void)? { get set }
    /// The next pending edge, or nil when none is queued. Never blocks, never allocates.
    func readEdge() throws(HALError) -> LineEdge?
    /// The line's current logical level (true: pressed).
    func isActive() throws(HALError) -> Bool
    /// True when the kernel debounces this line (libgpiod v2), so software
    /// debouncing adds no delay of its own.
    var kernelDebounceActive: Bool { get }
    /// Releases the line (idempotent).
    func release()
}

/// A requested output line driving the vibration motor (through a transistor).
///
/// `setActive(false)` must be safe to call at any time, repeatedly, including
/// from shutdown and error paths; `release()` drives the line inactive first.
public protocol MotorLine: AnyObject {
    func setActive(_ on: Bool) throws(HALError)
    /// Drives the line inactive and releases it (idempotent).
    func release()
}
