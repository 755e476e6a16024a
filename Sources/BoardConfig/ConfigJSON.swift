/// A JSON value from a board file, with the line it starts on so every error
/// can say `file:line`. Board files are JSON plus `//` line comments, so the
/// shipped files can explain their wiring.
import TextFormat
public indirect enum ConfigJSON: Sendable {
    case object([(key: String, value: ConfigJSON, line: Int)], line: Int)
    case array([ConfigJSON], line: Int)
    case string(String, line: Int)
    case number(Double, text: String, line: Int)
    case bool(Bool, line: Int)
    case null(line: Int)

    public var line: Int {
        switch self {
        case .object(_, let l), .array(_, let l), .string(_, let l), .number(_, _, let l), .bool(_, let l), .null(let l): l
        }
    }

    /// A short name of the kind of value, for "expected X, found Y" messages.
    public var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string(let s, _): "the string \(BoardText.quoted(s))"
        case .number(_, let t, _): "the number \(t)"
        case .bool(let b, _): "\(b)"
        case .null: "null"
        }
    }
}

/// A syntax error with its line and column.
public struct ConfigSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// A small recursive-descent parser for JSON with `//` and `/* */` comments.
public struct ConfigJSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    public init(_ text: String) { bytes = Array(text.utf8) }

    public static func parse(_ text: String) throws(ConfigSyntaxError) -> ConfigJSON {
        var parser = ConfigJSONParser(text)
        let value = try parser.value(depth: 0)
        try parser.skipTrivia()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the end of the document") }
        return value
    }

    private func error(_ message: String) -> ConfigSyntaxError {
        ConfigSyntaxError(line: line, column: index - lineStart + 1, message: message)
    }

    private mutating func skipTrivia() throws(ConfigSyntaxError) {
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\n") {
                index += 1; line += 1; lineStart = index
            } else if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                index += 1
            } else if c == UInt8(ascii: "/") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if c == UInt8(ascii: "/") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while true {
                    guard index + 1 < bytes.count else { throw error("unterminated /* comment") }
                    if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") { index += 2; break }
                    if bytes[index] == UInt8(ascii: "\n") { line += 1; lineStart = index + 1 }
                    index += 1
                }
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(ConfigSyntaxError) -> ConfigJSON {
        guard depth < 32 else { throw error("nested too deeply") }
        try skipTrivia()
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        let startLine = line
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: ConfigJSON, line: Int)] = []
            try skipTrivia()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, line: startLine) }
            while true {
                try skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a field name in double quotes") }
                let keyLine = line
                let key = try string()
                try skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after \(BoardText.quoted(key))") }
                index += 1
                let v = try value(depth: depth + 1)
                members.append((key, v, keyLine))
                try skipTrivia()
                guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    try skipTrivia()
                    if index < bytes.count && bytes[index] == UInt8(ascii: "}") { throw error("trailing ',' before '}'") }
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, line: startLine) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [ConfigJSON] = []
            try skipTrivia()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements, line: startLine) }
            while true {
                elements.append(try value(depth: depth + 1))
                try skipTrivia()
                guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    try skipTrivia()
                    if index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw error("trailing ',' before ']'") }
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements, line: startLine) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string(), line: startLine)
        case UInt8(ascii: "t"):
            try literal("true"); return .bool(true, line: startLine)
        case UInt8(ascii: "f"):
            try literal("false"); return .bool(false, line: startLine)
        case UInt8(ascii: "n"):
            try literal("null"); return .null(line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            index += 1
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let d = Double(text) else { throw error("'\(text)' is not a number") }
            return .number(d, text: text, line: startLine)
        default:
            throw error("unexpected character '\(character(at: index))'")
        }
    }

    /// The character starting at byte `i`, escaped (a lone or invalid UTF-8
    /// byte shows as U+FFFD).
    private func character(at i: Int) -> String {
        let end = min(bytes.count, i + 4)
        let scalar = String(decoding: bytes[i..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        return BoardText.escaped(String(scalar))
    }

    private static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
            || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    }

    private mutating func literal(_ word: String) throws(ConfigSyntaxError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("unexpected word (strings need double quotes)")
        }
        index += w.count
    }

    private mutating func string() throws(ConfigSyntaxError) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\n"):
                throw error("line break inside a string")
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(e)
                case UInt8(ascii: "\\"): out.append(e)
                case UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let v = IntegerText.integer(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16, in: 0...0xFFFF),
                        let scalar = Unicode.Scalar(UInt32(v))
                    else { throw error("bad \\u escape") }
                    index += 4
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("unknown escape '\\\(character(at: index - 1))'")
                }
            default:
                out.append(c)
            }
        }
    }
}
