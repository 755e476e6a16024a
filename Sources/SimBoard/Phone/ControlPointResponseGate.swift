import HAL

/// The simulated phone's side of the link, able to leave one ATT request
/// unanswered: after `swallowNextResponse()` the next Write Response, Execute
/// Write Response or Error Response the phone sends is dropped. That is a
/// phone that stopped answering its Control Point: the watch's request never
/// completes and its ATT transaction times out (30 s).
final class ControlPointResponseGate: PacketChannel {
    private let inner: any PacketChannel
    private var swallowing = false
    /// Responses dropped so far.
    private(set) var swallowed = 0

    init(_ inner: any PacketChannel) { self.inner = inner }

    var pollDescriptor: Int32 { inner.pollDescriptor }
    var isOpen: Bool { inner.isOpen }

    func swallowNextResponse() { swallowing = true }

    func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        // 0x13 Write Response, 0x19 Execute Write Response, 0x01 Error Response.
        if swallowing, let opcode = message.first, opcode == 0x13 || opcode == 0x19 || opcode == 0x01 {
            swallowing = false
            swallowed += 1
            return .sent
        }
        return try inner.send(message)
    }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        try inner.receive(into: buffer)
    }

    func close() { inner.close() }
}
