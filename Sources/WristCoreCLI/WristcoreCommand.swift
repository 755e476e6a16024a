import CommandLineOptions
import HAL
import TextFormat

/// A `wristcore` command: its declaration (name, help, parameters), built
/// from the parsed arguments, checked, then run. Registering one is a line
/// in `Wristcore.commands` (`CommandEntry(RunCommand.self)`).
///
/// Only ever a generic constraint (`CommandEntry.init`), never an
/// existential: Embedded Swift has no `any P` of a non-class protocol and no
/// `any P.Type`. `SendableMetatype`: the command table's closures (Sendable,
/// as the table is a global) build a command from its type.
protocol WristcoreCommand: SendableMetatype {
    /// Parses its arguments and generates its `--help`.
    static var description: CommandDescription { get }
    /// Reads the values; the parser has already checked each one's kind.
    init(_ arguments: ParsedArguments)
    /// Checks that span options (a usage error: exit code 2).
    func validate() throws(UsageError)
    /// Runs the command; a failure is printed as `wristcore: MESSAGE` and
    /// exits with its exit code.
    func run() throws(WristCoreFailure)
}

extension WristcoreCommand {
    func validate() throws(UsageError) {}
}

/// One row of the command table: a command's declaration and how to build,
/// check and run it, with the concrete command type captured in the closure
/// (specialised at compile time: no metatype is looked at at run time).
struct CommandEntry: Sendable {
    /// Runs a built and checked command.
    typealias Run = () throws(WristCoreFailure) -> Void

    let description: CommandDescription
    /// Builds the command from its arguments and validates it; returns what runs it.
    let prepare: @Sendable (ParsedArguments) throws(UsageError) -> Run

    init<Command: WristcoreCommand>(_ type: Command.Type) {
        description = Command.description
        prepare = { (arguments: ParsedArguments) throws(UsageError) -> Run in
            let command = Command(arguments)
            try command.validate()
            return { () throws(WristCoreFailure) in try command.run() }
        }
    }
}
