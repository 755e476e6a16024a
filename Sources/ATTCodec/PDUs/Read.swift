/// Read Request (0x0A).
public struct ATTReadRequest: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.readRequest
    public var handle: UInt16
    public init(handle: UInt16) { self.handle = handle }
    public var length: Int { 3 }
    public func encodeParameters(into w: inout ATTWriter) { w.u16(handle) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(2)
        handle = r.u16()
    }
}

/// Read Response (0x0B): the value, or its first ATT_MTU-1 bytes.
public struct ATTReadResponse: ATTPDUProtocol {
    public static let opcode = ATTOpcode.readResponse
    public var value: UnsafeRawBufferPointer
    public init(value: UnsafeRawBufferPointer) { self.value = value }
    public var length: Int { 1 + value.count }
    public func encodeParameters(into w: inout ATTWriter) { w.bytes(value) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) { value = r.rest() }
}
