import TextFormat

/// A command-line tool made of commands (`wristcore run ...`): what it
/// parses, and its help pages.
public struct ToolDescription: Sendable, Equatable {
    public var name: String
    public var abstract: String
    public var discussion: String
    /// What `--version` prints.
    public var version: String
    public var commands: [CommandDescription]

    public init(name: String, abstract: String, discussion: String = "", version: String, commands: [CommandDescription]) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.commands = commands
        for (i, c) in commands.enumerated() {
            precondition(!commands[..<i].contains { $0.name == c.name }, "command '\(c.name)' is declared twice")
        }
    }

    /// What the command line asks for.
    public enum Invocation: Sendable, Equatable {
        /// Print the help of this command (nil: the tool's own) on standard output.
        case help(command: String?)
        /// Print `version` on standard output.
        case version
        /// Run a command with these arguments.
        case run(ParsedArguments)
    }

    /// `arguments` without the program name (`CommandLine.arguments.dropFirst()`).
    /// No arguments, `--help`, `-h` or `help` ask for the tool's help;
    /// `help COMMAND` and `COMMAND --help` for a command's (help wins over
    /// every other problem on the line, as it is what someone lost types).
    public func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(command: nil) }
        switch first {
        case "-h", "--help": return .help(command: nil)
        case "--version": return .version
        case "help":
            guard let target = arguments.dropFirst().first else { return .help(command: nil) }
            guard commands.contains(where: { $0.name == target }) else { throw unknownCommand(target) }
            return .help(command: target)
        default: break
        }
        if ArgumentScanner.looksLikeOption(first) { throw UsageError("unknown option \(UsageError.quoted(first))") }
        guard let command = commands.first(where: { $0.name == first }) else { throw unknownCommand(first) }
        let rest = arguments.dropFirst()
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") { return .help(command: command.name) }
        if options.contains("--version") { return .version }
        return .run(try ArgumentScanner(command: command).scan(rest))
    }

    /// `unknown command 'rnu'; did you mean 'run'? (the commands: ...)`.
    private func unknownCommand(_ word: String) -> UsageError {
        let names = commands.map { $0.name }
        let hint = Spelling.didYouMean(word, among: names).map { "; " + $0 } ?? ""
        return UsageError("unknown command \(UsageError.quoted(word))\(hint) (the commands: \(names.joined(separator: ", ")))")
    }

    /// The help page of a command (nil: the tool's), in swift-argument-parser's
    /// layout: OVERVIEW and discussion, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS;
    /// wrapped to `width` columns. No trailing newline.
    public func help(command name: String?, width: Int) -> String {
        let common = [("--version", "Show the version."), ("-h, --help", "Show help information.")]
        guard let name, let command = commands.first(where: { $0.name == name }) else {
            return HelpPage(
                abstract: abstract, discussion: discussion, usage: "\(self.name) <subcommand>",
                sections: [("OPTIONS", common), ("SUBCOMMANDS", commands.map { ($0.name, $0.abstract) })],
                footer: "\n  See '\(self.name) help <subcommand>' for detailed help."
            ).rendered(width: width)
        }
        let usage = ([self.name, command.name] + command.parameters.map { $0.synopsis }).joined(separator: " ")
        let arguments = command.parameters.filter { $0.kind == .argument }.map { ($0.helpLabel, $0.helpDescription) }
        let options = command.parameters.filter { $0.kind != .argument }.map { ($0.helpLabel, $0.helpDescription) }
        return HelpPage(
            abstract: command.abstract, discussion: command.discussion, usage: usage,
            sections: [("ARGUMENTS", arguments), ("OPTIONS", options + common)], footer: ""
        ).rendered(width: width)
    }
}
