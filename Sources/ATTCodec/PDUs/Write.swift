/// Write Request (0x12): write `value` to `handle`; answered by a Write Response.
public struct ATTWriteRequest: ATTHandleValueShape {
    public static let opcode = ATTOpcode.writeRequest
    public var handle: UInt16
    public var value: UnsafeRawBufferPointer
    public init(handle: UInt16, value: UnsafeRawBufferPointer) {
        self.handle = handle
        self.value = value
    }
}

/// Write Response (0x13): no parameters.
public struct ATTWriteResponse: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.writeResponse
    public init() {}
    public var length: Int { 1 }
    public func encodeParameters(into w: inout ATTWriter) {}
    public init(parameters r: inout ATTReader) throws(ATTPDUError) { try r.requireExactly(0) }
}

/// Write Command (0x52): write without response.
public struct ATTWriteCommand: ATTHandleValueShape {
    public static let opcode = ATTOpcode.writeCommand
    public var handle: UInt16
    public var value: UnsafeRawBufferPointer
    public init(handle: UInt16, value: UnsafeRawBufferPointer) {
        self.handle = handle
        self.value = value
    }
}

/// Signed Write Command (0xD2): a Write Command with a 12-byte authentication
/// signature. The watch never verifies signatures; it ignores these.
public struct ATTSignedWriteCommand: ATTPDUProtocol {
    public static let opcode = ATTOpcode.signedWriteCommand
    public var handle: UInt16
    public var value: UnsafeRawBufferPointer
    /// 12 bytes: sign counter (4) and MAC (8).
    public var signature: UnsafeRawBufferPointer
    public init(handle: UInt16, value: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) {
        precondition(signature.count == 12, "ATT signature is 12 bytes")
        self.handle = handle
        self.value = value
        self.signature = signature
    }
    public var length: Int { 3 + value.count + 12 }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(handle)
        w.bytes(value)
        w.bytes(signature)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(14, minimum: 15)
        handle = r.u16()
        value = r.take(r.remaining - 12)
        signature = r.rest()
    }
}
