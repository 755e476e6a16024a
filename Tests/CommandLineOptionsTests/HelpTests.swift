import CommandLineOptions
import Testing

@Suite struct HelpTests {
    @Test func aCommandsPage() {
        #expect(
            sample.help(command: "go", width: 80) == """
                OVERVIEW: Go somewhere.

                USAGE: tool go --board <file|sim> [--duration <seconds>] [--hci <n>] [--count <n>] [--level <level>] [--json] [<hex> ...] [--pdu <hex> ...] [--output <file>]

                ARGUMENTS:
                  <hex>                   Bytes.

                OPTIONS:
                  --board <file|sim>      The board.
                  --duration <seconds>    How long.
                  --hci <n>               The adapter. (default: 0)
                  --count <n>             How many.
                  --level <level>         How loud. (values: low, high; default: low)
                  --json                  JSON.
                  --pdu <hex>             A PDU.
                  -o, --output <file>     Where to.
                  --version               Show the version.
                  -h, --help              Show help information.

                """)
    }

    @Test func theToolsPageListsTheCommands() {
        #expect(
            sample.help(command: nil, width: 80) == """
                OVERVIEW: A sample tool.

                It does things.

                USAGE: tool <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  go                      Go somewhere.
                  stop                    Stop.

                  See 'tool help <subcommand>' for detailed help.
                """)
    }

    @Test func wrapsAtTheWidthAndPutsALongLabelOnItsOwnLine() {
        let tool = ToolDescription(
            name: "t", abstract: "Short.",
            discussion: "A discussion long enough to be wrapped at forty columns.\n\nExample:\n  t x",
            version: "1",
            commands: [
                CommandDescription(
                    name: "x", abstract: "X.",
                    discussion: "A discussion long enough to be wrapped at forty columns.\n\nExample:\n  t x",
                    parameters: [
                        .option("address", valueName: "AA:BB:CC:DD:EE:FF", help: "The phone's address, a long help text."),
                        .option("to", valueName: "file", help: "Where the file goes when it is installed."),
                    ])
            ])
        #expect(
            tool.help(command: "x", width: 40) == """
                OVERVIEW: X.

                A discussion long enough to be wrapped
                at forty columns.

                Example:
                  t x

                USAGE: t x [--address <AA:BB:CC:DD:EE:FF>] [--to <file>]

                OPTIONS:
                  --address <AA:BB:CC:DD:EE:FF>
                                          The phone's
                                          address, a
                                          long help
                                          text.
                  --to <file>             Where the
                                          file goes
                                          when it is
                                          installed.
                  --version               Show the
                                          version.
                  -h, --help              Show help
                                          information.

                """)
        // Unwrapped when wide (the man page generator reads it so).
        #expect(tool.help(command: "x", width: 1000).contains("  --to <file>             Where the file goes when it is installed.\n"))
        // Narrower than the label column: not wrapped, and no crash.
        #expect(tool.help(command: "x", width: 10).contains("--to <file>"))
    }
}
