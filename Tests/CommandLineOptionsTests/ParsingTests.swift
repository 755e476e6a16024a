import CommandLineOptions
import Testing

/// A tool shaped like `wristcore`: one command with every kind of parameter.
let sample = ToolDescription(
    name: "tool",
    abstract: "A sample tool.",
    discussion: "It does things.",
    version: "tool 1.2.3",
    commands: [
        CommandDescription(
            name: "go",
            abstract: "Go somewhere.",
            parameters: [
                .option("board", valueName: "file|sim", required: true, help: "The board."),
                .option("duration", valueName: "seconds", value: .number, help: "How long."),
                .option("hci", valueName: "n", value: .integer(in: 0...9), default: "0", help: "The adapter."),
                .option("count", valueName: "n", value: .integer(in: nil), help: "How many."),
                .option("level", valueName: "level", value: .oneOf(["low", "high"]), default: "low", help: "How loud."),
                .flag("json", help: "JSON."),
                .argument("hex", repeatable: true, help: "Bytes."),
                .option("pdu", valueName: "hex", repeatable: true, help: "A PDU."),
                .option("output", short: "o", valueName: "file", help: "Where to."),
            ]),
        CommandDescription(name: "stop", abstract: "Stop.", parameters: []),
    ])

func parse(_ words: String...) throws(UsageError) -> ToolDescription.Invocation {
    try sample.parse(words[...])
}

func run(_ words: String...) throws -> ParsedArguments {
    guard case .run(let parsed) = try sample.parse(words[...]) else {
        Issue.record("\(words) did not parse as a command to run")
        throw UsageError("not a run")
    }
    return parsed
}

/// The error a command line gives, or nil when it parses.
func failure(_ words: String...) -> UsageError? {
    do {
        _ = try sample.parse(words[...])
        return nil
    } catch {
        return error
    }
}

@Suite struct ParsingTests {
    @Test func valuesAfterTheNameOrAnEqualsSign() throws {
        let p = try run("go", "--board", "sim", "--duration=2.5", "--hci=3", "--level", "high", "-o", "out.png")
        #expect(p.command.name == "go")
        #expect(p.required("board") == "sim")
        #expect(p.number("duration") == 2.5)
        #expect(p.integer("hci") == 3)
        #expect(p.value("level") == "high")
        #expect(p.value("output") == "out.png")
        #expect(try run("go", "--board=a=b").required("board") == "a=b")  // only the first '=' splits
        #expect(try run("go", "--board", "x", "-oout.pbm").value("output") == "out.pbm")
    }

    @Test func defaultsWhenNotGiven() throws {
        let p = try run("go", "--board", "sim")
        #expect(p.integer("hci") == 0)
        #expect(p.value("level") == "low")
        #expect(p.number("duration") == nil)
        #expect(p.integer("count") == nil)
        #expect(p.value("output") == nil)
        #expect(p.flag("json") == false)
        #expect(p.values("pdu") == [])
        #expect(p.values("hex") == [])
    }

    @Test func repeatedOptionsKeepEveryValueAndSingleOnesTheLast() throws {
        let p = try run("go", "--pdu", "01", "--board", "a", "--pdu=02 03", "--board", "b", "--pdu", "04")
        #expect(p.values("pdu") == ["01", "02 03", "04"])
        #expect(p.required("board") == "b")
    }

    @Test func flagsAndPositionalArgumentsInAnyOrder() throws {
        let p = try run("go", "00", "--json", "01", "--board", "sim", "02")
        #expect(p.flag("json"))
        #expect(p.values("hex") == ["00", "01", "02"])
    }

    @Test func everythingAfterDoubleDashIsAnArgument() throws {
        let p = try run("go", "--board", "sim", "--", "--json", "-o", "--help")
        #expect(p.flag("json") == false)
        #expect(p.values("hex") == ["--json", "-o", "--help"])
    }

    @Test func negativeNumbersAndADashAreValuesNotOptions() throws {
        #expect(try run("go", "--board", "-", "--duration", "-2").number("duration") == -2)
        #expect(try run("go", "--board", "sim", "--count", "-7").integer("count") == -7)
        #expect(try run("go", "--board", "sim", "--duration", "-.5").number("duration") == -0.5)
        #expect(try run("go", "--board", "sim", "-1").values("hex") == ["-1"])
    }

    @Test func helpAndVersion() throws {
        #expect(try parse() == .help(command: nil))
        #expect(try parse("--help") == .help(command: nil))
        #expect(try parse("-h") == .help(command: nil))
        #expect(try parse("help") == .help(command: nil))
        #expect(try parse("help", "go") == .help(command: "go"))
        #expect(try parse("go", "--help") == .help(command: "go"))
        #expect(try parse("go", "--bogus", "-h") == .help(command: "go"))  // help wins over the line's problems
        #expect(try parse("--version") == .version)
        #expect(try parse("go", "--version") == .version)
        // After --, they are arguments.
        guard case .run = try parse("go", "--board", "sim", "--", "--help") else {
            Issue.record("--help after -- asked for help")
            return
        }
    }
}

