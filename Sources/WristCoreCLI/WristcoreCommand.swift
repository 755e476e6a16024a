import CommandLineOptions

/// A `wristcore` command: its declaration (name, help, parameters), built
/// from the parsed arguments, checked, then run. Registering one is a line
/// in `Wristcore.commands`.
protocol WristcoreCommand: Sendable {
    /// Parses its arguments and generates its `--help`.
    static var description: CommandDescription { get }
    /// Reads the values; the parser has already checked each one's kind.
    init(_ arguments: ParsedArguments)
    /// Checks that span options (a usage error: exit code 2).
    func validate() throws(UsageError)
    func run() throws
}

extension WristcoreCommand {
    func validate() throws(UsageError) {}
}
