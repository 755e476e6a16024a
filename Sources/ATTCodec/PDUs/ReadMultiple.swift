/// Read Multiple Request (0x0E): two or more handles. The watch's server
/// answers it with "Request Not Supported"; it is decoded so that the
/// decoder tool and the fuzzer cover it.
public struct ATTReadMultipleRequest: ATTPDUProtocol {
    public static let opcode = ATTOpcode.readMultipleRequest
    /// Raw little-endian handles, at least two.
    public var handles: UnsafeRawBufferPointer
    public init(handles: UnsafeRawBufferPointer) { self.handles = handles }
    public var length: Int { 1 + handles.count }
    public func encodeParameters(into w: inout ATTWriter) { w.bytes(handles) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(4, minimum: 5)
        guard r.remaining % 2 == 0 else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .listLength)
        }
        handles = r.rest()
    }
    public var count: Int { handles.count / 2 }
    public subscript(i: Int) -> UInt16 { UInt16(handles[2 * i]) | UInt16(handles[2 * i + 1]) << 8 }
}

/// Read Multiple Response (0x0F): the concatenated values.
public struct ATTReadMultipleResponse: ATTPDUProtocol {
    public static let opcode = ATTOpcode.readMultipleResponse
    public var values: UnsafeRawBufferPointer
    public init(values: UnsafeRawBufferPointer) { self.values = values }
    public var length: Int { 1 + values.count }
    public func encodeParameters(into w: inout ATTWriter) { w.bytes(values) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) { values = r.rest() }
}
