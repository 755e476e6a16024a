import HAL
import TextFormat

/// How board-file text is echoed in error messages: escaped the way JSON
/// writes it, so a value can neither cut stderr (a NUL ends a C string),
/// nor break the one-problem-per-line output (a newline), nor drive the
/// terminal (ESC, C1 controls).
public enum BoardText {
    /// `s` with `"`, `\`, `\n`, `\r`, `\t` and every other C0, DEL or C1
    /// control escaped JSON-style (`\u001b`, `\u0000`).
    /// Cut after `maxEchoed` characters ("..." marks the cut): a 20 MB app
    /// id in a settings file is a problem line, not a 41 MB one.
    public static func escaped(_ s: String) -> String {
        var out = ""
        var count = 0
        for scalar in s.unicodeScalars {
            if count == maxEchoed { out += "..."; break }
            append(scalar, to: &out, quote: true)
            count += 1
        }
        return out
    }

    /// How many characters of a value a problem line echoes.
    public static let maxEchoed = 48

    /// `"value"`, escaped.
    public static func quoted(_ s: String) -> String { "\"" + escaped(s) + "\"" }

    /// Only the control characters of `s` escaped: the last guard on a whole
    /// message, whose values were already quoted (quotes and backslashes
    /// there are the message's own).
    public static func controlsEscaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            if isControl(scalar) { append(scalar, to: &out, quote: false) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool { EscapedText.isControl(s) }

    static func append(_ scalar: Unicode.Scalar, to out: inout String, quote: Bool) {
        EscapedText.append(scalar, to: &out, style: .json, quote: quote, backslash: quote)
    }
}
