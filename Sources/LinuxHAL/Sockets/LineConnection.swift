// CBluetooth brings <sys/socket.h> in a way release (whole-module) builds see:
// Glibc alone does not show SOCK_SEQPACKET, SOCK_CLOEXEC or MSG_TRUNC there.
import CBluetooth
import Glibc
import HAL

/// A connected, non-blocking byte-stream socket carrying a line protocol (the
/// harness endpoint). Incoming bytes are split into lines; outgoing bytes are
/// queued while the socket is full, so a slow reader never blocks the loop.
///
/// Not on a hot path: the harness is a test and bench tool.
public final class LineConnection: LineChannel {
    private var fd: FileDescriptor?
    private var inbound: [UInt8] = []
    private var outbound: [UInt8] = []
    /// Longest accepted line; a longer one closes the connection.
    public let maxLineLength: Int

    public init(adopting descriptor: consuming FileDescriptor, maxLineLength: Int = 4096) {
        fd = consume descriptor
        self.maxLineLength = maxLineLength
        inbound.reserveCapacity(256)
    }

    public var pollDescriptor: Int32 { fd?.rawValue ?? -1 }
    public var isOpen: Bool { fd != nil }
    /// True while queued output waits for the socket to become writable.
    public var hasPendingOutput: Bool { !outbound.isEmpty }

    public typealias ReadResult = LineReadResult

    /// Reads what is available and returns the complete lines (without the
    /// newline, a trailing CR removed). `.closed` at end of stream or on error.
    public func readLines() -> ReadResult {
        guard let raw = fd?.rawValue else { return .closed }
        var chunk = [UInt8](repeating: 0, count: 1024)
        var lines: [String] = []
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(raw, $0.baseAddress, $0.count) }
            if n > 0 {
                inbound.append(contentsOf: chunk[0..<n])
                continue
            }
            if n == 0 { return lines.isEmpty ? .closed : .lines(lines) }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { break }
            return .closed
        }
        while let nl = inbound.firstIndex(of: 0x0A) {
            var line = inbound[..<nl]
            if line.last == 0x0D { line = line.dropLast() }
            lines.append(String(decoding: line, as: UTF8.self))
            inbound.removeSubrange(...nl)
        }
        if inbound.count > maxLineLength { return .closed }
        return .lines(lines)
    }

    /// Queues bytes and writes as much as the socket takes now. Returns false
    /// when the connection is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard fd != nil else { return false }
        outbound.append(contentsOf: bytes)
        return flush()
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Writes queued output; call when the socket is writable.
    @discardableResult
    public func flush() -> Bool {
        guard let raw = fd?.rawValue else { return false }
        while !outbound.isEmpty {
            let n = outbound.withUnsafeBytes { Glibc.send(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                outbound.removeFirst(n)
                continue
            }
            let e = Errno.current
            if e == .interrupted { continue }
            if e == .wouldBlock || e.rawValue == EWOULDBLOCK { return true }
            close()
            return false
        }
        return true
    }

    public func close() {
        if let d = fd.take() { d.close() }
        outbound.removeAll()
    }

    deinit { close() }
}
