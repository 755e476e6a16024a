import TextFormat

/// A command's parsed command line: every value already checked against its
/// parameter's `ValueKind`, defaults filled in, required options present.
/// Reading a name the command does not declare (or as the wrong kind) is a
/// programming error and stops the program.
public struct ParsedArguments: Sendable, Equatable {
    public let command: CommandDescription
    /// Values in the order given, by parameter name (a flag: one empty string per occurrence).
    var given: [String: [String]] = [:]

    init(command: CommandDescription) { self.command = command }

    private func declared(_ name: String, _ kinds: Parameter.Kind...) -> Parameter {
        guard let p = command.parameters.first(where: { $0.name == name }), kinds.contains(p.kind) else {
            preconditionFailure("'\(command.name)' declares no \(kinds.map { "\($0)" }.joined(separator: "/")) named '\(name)'")
        }
        return p
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool {
        _ = declared(name, .flag)
        return given[name] != nil
    }

    /// The option's value (the last one given), else its default.
    public func value(_ name: String) -> String? {
        let p = declared(name, .option, .argument)
        return given[name]?.last ?? p.defaultValue
    }

    /// A required option's value, or one with a default.
    public func required(_ name: String) -> String {
        guard let v = value(name) else { preconditionFailure("'\(command.name) --\(name)' is neither required nor defaulted") }
        return v
    }

    /// Every value given, in order (a repeatable option, or the positional arguments).
    public func values(_ name: String) -> [String] {
        _ = declared(name, .option, .argument)
        return given[name] ?? []
    }

    /// An `.integer` option's value.
    public func integer(_ name: String) -> Int? {
        guard case .integer = declared(name, .option).value else { preconditionFailure("--\(name) is not an integer option") }
        return value(name).flatMap { IntegerText.int($0) }
    }

    /// A `.number` option's value.
    public func number(_ name: String) -> Double? {
        guard case .number = declared(name, .option).value else { preconditionFailure("--\(name) is not a number option") }
        return value(name).flatMap { Double($0) }
    }

    /// A `.oneOf` option's value as the enumeration whose raw values the words are.
    public func choice<T: RawRepresentable>(_ name: String, as: T.Type) -> T? where T.RawValue == String {
        guard case .oneOf = declared(name, .option).value else { preconditionFailure("--\(name) is not a oneOf option") }
        guard let word = value(name) else { return nil }
        // (Not the type's name: Embedded Swift cannot print a metatype.)
        guard let v = T(rawValue: word) else { preconditionFailure("--\(name): '\(word)' is none of the raw values of the type asked for") }
        return v
    }
}
