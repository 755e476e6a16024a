import CLinux
import HAL

/// A connected, non-blocking byte-stream socket carrying a line protocol (the
/// harness endpoint). Incoming bytes are split into lines; outgoing bytes are
/// queued while the socket is full, so a slow reader never blocks the loop
/// (the owner bounds the queue: `queuedOutputCount`).
///
/// Each `readLines()` reads at most `readChunk` bytes (one `read`), so a peer
/// that floods gets one wake-up's worth of service at a time; the level-
/// triggered loop comes back for the rest. A write that the socket takes whole
/// while nothing is queued goes straight out: writing a reused buffer then
/// allocates nothing.
public final class LineConnection: LineChannel {
    private var fd: FileDescriptor?
    private var inbound: [UInt8] = []
    private var outbound: [UInt8] = []
    private var chunk: [UInt8]
    /// Longest accepted line; a longer one closes the connection.
    public let maxLineLength: Int

    public init(adopting descriptor: consuming FileDescriptor, maxLineLength: Int = 4096, readChunk: Int = 4096) {
        fd = consume descriptor
        self.maxLineLength = maxLineLength
        chunk = [UInt8](repeating: 0, count: max(1, readChunk))
        inbound.reserveCapacity(256)
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }
    public var isOpen: Bool { fd != nil }
    public var queuedOutputCount: Int { outbound.count }

    public typealias ReadResult = LineReadResult

    /// Reads what one `read` gives (at most `readChunk` bytes) and returns the
    /// complete lines (without the newline, a trailing CR removed). `.closed`
    /// at end of stream or on error, or when a line outgrows `maxLineLength`.
    public func readLines() -> ReadResult {
        guard let raw = fd?.rawValue else { return .closed }
        while true {
            let n = chunk.withUnsafeMutableBytes { CLinux.read(raw, $0.baseAddress, $0.count) }
            if n > 0 {
                inbound.append(contentsOf: chunk[0..<n])
                break
            }
            if n == 0 { return .closed }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return .lines([]) }
            return .closed
        }
        var lines: [String] = []
        var start = 0
        while let nl = inbound[start...].firstIndex(of: 0x0A) {
            var end = nl
            if end > start && inbound[end - 1] == 0x0D { end -= 1 }
            // Every line is held to the limit, not only the one left unfinished.
            if end - start > maxLineLength { return .lineTooLong(limit: maxLineLength) }
            lines.append(String(decoding: inbound[start..<end], as: UTF8.self))
            start = nl + 1
        }
        inbound.removeSubrange(..<start)
        // An unfinished line already past the limit (its CR may still come: one byte of grace).
        if inbound.count > maxLineLength + 1 { return .lineTooLong(limit: maxLineLength) }
        return .lines(lines)
    }

    /// Sends what the socket takes now and queues the rest. Returns false
    /// when the connection is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard let raw = fd?.rawValue else { return false }
        guard outbound.isEmpty else {
            outbound.append(contentsOf: bytes)
            return flush()
        }
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { CLinux.send(raw, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                continue
            }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { break }
            close()
            return false
        }
        if sent < bytes.count { outbound.append(contentsOf: bytes[sent...]) }
        return true
    }

    /// Writes queued output; call when the socket is writable.
    @discardableResult
    public func flush() -> Bool {
        guard let raw = fd?.rawValue else { return false }
        var sent = 0
        defer { if sent > 0 { outbound.removeFirst(sent) } }
        while sent < outbound.count {
            let n = outbound.withUnsafeBytes { CLinux.send(raw, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                continue
            }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return true }
            sent = 0
            close()
            return false
        }
        return true
    }

    public func close() {
        if let d = fd.take() { d.close() }
        outbound = []
        inbound = []
    }

    deinit { close() }
}
