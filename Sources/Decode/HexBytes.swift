import HAL
/// Parses hex bytes as people paste them: "00 01 0a", "00:01:0A", "00010a".
public enum HexBytes {
    public static func parse(_ text: String) throws(WristCoreFailure) -> [UInt8] {
        var digits: [UInt8] = []
        var offset = 0
        for c in text.utf8 {
            defer { offset += 1 }
            if c == UInt8(ascii: " ") || c == UInt8(ascii: ":") || c == UInt8(ascii: ",") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") { continue }
            guard let v = hexValue(c) else {
                throw WristCoreFailure("'\(Character(Unicode.Scalar(c)))' at character \(offset) is not a hex digit", exitCode: WristCoreExit.usageOrConfiguration)
            }
            digits.append(v)
        }
        guard digits.count % 2 == 0 else { throw WristCoreFailure("odd number of hex digits (\(digits.count))", exitCode: WristCoreExit.usageOrConfiguration) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
