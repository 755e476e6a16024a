/// A value `JSONReader` read, looked at in place: valid until the reader's
/// next `read` (it points into the reader's tokens, its decoded strings and
/// the line). Nothing here allocates.
public struct JSONValue {
    let tokens: UnsafeBufferPointer<JSONToken>
    /// The line (numbers, containers) and the reader's decoded strings.
    let line: UnsafeRawBufferPointer
    let text: UnsafeRawBufferPointer
    let index: Int

    public var kind: JSONToken.Kind { tokens[index].kind }

    /// A string's decoded UTF-8 bytes (nil: not a string).
    public var string: UnsafeRawBufferPointer? {
        kind == .string ? raw : nil
    }

    /// True or false (nil: not a bool).
    public var bool: Bool? { kind == .bool ? tokens[index].isTrue : nil }

    public var isNull: Bool { kind == .null }

    /// A number without fraction or exponent that fits 64 bits (nil otherwise).
    public var integer: Int64? { scaled(byPowerOfTen: 0, exact: true) }

    /// The number times 10^power, toward zero (`1.5` by 3 is 1500); nil when
    /// it is not a number or does not fit 64 bits.
    public func scaled(byPowerOfTen power: Int) -> Int64? { scaled(byPowerOfTen: power, exact: false) }

    /// The member named `key` of an object (the first, if repeated); nil when
    /// absent or this is not an object.
    public subscript(key: StaticString) -> JSONValue? {
        guard kind == .object else { return nil }
        let wanted = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var k = index + 1
        let end = Int(tokens[index].next)
        while k < end {
            let value = k + 1  // a key is always followed by its value
            let name = JSONValue(tokens: tokens, line: line, text: text, index: k).raw
            if Self.same(name, wanted) {
                return JSONValue(tokens: tokens, line: line, text: text, index: value)
            }
            k = Int(tokens[value].next)
        }
        return nil
    }

    /// Visits an array's elements in order (nothing for another kind).
    public func forEachElement(_ body: (JSONValue) -> Void) {
        guard kind == .array else { return }
        var k = index + 1
        let end = Int(tokens[index].next)
        while k < end {
            body(JSONValue(tokens: tokens, line: line, text: text, index: k))
            k = Int(tokens[k].next)
        }
    }

    /// How many elements an array holds (0 for another kind).
    public var elementCount: Int {
        var n = 0
        forEachElement { _ in n += 1 }
        return n
    }

    /// Whether this is a string equal to `text`.
    public func equals(_ text: StaticString) -> Bool {
        guard let s = string else { return false }
        return Self.same(s, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var k = 0
        while k < a.count {
            if a[k] != b[k] { return false }
            k += 1
        }
        return true
    }

    private var raw: UnsafeRawBufferPointer {
        let t = tokens[index]
        let base = t.kind == .string ? text : line
        return UnsafeRawBufferPointer(rebasing: base[Int(t.start)..<Int(t.start + t.count)])
    }

    private func scaled(byPowerOfTen power: Int, exact: Bool) -> Int64? {
        guard kind == .number else { return nil }
        let text = raw
        var k = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { k = 1 }
        // Digits before and after the point, then the exponent moves the point.
        var value: Int64 = 0
        var shift = power  // decimal places still to take
        var sawFraction = false
        var overflow = false
        func take(_ digit: UInt8) {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(digit))
            overflow = overflow || o1 || o2
            value = s
        }
        var integerEnd = k
        while integerEnd < text.count && text[integerEnd] >= UInt8(ascii: "0") && text[integerEnd] <= UInt8(ascii: "9") { integerEnd += 1 }
        var fractionStart = integerEnd, fractionEnd = integerEnd
        if fractionStart < text.count && text[fractionStart] == UInt8(ascii: ".") {
            sawFraction = true
            fractionStart += 1
            fractionEnd = fractionStart
            while fractionEnd < text.count && text[fractionEnd] >= UInt8(ascii: "0") && text[fractionEnd] <= UInt8(ascii: "9") { fractionEnd += 1 }
        }
        var exponent = 0
        if fractionEnd < text.count {  // [eE][+-]?digits, as the reader checked
            if exact { return nil }
            var e = fractionEnd + 1
            var sign = 1
            if text[e] == UInt8(ascii: "-") { sign = -1; e += 1 } else if text[e] == UInt8(ascii: "+") { e += 1 }
            while e < text.count {
                exponent = min(exponent * 10 + Int(text[e] - UInt8(ascii: "0")), 400)
                e += 1
            }
            exponent *= sign
        }
        if exact && sawFraction { return nil }
        shift += exponent
        for d in k..<integerEnd { take(text[d] - UInt8(ascii: "0")) }
        var f = fractionStart
        while f < fractionEnd && shift > 0 {
            take(text[f] - UInt8(ascii: "0"))
            f += 1
            shift -= 1
        }
        // The fraction's digits left are dropped (toward zero); what the
        // exponent still asks for is more zeros, or fewer digits.
        if shift > 0 {
            guard shift <= 19 else { return value == 0 ? 0 : nil }
            for _ in 0..<shift { take(0) }
        } else if shift < 0 {
            // Digits taken past the point: drop as many.
            var drop = -shift
            while drop > 0 && value != 0 {
                value /= 10
                drop -= 1
            }
        }
        if overflow { return nil }
        return negative ? -value : value
    }
}
