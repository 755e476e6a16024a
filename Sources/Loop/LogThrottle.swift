import HAL

/// Lets a log line that a peer can provoke again and again (a client that
/// reconnects and misbehaves in a loop) through at most once per `interval`,
/// counting what it held back so the next line can say so.
public struct LogThrottle {
    public let interval: Duration
    private var lastLogged: MonotonicInstant?
    private var heldBack = 0

    public init(interval: Duration) { self.interval = interval }

    /// nil: stay quiet now. Else log, mentioning the returned count of lines
    /// held back since the last one.
    public mutating func admit(now: MonotonicInstant) -> Int? {
        if let last = lastLogged, now - last < interval {
            heldBack += 1
            return nil
        }
        lastLogged = now
        defer { heldBack = 0 }
        return heldBack
    }
}
