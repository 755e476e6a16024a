/// Prepare Write Request (0x16): queue part of a long write. The watch's
/// server answers "Request Not Supported" (it has no long writable values).
public struct ATTPrepareWriteRequest: ATTHandleOffsetValueShape {
    public static let opcode = ATTOpcode.prepareWriteRequest
    public var handle: UInt16
    public var offset: UInt16
    public var value: UnsafeRawBufferPointer
    public init(handle: UInt16, offset: UInt16, value: UnsafeRawBufferPointer) {
        self.handle = handle
        self.offset = offset
        self.value = value
    }
}

/// Prepare Write Response (0x17): echoes the request.
public struct ATTPrepareWriteResponse: ATTHandleOffsetValueShape {
    public static let opcode = ATTOpcode.prepareWriteResponse
    public var handle: UInt16
    public var offset: UInt16
    public var value: UnsafeRawBufferPointer
    public init(handle: UInt16, offset: UInt16, value: UnsafeRawBufferPointer) {
        self.handle = handle
        self.offset = offset
        self.value = value
    }
}

/// Execute Write Request (0x18): 0 cancels the prepared writes, 1 writes them.
public struct ATTExecuteWriteRequest: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.executeWriteRequest
    public enum Flags: UInt8, Sendable {
        case cancelAll = 0x00
        case writeAll = 0x01
    }
    public var flags: Flags
    public init(flags: Flags) { self.flags = flags }
    public var length: Int { 2 }
    public func encodeParameters(into w: inout ATTWriter) { w.u8(flags.rawValue) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(1)
        guard let f = Flags(rawValue: r.u8()) else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .flags)
        }
        flags = f
    }
}

/// Execute Write Response (0x19): no parameters.
public struct ATTExecuteWriteResponse: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.executeWriteResponse
    public init() {}
    public var length: Int { 1 }
    public func encodeParameters(into w: inout ATTWriter) {}
    public init(parameters r: inout ATTReader) throws(ATTPDUError) { try r.requireExactly(0) }
}
