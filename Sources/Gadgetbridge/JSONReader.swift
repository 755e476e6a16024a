// A bounded JSON reader for what a phone writes over the UART: one value
// per line, read in place. Strings are unescaped where they stand (an
// escape is never shorter than what it decodes to), values are recorded in
// a token table allocated once, and the depth, value count and line length
// have fixed limits, so reading a line allocates nothing and no input can
// make it trap or recurse without bound (Fuzz/GadgetbridgeLine).
//
// It reads JSON as Gadgetbridge's Bangle.js support writes it, which is
// JavaScript's object syntax too: keys may be bare identifiers, strings may
// use single quotes, and `\xHH` escapes one Latin-1 character.

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

    public var description: String {
        switch self {
        case .unexpectedEnd: "the line ends inside a value"
        case .unexpectedByte(let b, let at): "unexpected byte 0x\(hex(b)) at \(at)"
        case .tooManyValues(let limit): "more than \(limit) values"
        case .tooDeep(let limit): "nested deeper than \(limit)"
        case .badEscape(let at): "bad escape at \(at)"
        case .trailingBytes(let at): "bytes after the value at \(at)"
        }
    }

    private func hex(_ b: UInt8) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        return String(decoding: [digits.utf8Start[Int(b >> 4)], digits.utf8Start[Int(b & 15)]], as: UTF8.self)
    }
}

/// One value's place in the line.
public struct JSONToken: Sendable {
    public enum Kind: UInt8, Sendable {
        case object, array, string, number, bool, null
    }
    public var kind: Kind
    /// Its bytes in the line: a string's decoded bytes, a number's text, a
    /// container's from its bracket.
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

    private let tokens: UnsafeMutableBufferPointer<JSONToken>
    private var used = 0
    private var p = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var i = 0

    public init(maxValues: Int = 128, maxDepth: Int = 8) {
        self.maxValues = max(1, maxValues)
        self.maxDepth = max(1, maxDepth)
        tokens = .allocate(capacity: self.maxValues)
    }

    deinit { tokens.deallocate() }

    /// Reads the value that fills `line` (white space around it allowed).
    /// Its strings are decoded into `line` where they stand.
    public func read(_ line: UnsafeMutableRawBufferPointer) throws(JSONError) -> JSONValue {
        p = line
        i = 0
        used = 0
        skipSpace()
        try value(depth: 0)
        skipSpace()
        if i < p.count { throw .trailingBytes(at: i) }
        return JSONValue(tokens: UnsafeBufferPointer(tokens), bytes: UnsafeRawBufferPointer(line), index: 0)
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
        let start = i
        while i < p.count && Self.isIdentifier(p[i]) { i += 1 }
        if i == start { throw .unexpectedByte(p[i], at: i) }
        _ = try add(.string, start: start, count: i - start)
    }

    /// Decodes the string in place: its token covers the decoded bytes.
    private func string() throws(JSONError) {
        let quote = p[i]
        let start = i + 1
        var r = start
        var w = start
        while r < p.count {
            let b = p[r]
            if b == quote {
                i = r + 1
                _ = try add(.string, start: start, count: w - start)
                return
            }
            if b != UInt8(ascii: "\\") {
                p[w] = b
                w += 1
                r += 1
                continue
            }
            guard r + 1 < p.count else { throw .unexpectedEnd }
            let escape = p[r + 1]
            switch escape {
            case UInt8(ascii: "n"): p[w] = 0x0A
            case UInt8(ascii: "r"): p[w] = 0x0D
            case UInt8(ascii: "t"): p[w] = 0x09
            case UInt8(ascii: "b"): p[w] = 0x08
            case UInt8(ascii: "f"): p[w] = 0x0C
            case UInt8(ascii: "0"): p[w] = 0x00
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): p[w] = escape
            case UInt8(ascii: "x"):
                guard let v = hex(at: r + 2, digits: 2) else { throw .badEscape(at: r) }
                w = put(scalar: v, at: w)
                r += 4
                continue
            case UInt8(ascii: "u"):
                guard var v = hex(at: r + 2, digits: 4) else { throw .badEscape(at: r) }
                r += 6
                if v >= 0xD800 && v < 0xDC00, r + 1 < p.count, p[r] == UInt8(ascii: "\\"), p[r + 1] == UInt8(ascii: "u"),
                    let low = hex(at: r + 2, digits: 4), low >= 0xDC00 && low < 0xE000
                {
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    r += 6
                } else if v >= 0xD800 && v < 0xE000 {
                    v = 0xFFFD  // a lone surrogate: the replacement character
                }
                w = put(scalar: v, at: w)
                continue
            default:
                throw .badEscape(at: r)
            }
            w += 1
            r += 2
        }
        throw .unexpectedEnd
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

    /// Writes the scalar's UTF-8 at `w` (never past the escape it came from).
    private func put(scalar v: UInt32, at w: Int) -> Int {
        switch v {
        case 0..<0x80:
            p[w] = UInt8(v)
            return w + 1
        case 0x80..<0x800:
            p[w] = UInt8(0xC0 | v >> 6)
            p[w + 1] = UInt8(0x80 | v & 0x3F)
            return w + 2
        case 0x800..<0x10000:
            p[w] = UInt8(0xE0 | v >> 12)
            p[w + 1] = UInt8(0x80 | v >> 6 & 0x3F)
            p[w + 2] = UInt8(0x80 | v & 0x3F)
            return w + 3
        default:
            p[w] = UInt8(0xF0 | v >> 18)
            p[w + 1] = UInt8(0x80 | v >> 12 & 0x3F)
            p[w + 2] = UInt8(0x80 | v >> 6 & 0x3F)
            p[w + 3] = UInt8(0x80 | v & 0x3F)
            return w + 4
        }
    }

    private static func isIdentifier(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }
}
