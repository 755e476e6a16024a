import Glibc
import HAL
import LinuxHAL

/// A blocking, one-shot harness client for command-line tools
/// (`wristcore screenshot`): sends one command, returns the reply line and
/// any payload that follows it.
public enum HarnessRequest {
    public struct Reply {
        public var line: String
        public var payload: [UInt8]
    }

    /// `path` is the socket path (without `unix:`).
    public static func send(_ command: String, to path: String, timeoutSeconds: Int = 10) throws -> Reply {
        let fd: FileDescriptor
        do { fd = try UnixSocketListener.connect(path: path, kind: .stream) } catch {
            throw WristCoreFailure(
                "cannot reach the harness at unix:\(path): \(error.reason) (is 'wristcore run ... --harness unix:\(path)' running?)")
        }
        let raw = fd.rawValue
        // Blocking with a receive timeout: simple, and it cannot hang forever.
        _ = fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) & ~O_NONBLOCK)
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(raw, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let request = Array((command + "\n").utf8)
        _ = request.withUnsafeBytes { Glibc.send(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func fill() throws -> Bool {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(raw, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            throw WristCoreFailure("no answer from the harness at unix:\(path) within \(timeoutSeconds) s")
        }
        var line: String?
        while line == nil {
            if let nl = buffer.firstIndex(of: 0x0A) {
                line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                // Streamed motor events are not replies.
                if line!.hasPrefix("motor ") { line = nil }
                continue
            }
            guard try fill() else { throw WristCoreFailure("the harness at unix:\(path) closed the connection") }
        }
        var payload: [UInt8] = []
        let words = line!.split(separator: " ")
        if words.first == "snapshot", words.count == 3, let count = Int(words[2]) {
            while buffer.count < count {
                guard try fill() else { throw WristCoreFailure("the harness closed the connection in the middle of a snapshot") }
            }
            payload = Array(buffer[..<count])
        }
        if line!.hasPrefix("error ") { throw WristCoreFailure("harness: \(line!.dropFirst(6))") }
        return Reply(line: line!, payload: payload)
    }
}
