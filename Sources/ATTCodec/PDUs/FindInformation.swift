/// Find Information Request (0x04): handles and types of attributes in a range.
public struct ATTFindInformationRequest: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.findInformationRequest
    public var range: ATTHandleRange
    public init(range: ATTHandleRange) { self.range = range }
    public var length: Int { 5 }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(range.start)
        w.u16(range.end)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(4)
        range = ATTHandleRange(start: r.u16(), end: r.u16())
    }
}

/// Find Information Response (0x05): (handle, type) pairs, all 16-bit
/// (format 1) or all 128-bit (format 2) UUIDs.
public struct ATTFindInformationResponse: ATTPDUProtocol {
    public static let opcode = ATTOpcode.findInformationResponse

    public enum Format: UInt8, Sendable {
        case uuid16 = 1, uuid128 = 2
        public var elementLength: Int { self == .uuid16 ? 4 : 18 }
    }

    public var format: Format
    /// The raw pairs; `data.count` is a non-zero multiple of `format.elementLength`.
    public var data: UnsafeRawBufferPointer

    public init(format: Format, data: UnsafeRawBufferPointer) {
        self.format = format
        self.data = data
    }

    public var length: Int { 2 + data.count }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u8(format.rawValue)
        w.bytes(data)
    }

    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(1, minimum: 2)
        guard let f = Format(rawValue: r.u8()) else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .format)
        }
        format = f
        guard r.remaining > 0, r.remaining % f.elementLength == 0 else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .listLength)
        }
        data = r.rest()
    }

    public var count: Int { data.count / format.elementLength }

    public struct Entry: Hashable, Sendable {
        public var handle: UInt16
        public var type: BluetoothUUID
    }

    public subscript(i: Int) -> Entry {
        let n = format.elementLength
        let e = UnsafeRawBufferPointer(rebasing: data[(i * n)..<(i * n + n)])
        let uuid = BluetoothUUID(littleEndian: UnsafeRawBufferPointer(rebasing: e[2...]))!
        return Entry(handle: UInt16(e[0]) | UInt16(e[1]) << 8, type: uuid)
    }
}
