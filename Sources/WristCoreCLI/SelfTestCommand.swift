import BenchTools
import BoardConfig
import CLinux
import CommandLineOptions
import HAL
import LinuxHAL
import Log
import TextFormat
import WristCore

struct SelfTestCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "selftest",
        abstract: "Test a board's display, buttons and motor step by step, with the wearer (workshops).",
        discussion: """
            Interactive (the default), on the watch's OLED and in this terminal:
              1. display: a test pattern (a frame on the panel's edges, the left and right \
            edges two pixels thick, ticks halfway down); a wrong controller type, column \
            offset or height shows at a glance, and the terminal says which board-file field \
            to change. Answer with the positive button (yes) or the negative one (no).
              2. buttons: "press POSITIVE", "press NEGATIVE" ... for every button of the \
            board file, each shown as it is pressed with its GPIO line; another button's \
            press is reported; no press within --timeout fails the step.
              3. motor: pulses; felt them? positive = yes, negative = no.
            Then a summary of every step on both. The motor is off on every way out, \
            Ctrl-C and other signals included.

            --board sim in a terminal draws the emulated panel there, and keys press the \
            simulated buttons: y or Enter positive (yes), n or Backspace negative (no), \
            k up, j down, s or space select, b or Esc back, q stops. Without a terminal, \
            press them through --harness (a script), or use --quick.

            --quick needs nobody: it opens every device, initialises the display and draws \
            the pattern, requests every button line and reads its level (a line stuck \
            pressed fails), pulses the motor for 150 ms, and prints the summary.

            Exit codes: 0 when every step passed (a board without a motor skips that \
            step), 1 when a step failed or the run was interrupted, 2 for a wrong board \
            file or option.

            Examples:
              wristcore selftest --board Boards/rpi-zero2w.json
              wristcore selftest --board Boards/rpi-zero2w.json --quick
              wristcore selftest --board sim
              wristcore selftest --board sim --harness unix:/tmp/wc-harness.sock --timeout 30

            Details and an example session: docs/selftest.md.
            """,
        parameters: [
            .option("board", valueName: "file|sim", required: true, help: "The board file to test, or 'sim' for the simulated board."),
            .flag("quick", help: "Check without a person: devices open, display drawn, button levels read, motor pulsed."),
            .option(
                "timeout", valueName: "seconds", value: .number, default: "15.0",
                help: "Seconds each step waits for a press or an answer (1-600)."),
            .option(
                "harness", valueName: "unix:path",
                help: "Serve the harness line protocol (press buttons, snapshot the panel, state) at unix:PATH."),
        ] + GlobalOptions.parameters
    )

    var board: String
    var quick: Bool
    var timeout: Double
    var harness: String?
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        board = arguments.required("board")
        quick = arguments.flag("quick")
        timeout = arguments.number("timeout")!
        harness = arguments.value("harness")
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        if !SelfTestOptions.timeoutRange.contains(timeout) {
            throw UsageError("--timeout must be between 1 and 600 seconds, not \(timeout)")
        }
        if let harness, !harness.hasPrefix("unix:") || harness.count <= 5 {
            throw UsageError("--harness takes unix:PATH, for example --harness unix:/tmp/wristcore-harness.sock")
        }
    }

    func run() throws(WristCoreFailure) {
        global.bootstrapLogging()
        let loaded = try loadBoardArgument(board)
        var options = SelfTestOptions()
        options.quick = quick
        options.stepTimeout = .milliseconds(Int64(timeout * 1000))
        options.harnessEndpoint = harness
        // On the simulated board a terminal shows the panel and its keys press the buttons.
        let terminal = quick ? nil : Terminal()
        let summary = try SelfTestRunner.run(board: loaded, options: options, logger: Logger(label: "wristcore.selftest"), terminal: terminal) { line in
            print(line)
            fflush(nil)  // a pipe (tests, tee) sees each step as it happens
        }
        if summary.exitCode != WristCoreExit.ok {
            throw WristCoreFailure("self-test \(summary.verdict)", exitCode: summary.exitCode)
        }
    }
}
