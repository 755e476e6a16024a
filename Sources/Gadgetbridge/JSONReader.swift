import TextFormat

// A bounded JSON reader for what a phone writes over the UART: one value
// per line. Values are recorded in a token table and strings decoded to
// UTF-8 into a text buffer, both allocated once; the depth, value count and
// line length have fixed limits, so reading a line allocates nothing and no
// input can make it trap or recurse without bound (Fuzz/GadgetbridgeLine).
//
// It reads what Gadgetbridge's Bangle.js support writes (its
// `jsonToStringInternal`; docs/android.md), which is JavaScript more than
// JSON: the line is ISO-8859-1 (é arrives as the one byte 0xE9, or `\xe9`),
// strings take JavaScript's escapes (`\v`, octal `\20`, `\xHH`), and a
// string may come as `atob("<base64 of its Latin-1 bytes>")`. Keys may be
// bare identifiers and strings single-quoted. A raw byte that starts a
// valid UTF-8 sequence (0xC2-0xF4, which Gadgetbridge always escapes) is
// taken as UTF-8, so a sender that writes UTF-8 reads right too.

/// Why a line is not a JSON value the reader takes.
public enum JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line ended inside a value.
    case unexpectedEnd
    /// A byte no value can hold here (offset into the line).
    case unexpectedByte(UInt8, at: Int)
    /// More values than the reader keeps.
    case tooManyValues(limit: Int)
    /// Objects and arrays nested deeper than the reader goes.
    case tooDeep(limit: Int)
    /// An escape that is not JSON's or JavaScript's (offset of the backslash).
    case badEscape(at: Int)
    /// Bytes after the value (offset of the first one).
    case trailingBytes(at: Int)
    /// A line longer than the reader takes.
    case tooLong(limit: Int)

    public var description: String {
        switch self {
        case .unexpectedEnd: "the line ends inside a value"
        case .unexpectedByte(let b, let at): NumberText.format("unexpected byte 0x%02X at %d", Int64(b), Int64(at))
        case .tooManyValues(let limit): NumberText.format("more than %d values", Int64(limit))
        case .tooDeep(let limit): NumberText.format("nested deeper than %d", Int64(limit))
        case .badEscape(let at): NumberText.format("bad escape at %d", Int64(at))
        case .trailingBytes(let at): NumberText.format("bytes after the value at %d", Int64(at))
        case .tooLong(let limit): NumberText.format("longer than %d bytes", Int64(limit))
        }
    }
}

/// One value's place in the line.
public struct JSONToken: Sendable {
    public enum Kind: UInt8, Sendable {
        case object, array, string, number, bool, null
    }
    public var kind: Kind
    /// Its bytes: a string's decoded UTF-8 in the reader's text buffer; a
    /// number's text, a container's from its bracket, in the line.
    public var start: Int32
    public var count: Int32
    /// The token after this value and everything inside it.
    public var next: Int32
    /// `true` for a bool that is true.
    public var isTrue: Bool
}

/// Reads one JSON value from a line, in place. One reader serves every
/// line; the values it returns are valid until its next `read`.
public final class JSONReader {
    /// The most values (each key, string, number, container counts one) a line may hold.
    public let maxValues: Int
    /// The deepest nesting of objects and arrays.
    public let maxDepth: Int
    /// The longest line read.
    public let maxLength: Int

    private let tokens: UnsafeMutableBufferPointer<JSONToken>
    /// Decoded strings: never more than twice the line (a Latin-1 byte is
    /// two UTF-8 bytes; every escape decodes to fewer bytes than it takes).
    private let text: UnsafeMutableRawBufferPointer
    private var used = 0
    private var textUsed = 0
    private var p = UnsafeRawBufferPointer(start: nil, count: 0)
    private var i = 0

    public init(maxValues: Int = 128, maxDepth: Int = 8, maxLength: Int = 4096) {
        self.maxValues = max(1, maxValues)
        self.maxDepth = max(1, maxDepth)
        self.maxLength = max(1, maxLength)
        tokens = .allocate(capacity: self.maxValues)
        text = .allocate(byteCount: 2 * self.maxLength, alignment: 1)
    }

    deinit {
        tokens.deallocate()
        text.deallocate()
    }

    /// Reads the value that fills `line` (white space around it allowed).
    public func read(_ line: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        guard line.count <= maxLength else { throw .tooLong(limit: maxLength) }
        p = line
        i = 0
        used = 0
        textUsed = 0
        skipSpace()
        try value(depth: 0)
        skipSpace()
        if i < p.count { throw .trailingBytes(at: i) }
        return JSONValue(tokens: UnsafeBufferPointer(tokens), line: line, text: UnsafeRawBufferPointer(text), index: 0)
    }

    // MARK: - The grammar

