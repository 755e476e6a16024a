/// Read Blob Request (0x0C): part of a long value, from `offset`.
public struct ATTReadBlobRequest: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.readBlobRequest
    public var handle: UInt16
    public var offset: UInt16
    public init(handle: UInt16, offset: UInt16) {
        self.handle = handle
        self.offset = offset
    }
    public var length: Int { 5 }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(handle)
        w.u16(offset)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(4)
        handle = r.u16()
        offset = r.u16()
    }
}

/// Read Blob Response (0x0D).
public struct ATTReadBlobResponse: ATTPDUProtocol {
    public static let opcode = ATTOpcode.readBlobResponse
    public var value: UnsafeRawBufferPointer
    public init(value: UnsafeRawBufferPointer) { self.value = value }
    public var length: Int { 1 + value.count }
    public func encodeParameters(into w: inout ATTWriter) { w.bytes(value) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) { value = r.rest() }
}
