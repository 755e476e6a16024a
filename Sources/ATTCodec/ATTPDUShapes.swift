/// Parameter layouts that several PDUs share. A PDU keeps its own typed
/// struct (one per opcode) and adopts its shape for the codec, so each
/// layout's encoding and validation is written once.

/// Parameters: a handle, then the rest of the PDU as the value
/// (notification, indication, write request, write command).
public protocol ATTHandleValueShape: ATTPDUProtocol {
    var handle: UInt16 { get }
    var value: UnsafeRawBufferPointer { get }
    init(handle: UInt16, value: UnsafeRawBufferPointer)
}

extension ATTHandleValueShape {
    public var length: Int { 3 + value.count }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(handle)
        w.bytes(value)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(2, minimum: 3)
        let handle = r.u16()
        self.init(handle: handle, value: r.rest())
    }
}

/// Parameters: a handle, a value offset, then the value (prepare write request and response).
public protocol ATTHandleOffsetValueShape: ATTPDUProtocol {
    var handle: UInt16 { get }
    var offset: UInt16 { get }
    var value: UnsafeRawBufferPointer { get }
    init(handle: UInt16, offset: UInt16, value: UnsafeRawBufferPointer)
}

extension ATTHandleOffsetValueShape {
    public var length: Int { 5 + value.count }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(handle)
        w.u16(offset)
        w.bytes(value)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(4, minimum: 5)
        let handle = r.u16()
        let offset = r.u16()
        self.init(handle: handle, offset: offset, value: r.rest())
    }
}

/// Parameters: a handle range, then a 16- or 128-bit attribute type
/// (read by type request, read by group type request).
public protocol ATTTypedRangeShape: ATTPDUProtocol {
    var range: ATTHandleRange { get }
    var type: BluetoothUUID { get }
    init(range: ATTHandleRange, type: BluetoothUUID)
}

extension ATTTypedRangeShape {
    public var length: Int { 5 + type.encodedLength }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u16(range.start)
        w.u16(range.end)
        w.uuid(type)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(6, minimum: 7)
        let range = ATTHandleRange(start: r.u16(), end: r.u16())
        guard r.remaining == 2 || r.remaining == 16, let u = BluetoothUUID(littleEndian: r.rest()) else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .uuidLength)
        }
        self.init(range: range, type: u)
    }
}

/// Parameters: an element length, then a non-empty list of elements of that
/// length (read by type response, read by group type response).
public protocol ATTElementListShape: ATTPDUProtocol {
    /// The shortest element the PDU allows (its fixed handle fields).
    static var minimumElementLength: Int { get }
    var elementLength: Int { get }
    var data: UnsafeRawBufferPointer { get }
    init(elementLength: Int, data: UnsafeRawBufferPointer)
}

extension ATTElementListShape {
    public var length: Int { 2 + data.count }
    public func encodeParameters(into w: inout ATTWriter) {
        w.u8(UInt8(elementLength))
        w.bytes(data)
    }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.require(1, minimum: 2)
        let elementLength = Int(r.u8())
        guard elementLength >= Self.minimumElementLength else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .elementLength)
        }
        guard r.remaining > 0, r.remaining % elementLength == 0 else {
            throw .invalidField(opcode: Self.opcode.rawValue, field: .listLength)
        }
        self.init(elementLength: elementLength, data: r.rest())
    }

    /// How many elements the list holds.
    public var count: Int { data.count / elementLength }
}
