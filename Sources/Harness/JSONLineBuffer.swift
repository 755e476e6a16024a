/// One JSON object line built in a byte buffer that is kept: once its
/// capacity has grown to the longest line, formatting a line allocates
/// nothing (the `events` stream formats one per notification). Strings come
/// in as UTF-8 bytes and are escaped as `HarnessJSON.string` escapes a
/// String (the same bytes out): `"` and `\`, `\n` `\r` `\t`, every other
/// C0, DEL and C1 control as `\u00xx`, invalid UTF-8 as U+FFFD.
struct JSONLineBuffer {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Starts a new line: `{`.
    mutating func begin() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(0x7B)
        needsComma = false
    }

    /// Ends the line: `}` and a newline.
    mutating func end() {
        bytes.append(0x7D)
        bytes.append(0x0A)
    }

    /// `"name":` (a name needs no escaping).
    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(0x2C) }
        needsComma = true
        bytes.append(0x22)
        append(name)
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// A string value that needs no escaping (names the code chose).
    mutating func string(_ value: StaticString) {
        bytes.append(0x22)
        append(value)
        bytes.append(0x22)
    }

    /// Bytes as they are (`null`, `true`, `[`...).
    mutating func raw(_ value: StaticString) { append(value) }

    /// A JSON string of UTF-8 bytes, escaped.
    mutating func string(_ utf8: UnsafeRawBufferPointer) {
        bytes.append(0x22)
        var iterator = utf8.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                appendEscaped(Unicode.UTF8.decode(encoded))
            case .error:
                appendEscaped("\u{FFFD}")
            case .emptyInput:
                bytes.append(0x22)
                return
            }
        }
    }

    /// A decimal number.
    mutating func number(_ value: UInt64) { Self.appendDecimal(value, to: &bytes) }

    /// The decimal digits of `value`, without going through a String (the
    /// harness's motor lines use it too).
    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        var scale: UInt64 = 1
        while scale <= value / 10 { scale *= 10 }
        var rest = value
        while scale > 0 {
            out.append(UInt8(truncatingIfNeeded: rest / scale) + 0x30)
            rest %= scale
            scale /= 10
        }
    }

    private mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendEscaped(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        switch v {
        case 0x22: bytes.append(0x5C); bytes.append(0x22)
        case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
        case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
        case 0x0D: bytes.append(0x5C); bytes.append(0x72)
        case 0x09: bytes.append(0x5C); bytes.append(0x74)
        case 0x00..<0x20, 0x7F..<0xA0:
            // \u00xx, lower-case hex as EscapedText writes it.
            bytes.append(0x5C); bytes.append(0x75); bytes.append(0x30); bytes.append(0x30)
            bytes.append(Self.hex(UInt8(v >> 4)))
            bytes.append(Self.hex(UInt8(v & 0xF)))
        case 0..<0x80:
            bytes.append(UInt8(v))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (v >> 6)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (v >> 12)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (v >> 18)))
            bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }
}
