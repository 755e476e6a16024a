import HAL
import LinuxHAL
import TextFormat

/// A one-shot harness request for command-line tools (`wristcore
/// screenshot`): sends one command, returns the reply line and any payload
/// that follows it. The socket is LinuxHAL's `BlockingLineClient`; this is
/// only the harness protocol.
public enum HarnessRequest {
    public struct Reply {
        public var line: String
        public var payload: [UInt8]
    }

    /// `path` is the socket path (without `unix:`).
    public static func send(_ command: String, to path: String, timeoutSeconds: Int = 10) throws(WristCoreFailure) -> Reply {
        let client: BlockingLineClient
        do throws(HALError) { client = try BlockingLineClient(path: path, timeout: .seconds(timeoutSeconds)) } catch {
            throw WristCoreFailure(
                "cannot reach the harness at unix:\(path): \(error.reason) (is 'wristcore run ... --harness unix:\(path)' running?)")
        }
        let noAnswer = WristCoreFailure("no answer from the harness at unix:\(path) within \(timeoutSeconds) s")
        // A failed send shows as the reply that never comes (closed or no answer).
        try? client.send(line: command)
        var reply: String
        repeat {
            let line: String?
            do throws(HALError) { line = try client.readLine() } catch { throw noAnswer }
            guard let line else { throw WristCoreFailure("the harness at unix:\(path) closed the connection") }
            reply = line
        } while reply.hasPrefix("motor ")  // streamed motor events are not replies
        var payload: [UInt8] = []
        let words = reply.split(separator: " ")
        if words.first == "snapshot", words.count == 3, let count = IntegerText.int(words[2]) {
            let bytes: [UInt8]?
            do throws(HALError) { bytes = try client.readBytes(count) } catch { throw noAnswer }
            guard let bytes else { throw WristCoreFailure("the harness closed the connection in the middle of a snapshot") }
            payload = bytes
        }
        if reply.hasPrefix("error ") { throw WristCoreFailure("harness: \(reply.dropFirst(6))") }
        return Reply(line: reply, payload: payload)
    }
}
