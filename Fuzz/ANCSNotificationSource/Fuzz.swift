// libFuzzer target: the Notification Source parser.
// Any input must either decode (and then re-encode to the same 8 bytes) or
// throw NotificationSourceError.wrongLength with its length. Never trap.
import ANCS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    do throws(NotificationSourceError) {
        let event = try NotificationSourceEvent(parsing: input)
        precondition(size == NotificationSourceEvent.byteCount)
        var out = [UInt8](repeating: 0, count: 8)
        let written = out.withUnsafeMutableBytes { event.encode(into: $0) }
        precondition(written == 8)
        for i in 0..<8 { precondition(out[i] == input[i], "re-encoding differs at byte \(i)") }
        // Reserved values are kept, not rejected.
        if case .unknown(let n) = event.eventID { precondition(n > 2) }
        if case .unknown(let n) = event.category { precondition(n > 11) }
    } catch {
        precondition(error == .wrongLength(size))
        precondition(size != NotificationSourceEvent.byteCount)
    }
    return 0
}