@Suite struct UsageErrorTests {
    @Test func unknownOption() {
        #expect(failure("go", "--bogus") == UsageError("unknown option '--bogus'", command: "go"))
        #expect(failure("go", "-x") == UsageError("unknown option '-x'", command: "go"))
        #expect(failure("--bogus") == UsageError("unknown option '--bogus'"))
    }

    @Test func unknownCommand() {
        let expected = UsageError("unknown command 'frob' (the commands: go, stop)")
        #expect(failure("frob") == expected)
        #expect(failure("help", "frob") == expected)
    }

    /// Issue 27.5: a misspelt command, option or choice names the one meant.
    @Test func didYouMean() {
        #expect(failure("stpo") == UsageError("unknown command 'stpo'; did you mean 'stop'? (the commands: go, stop)"))
        #expect(failure("help", "Stop") == UsageError("unknown command 'Stop'; did you mean 'stop'? (the commands: go, stop)"))
        #expect(failure("go", "--bord", "x") == UsageError("unknown option '--bord' (did you mean '--board'?)", command: "go"))
        #expect(failure("go", "--jsno") == UsageError("unknown option '--jsno' (did you mean '--json'?)", command: "go"))
        #expect(failure("go", "--hlep") == UsageError("unknown option '--hlep' (did you mean '--help'?)", command: "go"))
        #expect(failure("go", "--board", "x", "--level", "hihg")
            == UsageError("'--level <level>' takes low or high, not 'hihg' (did you mean 'high'?)", command: "go"))
        // Nothing close, or too short to guess: no suggestion.
        #expect(failure("walk") == UsageError("unknown command 'walk' (the commands: go, stop)"))
        #expect(failure("og") == UsageError("unknown command 'og' (the commands: go, stop)"))
        #expect(failure("go", "--zz") == UsageError("unknown option '--zz'", command: "go"))
        #expect(failure("go", "--board", "x", "--level", "medium") == UsageError("'--level <level>' takes low or high, not 'medium'", command: "go"))
        // A word of any length costs one bounded comparison per candidate.
        let long = String(repeating: "x", count: 100_000)
        #expect(failure(long) == UsageError("unknown command '\(long)' (the commands: go, stop)"))
    }

    @Test func missingValue() {
        #expect(failure("go", "--board") == UsageError("missing value for '--board <file|sim>'", command: "go"))
        // The next word is an option, not the value.
        #expect(failure("go", "--board", "--json") == UsageError("missing value for '--board <file|sim>'", command: "go"))
        #expect(failure("go", "--board", "x", "-o") == UsageError("missing value for '--output <file>'", command: "go"))
    }

    @Test func badValues() {
        #expect(failure("go", "--board", "x", "--duration", "abc") == UsageError("'--duration <seconds>' takes a number, not 'abc'", command: "go"))
        #expect(failure("go", "--board", "x", "--duration", "inf") == UsageError("'--duration <seconds>' takes a number, not 'inf'", command: "go"))
        #expect(failure("go", "--board", "x", "--hci", "1.5") == UsageError("'--hci <n>' takes a whole number from 0 to 9, not '1.5'", command: "go"))
        #expect(failure("go", "--board", "x", "--hci=10") == UsageError("'--hci <n>' takes a whole number from 0 to 9, not '10'", command: "go"))
        #expect(failure("go", "--board", "x", "--count", "many") == UsageError("'--count <n>' takes a whole number, not 'many'", command: "go"))
        #expect(failure("go", "--board", "x", "--level", "loud") == UsageError("'--level <level>' takes low or high, not 'loud'", command: "go"))
        #expect(failure("go", "--board", "x", "--json=yes") == UsageError("'--json' takes no value, not 'yes'", command: "go"))
    }

    @Test func missingRequiredOption() {
        #expect(failure("go", "--json") == UsageError("missing option '--board <file|sim>'", command: "go"))
    }

    @Test func unexpectedArgument() {
        #expect(failure("stop", "now") == UsageError("unexpected argument 'now'", command: "stop"))
    }

    @Test func oneLineWithTheHelpToRead() {
        #expect(UsageError("unknown option '--x'", command: "go").line(tool: "tool") == "tool: unknown option '--x'; see 'tool go --help'")
        #expect(UsageError("unknown command 'x'").line(tool: "tool") == "tool: unknown command 'x'; see 'tool --help'")
    }

    @Test func typedTextIsEscaped() {
        #expect(failure("go", "--bo\u{1B}[2Jgus\n") == UsageError("unknown option '--bo\\u{1b}[2Jgus\\n'", command: "go"))
        #expect(UsageError.quoted("a\\b\t\u{9B}") == "'a\\\\b\\t\\u{9b}'")
    }
}
