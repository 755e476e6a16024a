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
public struct ATTReadByTypeResponse: ATTElementListShape {
    public static let opcode = ATTOpcode.readByTypeResponse
    public static let minimumElementLength = 2
    /// Length of each (handle, value) pair, at least 2.
    public var elementLength: Int
    public var data: UnsafeRawBufferPointer

    public init(elementLength: Int, data: UnsafeRawBufferPointer) {
        self.elementLength = elementLength
        self.data = data
    }

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
