import HAL
import TextFormat
/// Parses hex bytes as people paste them: "00 01 0a", "00:01:0A", "00010a".
public enum HexBytes {
    public static func parse(_ text: String) throws(WristCoreFailure) -> [UInt8] {
        var digits: [UInt8] = []
        var offset = 0
        for c in text.unicodeScalars {
            defer { offset += 1 }
            if c == " " || c == ":" || c == "," || c == "\n" || c == "\t" { continue }
            guard c.isASCII, let v = hexValue(UInt8(c.value)) else {
                // Echoed escaped: what was typed may be a control character.
                throw WristCoreFailure(
                    "'\(QuotedText.escaped(String(c)))' at character \(offset) is not a hex digit",
                    exitCode: WristCoreExit.usageOrConfiguration)
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
