import TextFormat

/// A command line that cannot be run: an unknown option or command, a
/// missing or bad value, a missing required option, an argument too many,
/// or a command's own check of its options. Shown as one line on standard
/// error, pointing at the help of the command it is about.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The command whose `--help` to point to; nil for the tool's own.
    public var command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String { message }

    /// `wristcore: unknown option '--x'; see 'wristcore run --help'`
    public func line(tool: String) -> String {
        "\(tool): \(message); see '\(tool)\(command.map { " " + $0 } ?? "") --help'"
    }

    /// A value the user typed, quoted, with control characters escaped
    /// (`\n`, `\u{1b}`): it can neither end the error line nor drive the terminal.
    public static func quoted(_ value: String) -> String {
        "'" + EscapedText.escaped(value, style: .swift, quote: false, backslash: true) + "'"
    }
}
