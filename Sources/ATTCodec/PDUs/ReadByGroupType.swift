/// Read By Group Type Request (0x10): grouping attributes of a type
/// (GATT uses it to discover all primary services, type 0x2800).
public struct ATTReadByGroupTypeRequest: ATTTypedRangeShape, Hashable, Sendable {
    public static let opcode = ATTOpcode.readByGroupTypeRequest
    public var range: ATTHandleRange
    public var type: BluetoothUUID

    public init(range: ATTHandleRange, type: BluetoothUUID) {
        self.range = range
        self.type = type
    }
}

/// Read By Group Type Response (0x11): (handle, end group handle, value) triples.
public struct ATTReadByGroupTypeResponse: ATTElementListShape {
    public static let opcode = ATTOpcode.readByGroupTypeResponse
    public static let minimumElementLength = 4
    /// Length of each triple, at least 4.
    public var elementLength: Int
    public var data: UnsafeRawBufferPointer

    public init(elementLength: Int, data: UnsafeRawBufferPointer) {
        self.elementLength = elementLength
        self.data = data
    }

    public struct Entry {
        public var range: ATTHandleRange
        public var value: UnsafeRawBufferPointer
    }

    public subscript(i: Int) -> Entry {
        let o = i * elementLength
        return Entry(
            range: ATTHandleRange(
                start: UInt16(data[o]) | UInt16(data[o + 1]) << 8,
                end: UInt16(data[o + 2]) | UInt16(data[o + 3]) << 8),
            value: UnsafeRawBufferPointer(rebasing: data[(o + 4)..<(o + elementLength)]))
    }
}
