import TextFormat

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
            NumberText.format("ATT PDU 0x%x truncated: %d bytes, needs at least %d", Int64(op), Int64(actual), Int64(min))
        case .wrongLength(let op, let expected, let actual):
            NumberText.format("ATT PDU 0x%x has %d bytes, must have %d", Int64(op), Int64(actual), Int64(expected))
        case .invalidField(let op, let field):
            NumberText.format("ATT PDU 0x%x: invalid ", Int64(op)) + field.rawValue
        case .exceedsMTU(let length, let mtu): NumberText.format("ATT PDU of %d bytes exceeds ATT_MTU %d", Int64(length), Int64(mtu))
        }
    }
}
