/// Find By Type Value Request (0x06): attributes of a 16-bit type whose value
/// equals `value` (GATT uses it to discover a primary service by UUID).
public struct ATTFindByTypeValueRequest: ATTPDUProtocol {
    public static let opcode = ATTOpcode.findByTypeValueRequest
    public var range: ATTHandleRange
    public var type: UInt16
    public var value: UnsafeRawBufferPointer

    public init(range: ATTHandleRange, type: UInt16, value: UnsafeRawBufferPointer) {
        self.range = range
        self.type = type
        self.value = value
    }

    public var length: Int { 7 + value.count }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(range.start)
        w.u16(range.end)
        w.u16(type)
        w.bytes(value)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(6, minimum: 7)
        range = ATTHandleRange(start: r.u16(), end: r.u16())
        type = r.u16()
        value = r.rest()
    }
}

/// Find By Type Value Response (0x07): (found handle, group end handle) pairs.
public struct ATTFindByTypeValueResponse: ATTPDUProtocol {
    public static let opcode = ATTOpcode.findByTypeValueResponse
    /// Raw pairs; a non-zero multiple of 4 bytes.
    public var data: UnsafeRawBufferPointer

    public init(data: UnsafeRawBufferPointer) { self.data = data }

    public var length: Int { 1 + data.count }
    public func encodeParameters(into w: inout ATTWriter) { w.bytes(data) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        guard r.remaining > 0, r.remaining % 4 == 0 else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .listLength)
        }
        data = r.rest()
    }

    public var count: Int { data.count / 4 }
    public subscript(i: Int) -> ATTHandleRange {
        let o = i * 4
        return ATTHandleRange(
            start: UInt16(data[o]) | UInt16(data[o + 1]) << 8,
            end: UInt16(data[o + 2]) | UInt16(data[o + 3]) << 8)
    }
}
