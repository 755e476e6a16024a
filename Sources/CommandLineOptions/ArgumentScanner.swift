import TextFormat

/// Reads one command's arguments (what follows the command's name) into
/// `ParsedArguments`: `--name VALUE`, `--name=VALUE`, `-s VALUE`, `-sVALUE`,
/// flags, repeated options, positional arguments, and `--`, after which
/// everything is positional. A value may start with `-` only when it is a
/// number (`--offset -2`) or `-` alone; otherwise the option is missing its
/// value, so `--board --duration 1` is caught instead of taking `--duration`
/// as the board.
struct ArgumentScanner {
    let command: CommandDescription

    func scan(_ arguments: ArraySlice<String>) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: command)
        var rest = arguments
        var onlyArguments = false
        while let word = rest.popFirst() {
            if onlyArguments || !Self.looksLikeOption(word) {
                try addArgument(word, to: &parsed)
            } else if word == "--" {
                onlyArguments = true
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let equals = body.firstIndex(of: "=")
                let name = String(body[..<(equals ?? body.endIndex)])
                let inline = equals.map { String(body[body.index(after: $0)...]) }
                guard let p = command.parameter(named: name) else { throw unknownOption("--" + name) }
                try take(p, inline: inline, from: &rest, into: &parsed)
            } else {
                // -s VALUE or -sVALUE
                let short = word[word.index(after: word.startIndex)]
                guard let p = command.parameter(short: short) else { throw unknownOption(word) }
                let attached = word.dropFirst(2)
                if p.kind == .flag, !attached.isEmpty { throw error("unknown option \(UsageError.quoted(word))") }
                try take(p, inline: attached.isEmpty ? nil : String(attached), from: &rest, into: &parsed)
            }
        }
        for p in command.parameters where p.isRequired && parsed.given[p.name] == nil {
            throw error("missing \(p.kind == .argument ? "argument" : "option") '\(p.display)'")
        }
        return parsed
    }

    /// `-x`, `--x`, `--`; not `-`, `-2` or `-.5` (values).
    static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        // ASCII digits only (Character.isNumber links Unicode's number tables).
        guard let b = second.asciiValue else { return true }
        return !((b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "."))
    }

    private func take(_ p: Parameter, inline: String?, from rest: inout ArraySlice<String>, into parsed: inout ParsedArguments) throws(UsageError) {
        if p.kind == .flag {
            if let inline { throw error("'\(p.display)' takes no value, not \(UsageError.quoted(inline))") }
            parsed.given[p.name, default: []].append("")
            return
        }
        let value: String
        if let inline {
            value = inline
        } else if let next = rest.first, !Self.looksLikeOption(next) {
            value = next
            rest.removeFirst()
        } else {
            throw error("missing value for '\(p.display)'")
        }
        try check(value, for: p)
        parsed.given[p.name, default: []].append(value)
    }

    private func addArgument(_ word: String, to parsed: inout ParsedArguments) throws(UsageError) {
        guard let p = command.argument, p.isRepeatable || parsed.given[p.name] == nil else {
            throw error("unexpected argument \(UsageError.quoted(word))")
        }
        parsed.given[p.name, default: []].append(word)
    }

    private func check(_ value: String, for p: Parameter) throws(UsageError) {
        switch p.value {
        case .text:
            return
        case .integer(let range):
            let bounded = range.map { $0 != Int.min...Int.max } ?? false
            if let n = IntegerText.int(value), range?.contains(n) ?? true { return }
            let within = bounded ? " from \(range!.lowerBound) to \(range!.upperBound)" : ""
            throw error("'\(p.display)' takes a whole number\(within), not \(UsageError.quoted(value))")
        case .number:
            if let x = Double(value), x.isFinite { return }
            throw error("'\(p.display)' takes a number, not \(UsageError.quoted(value))")
        case .oneOf(let words):
            if words.contains(value) { return }
            let allowed = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words.last! : words.joined()
            let hint = Spelling.didYouMean(value, among: words).map { " (\($0))" } ?? ""
            throw error("'\(p.display)' takes \(allowed), not \(UsageError.quoted(value))\(hint)")
        }
    }

    private func error(_ message: String) -> UsageError { UsageError(message, command: command.name) }

    /// `unknown option '--bord' (did you mean '--board'?)`: the command's long options, and --help / --version.
    private func unknownOption(_ word: String) -> UsageError {
        let names = command.parameters.filter { $0.kind != .argument }.map { $0.name } + ["help", "version"]
        var hint = ""
        if word.hasPrefix("--"), case let near = Spelling.suggestions(for: String(word.dropFirst(2)), among: names), !near.isEmpty {
            hint = " (" + Spelling.didYouMean(near.map { "--" + $0 }) + ")"
        }
        return error("unknown option \(UsageError.quoted(word))\(hint)")
    }
}