    private func value(depth: Int) throws(JSONError) {
        guard i < p.count else { throw .unexpectedEnd }
        switch p[i] {
        case UInt8(ascii: "{"): try container(object: true, depth: depth)
        case UInt8(ascii: "["): try container(object: false, depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true", .bool, isTrue: true)
        case UInt8(ascii: "f"): try literal("false", .bool, isTrue: false)
        case UInt8(ascii: "n"): try literal("null", .null, isTrue: false)
        case UInt8(ascii: "a"): try base64String()
        default: throw .unexpectedByte(p[i], at: i)
        }
    }

    private func container(object: Bool, depth: Int) throws(JSONError) {
        guard depth < maxDepth else { throw .tooDeep(limit: maxDepth) }
        let open = i
        let index = try add(object ? .object : .array, start: i, count: 0)
        let close = UInt8(ascii: object ? "}" : "]")
        i += 1
        skipSpace()
        if i < p.count && p[i] == close {
            i += 1
        } else {
            while true {
                if object {
                    try key()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    skipSpace()
                }
                try value(depth: depth + 1)
                skipSpace()
                guard i < p.count else { throw .unexpectedEnd }
                if p[i] == close {
                    i += 1
                    break
                }
                try expect(UInt8(ascii: ","))
                skipSpace()
            }
        }
        tokens[index].count = Int32(i - open)
        tokens[index].next = Int32(used)
    }

    /// A quoted string, or a bare identifier (JavaScript's `{t:"notify"}`).
    private func key() throws(JSONError) {
        guard i < p.count else { throw .unexpectedEnd }
        if p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") { return try string() }
        let start = textUsed
        let first = i
        while i < p.count && Self.isIdentifier(p[i]) {
            text[textUsed] = p[i]
            textUsed += 1
            i += 1
        }
        if i == first { throw .unexpectedByte(p[i], at: i) }
        _ = try add(.string, start: start, count: textUsed - start)
    }

    /// Decodes a quoted string into the text buffer (its token covers the UTF-8).
    private func string() throws(JSONError) {
        let quote = p[i]
        let start = textUsed
        var r = i + 1
        while r < p.count {
            let b = p[r]
            if b == quote {
                i = r + 1
                _ = try add(.string, start: start, count: textUsed - start)
                return
            }
            if b != UInt8(ascii: "\\") {
                r = raw(at: r)
                continue
            }
            guard r + 1 < p.count else { throw .unexpectedEnd }
            let escape = p[r + 1]
            r += 2
            switch escape {
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "v"): put(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // JavaScript's octal escape: up to three digits, at most 0o377.
                var v = UInt32(escape - UInt8(ascii: "0"))
                while r < p.count, p[r] >= UInt8(ascii: "0"), p[r] <= UInt8(ascii: "7"), v * 8 + UInt32(p[r] - 48) <= 0o377 {
                    v = v * 8 + UInt32(p[r] - 48)
                    r += 1
                }
                put(scalar: v)
            case UInt8(ascii: "x"):
                guard let v = hex(at: r, digits: 2) else { throw .badEscape(at: r - 2) }
                put(scalar: v)  // a Latin-1 character
                r += 2
            case UInt8(ascii: "u"):
                guard var v = hex(at: r, digits: 4) else { throw .badEscape(at: r - 2) }
                r += 4
                if v >= 0xD800 && v < 0xDC00, r + 1 < p.count, p[r] == UInt8(ascii: "\\"), p[r + 1] == UInt8(ascii: "u"),
                    let low = hex(at: r + 2, digits: 4), low >= 0xDC00 && low < 0xE000
                {
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    r += 6
                } else if v >= 0xD800 && v < 0xE000 {
                    v = 0xFFFD  // a lone surrogate: the replacement character
                }
                put(scalar: v)
            default:
                // `\"`, `\\`, `\/`, `\'`, and JavaScript's "any other character is itself".
                r = raw(at: r - 1)
            }
        }
        throw .unexpectedEnd
    }

    /// `atob("...")`: base64 of Latin-1 bytes, decoded to UTF-8.
    private func base64String() throws(JSONError) {
        for b in "atob(".utf8 {
            guard i < p.count else { throw .unexpectedEnd }
            guard p[i] == b else { throw .unexpectedByte(p[i], at: i) }
            i += 1
        }
        guard i < p.count else { throw .unexpectedEnd }
        let quote = p[i]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw .unexpectedByte(quote, at: i) }
        let start = textUsed
        var bits: UInt32 = 0
        var count = 0
        i += 1
        while true {
            guard i < p.count else { throw .unexpectedEnd }
            let c = p[i]
            if c == quote { break }
            i += 1
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): continue
            default: throw .unexpectedByte(c, at: i - 1)
            }
            bits = bits << 6 | v
            count += 6
            if count >= 8 {
                count -= 8
                put(scalar: bits >> UInt32(count) & 0xFF)
            }
        }
        i += 1
        guard i < p.count else { throw .unexpectedEnd }
        guard p[i] == UInt8(ascii: ")") else { throw .unexpectedByte(p[i], at: i) }
        i += 1
        _ = try add(.string, start: start, count: textUsed - start)
    }

    /// Copies the raw character at `r`: ASCII, a valid UTF-8 sequence, or a
    /// Latin-1 byte (made UTF-8). Returns where the next one starts.
    private func raw(at r: Int) -> Int {
        let b = p[r]
        if b < 0x80 {
            put(b)
            return r + 1
        }
        let length = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
        if length > 0 && r + length <= p.count && Self.isUTF8Sequence(p, at: r, length: length) {
            for k in r..<(r + length) { put(p[k]) }
            return r + length
        }
        put(scalar: UInt32(b))
        return r + 1
    }

    /// Whether `length` bytes at `r` are one well-formed UTF-8 character.
    private static func isUTF8Sequence(_ p: UnsafeRawBufferPointer, at r: Int, length: Int) -> Bool {
        for k in 1..<length where p[r + k] & 0xC0 != 0x80 { return false }
        let b0 = p[r], b1 = p[r + 1]
        if b0 == 0xE0 && b1 < 0xA0 { return false }  // overlong
        if b0 == 0xED && b1 >= 0xA0 { return false }  // a surrogate
        if b0 == 0xF0 && b1 < 0x90 { return false }  // overlong
        if b0 == 0xF4 && b1 >= 0x90 { return false }  // past U+10FFFF
        return true
    }

    private func number() throws(JSONError) {
        let start = i
        if p[i] == UInt8(ascii: "-") { i += 1 }
        guard try digits() > 0 else { throw i < p.count ? .unexpectedByte(p[i], at: i) : .unexpectedEnd }
        if i < p.count && p[i] == UInt8(ascii: ".") {
            i += 1
            guard try digits() > 0 else { throw i < p.count ? .unexpectedByte(p[i], at: i) : .unexpectedEnd }
        }
        if i < p.count && (p[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < p.count && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) { i += 1 }
            guard try digits() > 0 else { throw i < p.count ? .unexpectedByte(p[i], at: i) : .unexpectedEnd }
        }
        _ = try add(.number, start: start, count: i - start)
    }

    private func digits() throws(JSONError) -> Int {
        let start = i
        while i < p.count && p[i] >= UInt8(ascii: "0") && p[i] <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

    private func literal(_ word: StaticString, _ kind: JSONToken.Kind, isTrue: Bool) throws(JSONError) {
        let start = i
        for k in 0..<word.utf8CodeUnitCount {
            guard i < p.count else { throw .unexpectedEnd }
            guard p[i] == word.utf8Start[k] else { throw .unexpectedByte(p[i], at: i) }
            i += 1
        }
        let index = try add(kind, start: start, count: i - start)
        tokens[index].isTrue = isTrue
    }

    // MARK: - Helpers

    private func add(_ kind: JSONToken.Kind, start: Int, count: Int) throws(JSONError) -> Int {
        guard used < maxValues else { throw .tooManyValues(limit: maxValues) }
        let index = used
        tokens[index] = JSONToken(kind: kind, start: Int32(start), count: Int32(count), next: Int32(used + 1), isTrue: false)
        used += 1
        return index
    }

    private func expect(_ byte: UInt8) throws(JSONError) {
        guard i < p.count else { throw .unexpectedEnd }
        guard p[i] == byte else { throw .unexpectedByte(p[i], at: i) }
        i += 1
    }

    private func skipSpace() {
        while i < p.count && (p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D) { i += 1 }
    }

    private func hex(at offset: Int, digits: Int) -> UInt32? {
        guard offset + digits <= p.count else { return nil }
        var v: UInt32 = 0
        for k in offset..<(offset + digits) {
            let b = p[k]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    private func put(_ b: UInt8) {
        // Never past the end: the text buffer is twice the longest line.
        guard textUsed < text.count else { return }
        text[textUsed] = b
        textUsed += 1
    }

    /// Appends the scalar as UTF-8.
    private func put(scalar v: UInt32) {
        switch v {
        case 0..<0x80:
            put(UInt8(v))
        case 0x80..<0x800:
            put(UInt8(0xC0 | v >> 6))
            put(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            put(UInt8(0xE0 | v >> 12))
            put(UInt8(0x80 | v >> 6 & 0x3F))
            put(UInt8(0x80 | v & 0x3F))
        default:
            put(UInt8(0xF0 | v >> 18))
            put(UInt8(0x80 | v >> 12 & 0x3F))
            put(UInt8(0x80 | v >> 6 & 0x3F))
            put(UInt8(0x80 | v & 0x3F))
        }
    }

    private static func isIdentifier(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }
}
