/// One thing a command takes on its command line: a flag (`--json`), an
/// option with a value (`--board FILE`, `--board=FILE`, `-o FILE`) or a
/// positional argument. The same declaration parses, checks and documents
/// it, so `--help` cannot drift from what the parser accepts.
public struct Parameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        case flag, option, argument

        public var description: String {
            switch self {
            case .flag: "flag"
            case .option: "option"
            case .argument: "argument"
            }
        }
    }

    public var kind: Kind
    /// The long name without its dashes (`state-dir`); for an argument, its value name.
    public var name: String
    public var shortName: Character?
    /// Shown in angle brackets in the help and in errors (`<file|sim>`).
    public var valueName: String
    public var help: String
    /// What a value must be; checked while parsing.
    public var value: ValueKind
    /// Used when the parameter is not given, and shown as `(default: ...)`.
    public var defaultValue: String?
    public var isRequired: Bool
    /// May be given more than once, every value kept (else the last one counts).
    public var isRepeatable: Bool

    /// `--name`: on or off.
    public static func flag(_ name: String, help: String) -> Parameter {
        Parameter(
            kind: .flag, name: name, shortName: nil, valueName: "", help: help, value: .text, defaultValue: nil,
            isRequired: false, isRepeatable: false)
    }

    /// `--name VALUE` or `--name=VALUE` (and `-s VALUE` with a short name).
    public static func option(
        _ name: String, short: Character? = nil, valueName: String? = nil, value: ValueKind = .text,
        default defaultValue: String? = nil, required: Bool = false, repeatable: Bool = false, help: String
    ) -> Parameter {
        Parameter(
            kind: .option, name: name, shortName: short, valueName: valueName ?? name, help: help, value: value,
            defaultValue: defaultValue, isRequired: required, isRepeatable: repeatable)
    }

    /// A positional argument (everything after `--` is one too).
    public static func argument(_ valueName: String, repeatable: Bool = false, required: Bool = false, help: String) -> Parameter {
        Parameter(
            kind: .argument, name: valueName, shortName: nil, valueName: valueName, help: help, value: .text,
            defaultValue: nil, isRequired: required, isRepeatable: repeatable)
    }

    /// How errors and the help's label name it: `--board <file|sim>`, `--json`, `<hex>`.
    public var display: String {
        switch kind {
        case .flag: return "--\(name)"
        case .option: return "--\(name) <\(valueName)>"
        case .argument: return "<\(valueName)>"
        }
    }

    /// Its part of the USAGE line: `--board <file|sim>`, `[--json]`, `[--pdu <hex> ...]`.
    var synopsis: String {
        let text = display + (isRepeatable ? " ..." : "")
        return isRequired ? text : "[\(text)]"
    }

    /// The label in the help's ARGUMENTS / OPTIONS list.
    var helpLabel: String {
        guard let shortName, kind == .option else { return display }
        return "-\(shortName), \(display)"
    }

    /// The help text with the allowed values and the default appended, as
    /// swift-argument-parser wrote them.
    var helpDescription: String {
        var notes: [String] = []
        if case .oneOf(let words) = value { notes.append("values: " + words.joined(separator: ", ")) }
        if let defaultValue { notes.append("default: " + defaultValue) }
        guard !notes.isEmpty else { return help }
        let note = "(" + notes.joined(separator: "; ") + ")"
        return help.isEmpty ? note : help + " " + note
    }
}

/// What an option's value must be. The parser refuses anything else, so a
/// command only ever reads values of the declared kind.
public enum ValueKind: Sendable, Equatable {
    /// Any text.
    case text
    /// A whole number, within the range when one is given.
    case integer(in: ClosedRange<Int>?)
    /// A finite decimal number (`1`, `0.5`, `-2`, `1e3`).
    case number
    /// One of these words.
    case oneOf([String])
}
