import HAL
import TextFormat

/// How text from outside (phone values, file names, hex the user typed) is
/// shown: control characters escaped, so a value can neither end the line
/// nor drive the terminal (ESC sequences, C1 controls).
public enum QuotedText {
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// Quoted with escapes when valid UTF-8, else `hex:...`.
    static func show(_ bytes: [UInt8]) -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else { return "hex:" + HexFormat.compact(bytes) }
        return "\"" + escaped(s, quote: true) + "\""
    }

    /// `s` with `\n`, `\r`, `\t`, `\\` and every other C0, DEL or C1
    /// control as `\u{1b}`; with `quote`, `"` as `\"` too.
    public static func escaped(_ s: String, quote: Bool = false) -> String {
        EscapedText.escaped(s, style: .swift, quote: quote, backslash: true)
    }
}
