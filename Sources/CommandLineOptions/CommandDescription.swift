/// Everything about one command: its name, what it does (the abstract for
/// lists, the discussion for its own `--help`) and its parameters in the
/// order the USAGE line shows them.
public struct CommandDescription: Sendable, Equatable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var parameters: [Parameter]

    public init(name: String, abstract: String, discussion: String = "", parameters: [Parameter]) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.parameters = parameters
        for (i, p) in parameters.enumerated() {
            precondition(!parameters[..<i].contains { $0.name == p.name }, "\(name): '\(p.name)' is declared twice")
            precondition(p.shortName != "h", "\(name): -h is --help")
        }
    }

    func parameter(named name: String) -> Parameter? { parameters.first { $0.name == name && $0.kind != .argument } }
    func parameter(short: Character) -> Parameter? { parameters.first { $0.shortName == short } }
    var argument: Parameter? { parameters.first { $0.kind == .argument } }
}
