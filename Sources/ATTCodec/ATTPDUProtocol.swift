import TextFormat

/// ATT constants.
public enum ATT {
    /// The default (and minimum) ATT_MTU on an LE link.
    public static let defaultMTU = 23
    /// The largest ATT_MTU this stack negotiates (the largest an attribute
    /// value may be plus an opcode and handles: 512 + 5).
    public static let maximumMTU = 517
    /// The largest attribute value.
    public static let maximumAttributeValueLength = 512
    /// The ATT transaction timeout (Vol 3, Part F, 3.3.3).
    public static let transactionTimeout: Duration = .seconds(30)
}

/// One typed ATT PDU: how it is laid out after its opcode byte.
///
/// Decoded PDUs that carry values reference the received bytes
/// (`UnsafeRawBufferPointer`) instead of copying them: they are valid only
/// while the buffer they were decoded from is (for the bearer, during the
/// handler call that delivers them).
public protocol ATTPDUProtocol {
    static var opcode: ATTOpcode { get }
    /// The type's name (`ATTReadRequest`) for messages: Embedded Swift cannot
    /// print a metatype.
    static var name: String { get }
    /// Length of the encoded PDU, opcode included.
    var length: Int { get }
    /// Writes the parameters (everything after the opcode).
    func encodeParameters(into writer: inout ATTWriter)
    /// Decodes the parameters (everything after the opcode).
    init(parameters reader: inout ATTReader) throws(ATTPDUError)
}

extension ATTPDUProtocol {
    /// "ATT" and the opcode's name without spaces: every PDU type is named so.
    public static var name: String {
        "ATT" + String(decoding: opcode.description.utf8.filter { $0 != UInt8(ascii: " ") }, as: UTF8.self)
    }

    /// Encodes opcode and parameters into `buffer`; fails when the PDU is
    /// longer than `mtu` or than the buffer. Returns the length written.
    @inlinable
    public func encode(into buffer: UnsafeMutableRawBufferPointer, mtu: Int) throws(ATTPDUError) -> Int {
        let n = length
        if n > mtu || n > buffer.count { throw .exceedsMTU(length: n, mtu: Swift.min(mtu, buffer.count)) }
        var w = ATTWriter(buffer)
        w.u8(Self.opcode.rawValue)
        encodeParameters(into: &w)
        assert(w.count == n, "\(Self.name).length disagrees with encodeParameters")
        return w.count
    }

    /// The encoded PDU as an array (allocates: for tests, tools and the simulator).
    public func encoded(mtu: Int = ATT.maximumMTU) throws(ATTPDUError) -> [UInt8] {
        let n = length
        if n > mtu { throw .exceedsMTU(length: n, mtu: mtu) }
        return [UInt8](unsafeUninitializedCapacity: n) { buf, count in
            var w = ATTWriter(UnsafeMutableRawBufferPointer(buf))
            w.u8(Self.opcode.rawValue)
            encodeParameters(into: &w)
            count = w.count
        }
    }

    /// Decodes a whole PDU (opcode included) that must have this type's opcode.
    public static func decode(_ pdu: UnsafeRawBufferPointer) throws(ATTPDUError) -> Self {
        guard let first = pdu.first else { throw .empty }
        guard first == opcode.rawValue else {
            throw .invalidField(opcode: first, field: .format)
        }
        var r = ATTReader(UnsafeRawBufferPointer(rebasing: pdu[1...]), opcode: first)
        return try Self(parameters: &r)
    }
}

/// A handle range as carried by discovery requests.
public struct ATTHandleRange: Hashable, Sendable, CustomStringConvertible {
    public var start: UInt16
    public var end: UInt16
    public init(start: UInt16, end: UInt16) {
        self.start = start
        self.end = end
    }
    public static let all = ATTHandleRange(start: 0x0001, end: 0xFFFF)
    /// A valid request range: start is not 0 and start <= end (Vol 3, Part F, 3.4.3.1).
    public var isValid: Bool { start != 0 && start <= end }
    public func contains(_ handle: UInt16) -> Bool { handle >= start && handle <= end }
    public func overlaps(_ other: ATTHandleRange) -> Bool { start <= other.end && other.start <= end }
    public var description: String { NumberText.format("0x%x-0x%x", Int64(start), Int64(end)) }
}
