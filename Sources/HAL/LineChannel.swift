/// What one read on a `LineChannel` produced.
public enum LineReadResult: Equatable, Sendable {
    /// The complete lines that arrived (without the newline, a trailing CR removed); may be empty.
    case lines([String])
    /// The peer closed the connection, or it failed.
    case closed
    /// A line longer than the limit (in bytes, without its newline) came or
    /// was coming: the connection is of no further use and is closed.
    case lineTooLong(limit: Int)
}

/// A connected byte stream carrying a line protocol (the harness endpoint).
/// Incoming bytes are split into lines; outgoing bytes are queued while the
/// peer is slow, so a slow reader never blocks the loop.
///
/// Non-blocking; the run loop watches `pollDescriptor` for readability, and
/// for writability while `hasPendingOutput`. The queue itself is unbounded:
/// its owner bounds it (the harness disconnects a client that stops reading).
public protocol LineChannel: AnyObject {
    /// The descriptor to watch (-1 once closed).
    var pollDescriptor: Int32 { get }
    var isOpen: Bool { get }
    /// Bytes written but not yet taken by the peer.
    var queuedOutputCount: Int { get }
    /// Reads a bounded amount of what is available (one wake-up's worth, so
    /// a client that floods cannot hold the loop) and returns the complete
    /// lines; the rest is read on the next wake-up.
    func readLines() -> LineReadResult
    /// Queues bytes and sends as much as the peer takes now; false when the connection is gone.
    @discardableResult func write(_ bytes: [UInt8]) -> Bool
    /// Sends queued output; call when the descriptor is writable. False when the connection is gone.
    @discardableResult func flush() -> Bool
    /// Closes the connection (idempotent).
    func close()
}

extension LineChannel {
    /// True while queued output waits for the peer to take it.
    public var hasPendingOutput: Bool { queuedOutputCount > 0 }

    /// Queues text as UTF-8.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }
}
