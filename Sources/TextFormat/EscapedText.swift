/// Text from outside (a board or settings file, a capture, the command line,
/// the phone) echoed into an error message, a log line or a JSON line: the
/// control characters (C0, DEL, C1) are escaped, so a value can neither end
/// a C string (NUL), nor break one-problem-per-line output (a newline), nor
/// drive the terminal (ESC, C1). The one place this rule is written down.
public enum EscapedText {
    /// How a control character without a short form is spelled.
    public enum Style: Sendable {
        /// `\u{1b}`: messages for people (decode, the command line).
        case swift
        /// `\u001b`: JSON strings (harness lines, decode --json, board-file echoes).
        case json
    }

    /// C0, DEL and C1.
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }

    /// Appends `scalar`, escaped when it is a control character (`\n`, `\r`,
    /// `\t` short), a `"` when `quote`, or a `\` when `backslash`.
    public static func append(
        _ scalar: Unicode.Scalar, to out: inout String, style: Style, quote: Bool, backslash: Bool
    ) {
        switch scalar {
        case "\"" where quote: out += "\\\""
        case "\\" where backslash: out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where isControl(scalar):
            let h = String(scalar.value, radix: 16)
            switch style {
            case .swift: out += "\\u{" + h + "}"
            case .json: out += "\\u" + String(repeating: "0", count: max(0, 4 - h.count)) + h
            }
        default: out.unicodeScalars.append(scalar)
        }
    }

    /// `s` with its control characters escaped (and `"` / `\` as asked).
    public static func escaped(_ s: String, style: Style, quote: Bool, backslash: Bool) -> String {
        var out = ""
        for scalar in s.unicodeScalars { append(scalar, to: &out, style: style, quote: quote, backslash: backslash) }
        return out
    }
}
