/// Read By Type Request (0x08): values of attributes of a type in a range
/// (GATT uses it to discover characteristics with type 0x2803).
public struct ATTReadByTypeRequest: ATTTypedRangeShape, Hashable, Sendable {
    public static let opcode = ATTOpcode.readByTypeRequest
    public var range: ATTHandleRange
    public var type: BluetoothUUID

    public init(range: ATTHandleRange, type: BluetoothUUID) {
        self.range = range
        self.type = type
    }
}

/// Read By Type Response (0x09): (handle, value) pairs of equal length.
public struct ATTReadByTypeResponse: ATTPDUProtocol {
    public static let opcode = ATTOpcode.readByTypeResponse
    /// Length of each (handle, value) pair, at least 2.
    public var elementLength: Int
    public var data: UnsafeRawBufferPointer

    public init(elementLength: Int, data: UnsafeRawBufferPointer) {
        self.elementLength = elementLength
        self.data = data
    }

    public var length: Int { 2 + data.count }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u8(UInt8(elementLength))
        w.bytes(data)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(1, minimum: 2)
        elementLength = Int(r.u8())
        guard elementLength >= 2 else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .elementLength)
        }
        guard r.remaining > 0, r.remaining % elementLength == 0 else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .listLength)
        }
        data = r.rest()
    }

    public var count: Int { data.count / elementLength }

    public struct Entry {
        public var handle: UInt16
        public var value: UnsafeRawBufferPointer
    }

    public subscript(i: Int) -> Entry {
        let o = i * elementLength
        return Entry(
            handle: UInt16(data[o]) | UInt16(data[o + 1]) << 8,
            value: UnsafeRawBufferPointer(rebasing: data[(o + 2)..<(o + elementLength)]))
    }
}
