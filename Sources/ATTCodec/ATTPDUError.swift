/// Why bytes could not be decoded as, or encoded into, an ATT PDU.
///
/// Decoding never traps: every malformed input from the phone ends here.
public enum ATTPDUError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Zero bytes: no opcode.
    case empty
    /// The PDU is shorter than its opcode requires.
    case truncated(opcode: UInt8, minimumLength: Int, actualLength: Int)
    /// A fixed-size PDU has extra or missing bytes.
    case wrongLength(opcode: UInt8, expectedLength: Int, actualLength: Int)
    /// A field holds a value the specification does not allow
    /// (a Find Information format other than 1 or 2, a list whose length is
    /// not a multiple of its element size, an empty list, a UUID of a length
    /// other than 2 or 16 bytes ...).
    case invalidField(opcode: UInt8, field: Field)
    /// The PDU is longer than the link's ATT_MTU.
    case exceedsMTU(length: Int, mtu: Int)

    public enum Field: String, Sendable {
        case format, elementLength, listLength, uuidLength, flags, handle, mtu, signature
    }

    public var description: String {
        switch self {
        case .empty: "empty ATT PDU"
        case .truncated(let op, let min, let actual):
            "ATT PDU 0x\(String(op, radix: 16)) truncated: \(actual) bytes, needs at least \(min)"
        case .wrongLength(let op, let expected, let actual):
            "ATT PDU 0x\(String(op, radix: 16)) has \(actual) bytes, must have \(expected)"
        case .invalidField(let op, let field):
            "ATT PDU 0x\(String(op, radix: 16)): invalid \(field.rawValue)"
        case .exceedsMTU(let length, let mtu): "ATT PDU of \(length) bytes exceeds ATT_MTU \(mtu)"
        }
    }
}
