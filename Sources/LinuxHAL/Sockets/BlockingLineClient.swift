import CLinux
import HAL

/// A blocking client for a line protocol on a Unix stream socket, for
/// command-line tools (`wristcore screenshot` asking a daemon's harness):
/// connect, send a line, read reply lines and byte payloads. Every read waits
/// at most `timeout`, so a silent peer cannot hang the tool. Never used on
/// the run loop (that is `LineConnection`).
public final class BlockingLineClient {
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    public let path: String

    /// Connects to `path` (a socket path, without `unix:`).
    public init(path: String, timeout: Duration) throws(HALError) {
        self.path = path
        fd = try UnixSocketListener.connect(path: path, kind: .stream)
        let raw = fd.rawValue
        // Blocking with a receive timeout: simple, and it cannot hang forever.
        _ = wc_fcntl_int(raw, F_SETFL, wc_fcntl(raw, F_GETFL) & ~O_NONBLOCK)
        let (seconds, attoseconds) = timeout.components
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if setsockopt(raw, SOL_SOCKET, wc_so_rcvtimeo(), &tv, socklen_t(MemoryLayout<timeval>.size)) != 0 {
            throw Errno.current.halError("set a receive timeout on \(path)")
        }
    }

    /// Sends `line` and a newline.
    public func send(line: String) throws(HALError) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes {
                CLinux.send(fd.rawValue, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                let e = Errno.current
                if e == .interrupted { continue }
                throw e.halError("send to \(path)")
            }
            sent += n
        }
    }

    /// The next line, without its newline; nil when the peer closed first.
    /// Throws on a timeout (EAGAIN) or a socket error.
    public func readLine() throws(HALError) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard try fill() else { return nil }
        }
    }

    /// The next `count` bytes; nil when the peer closed first. Throws on a
    /// timeout (EAGAIN) or a socket error.
    public func readBytes(_ count: Int) throws(HALError) -> [UInt8]? {
        while buffer.count < count {
            guard try fill() else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

    /// Receives what is there; false at end of stream.
    private func fill() throws(HALError) -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { CLinux.recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            let e = Errno.current
            if e == .interrupted { continue }
            throw e.halError("receive from \(path)")
        }
    }
}
