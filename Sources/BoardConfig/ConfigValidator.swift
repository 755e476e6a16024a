import HAL
import TextFormat

// Shared by the board file and the wearer's settings file (WearerSettings):
// every problem collected with its line and field path, the common field
// kinds checked with the same words.

/// Walks the parsed JSON, collecting every problem with its line and field path.
package struct BoardValidator {
    package let file: String
    package var problems: [BoardProblem] = []

    /// Problems past this many are counted, not kept (the report shows
    /// `BoardError.reportedProblems` of them anyway).
    static let keptProblems = 1000
    package var uncountedProblems = 0

    package init(file: String) { self.file = file }

    package mutating func problem(_ line: Int, _ field: String, _ message: String) {
        guard problems.count < Self.keptProblems else {
            uncountedProblems += 1
            return
        }
        problems.append(BoardProblem(file: file, line: line, field: field, message: message))
    }

    /// The object's members by key, after reporting unknown and duplicate keys.
    package mutating func members(_ value: ConfigJSON, _ field: String, allowed: [String]) -> [String: (ConfigJSON, Int)]? {
        guard case .object(let list, _) = value else {
            problem(value.line, field, "expected an object { ... }, found \(value.kindName)")
            return nil
        }
        var result: [String: (ConfigJSON, Int)] = [:]
        for m in list {
            let key = BoardText.escaped(m.key)
            let path = field.isEmpty ? key : "\(field).\(key)"
            if !allowed.contains(m.key) {
                problem(m.line, path, "unknown field; allowed: \(allowed.joined(separator: ", "))")
            } else if result[m.key] != nil {
                problem(m.line, path, "given twice")
            } else {
                result[m.key] = (m.value, m.line)
            }
        }
        return result
    }

    package mutating func string(_ m: [String: (ConfigJSON, Int)], _ key: String, _ path: String, required line: Int?) -> String? {
        guard let (v, _) = m[key] else {
            if let line { problem(line, path, "missing (required)") }
            return nil
        }
        guard case .string(let s, _) = v else { problem(v.line, path, "expected a string, found \(v.kindName)"); return nil }
        return s
    }

    package mutating func bool(_ m: [String: (ConfigJSON, Int)], _ key: String, _ path: String, default d: Bool) -> Bool {
        guard let (v, _) = m[key] else { return d }
        guard case .bool(let b, _) = v else { problem(v.line, path, "expected true or false, found \(v.kindName)"); return d }
        return b
    }

    /// An integer in `range`; `hexAllowed` also accepts "0x3C" strings.
    package mutating func int(
        _ m: [String: (ConfigJSON, Int)], _ key: String, _ path: String, range: ClosedRange<Int>, required line: Int?,
        default d: Int? = nil, hexAllowed: Bool = false, allowedText: String? = nil
    ) -> Int? {
        guard let (v, _) = m[key] else {
            if let line { problem(line, path, "missing (required)\(allowedText.map { "; allowed: \($0)" } ?? "")") }
            return d
        }
        let allowed = allowedText ?? "an integer from \(range.lowerBound) to \(range.upperBound)"
        var n: Int?
        switch v {
        case .number(let x, let text, _):
            if x.rounded() == x, abs(x) < 1e9 { n = Int(x) } else { problem(v.line, path, "\(text) is not a whole number; allowed: \(allowed)"); return d }
        case .string(let s, _) where hexAllowed:
            let lower = s.asciiLowercased()
            if lower.hasPrefix("0x"), let h = IntegerText.int(lower.dropFirst(2), radix: 16) { n = h } else if let dec = IntegerText.int(s) { n = dec } else {
                problem(v.line, path, "\(BoardText.quoted(s)) is not a number; allowed: \(allowed) (decimal, or hex as \"0x3C\")"); return d
            }
        default:
            problem(v.line, path, "expected \(hexAllowed ? "a number or a \"0x..\" string" : "a number"), found \(v.kindName); allowed: \(allowed)")
            return d
        }
        guard let value = n, range.contains(value) else {
            problem(v.line, path, "\(Self.show(v)) is out of range; allowed: \(allowed)")
            return d
        }
        return value
    }

    package mutating func choice<E: RawRepresentable & CaseIterable>(
        _ m: [String: (ConfigJSON, Int)], _ key: String, _ path: String, _ type: E.Type, required line: Int?, default d: E? = nil, what: String
    ) -> E? where E.RawValue == String {
        let allowed = E.allCases.map { $0.rawValue }.joined(separator: ", ")
        guard let (v, _) = m[key] else {
            if let line { problem(line, path, "missing (required); allowed: \(allowed)") }
            return d
        }
        guard case .string(let s, _) = v else { problem(v.line, path, "expected a string, found \(v.kindName); allowed: \(allowed)"); return d }
        guard let e = E(rawValue: s) else { problem(v.line, path, "\(BoardText.quoted(s)) is not a supported \(what); allowed: \(allowed)"); return d }
        return e
    }

    /// A value as a message quotes it: a number as written, a string quoted, else its kind.
    package static func show(_ v: ConfigJSON) -> String {
        switch v {
        case .number(_, let t, _): BoardText.escaped(t)
        case .string(let s, _): BoardText.quoted(s)
        default: v.kindName
        }
    }

}
