import BoardConfig
import CLinux
import CommandLineOptions
import HAL
import LinuxHAL
import Log
import TextFormat
import WatchFiles
import WristCore

/// `wristcore`: the watch daemon and its bench tools. `main()` is the
/// entry point: `@main` in the host build, the C `main` below in the
/// Embedded one (which has no `CommandLine`).
enum Wristcore {
    /// Every command, in the order `wristcore --help` lists them.
    static let commands: [CommandEntry] = [
        CommandEntry(RunCommand.self),
        CommandEntry(DemoCommand.self),
        CommandEntry(DoctorCommand.self),
        CommandEntry(SetupCommand.self),
        CommandEntry(DecodeCommand.self),
        CommandEntry(ForgetCommand.self),
        CommandEntry(ScreenshotCommand.self),
        CommandEntry(MotorOffCommand.self),
        CommandEntry(SelfTestCommand.self),
    ]

    static let tool = ToolDescription(
        name: "wristcore",
        abstract: "The core of a DIY smartwatch on a Linux single-board computer.",
        discussion: """
            WristCore receives iPhone notifications over Bluetooth LE (Apple Notification \
            Center Service), shows them on an I2C OLED, performs the phone's actions from \
            GPIO buttons and buzzes a vibration motor for important ones.

            Start without hardware:   wristcore demo
            Run on a board:           wristcore run --board Boards/rpi-zero2w.json
            Check a board's wiring:   wristcore doctor --board Boards/rpi-zero2w.json

            Exit codes: 0 success, 1 runtime failure, 2 usage or configuration error.
            Documentation: README.md and docs/ in the source tree.
            """,
        version: "wristcore \(WristCoreVersion.string)",
        commands: commands.map { $0.description })

    /// Parses, runs, and maps every outcome to WristCore's exit codes:
    /// help and version on standard output (0), a usage error as one line
    /// on standard error (2).
    static func main() {
        ProcessSignals.ignoreBrokenPipe()
        let run: CommandEntry.Run
        do throws(UsageError) {
            switch try tool.parse(ProcessArguments.all.dropFirst()) {
            case .help(let name):
                print(tool.help(command: name, width: HelpWidth.columns))
                CLinux.exit(WristCoreExit.ok)
            case .version:
                print(tool.version)
                CLinux.exit(WristCoreExit.ok)
            case .run(let arguments):
                let entry = commands.first { $0.description.name == arguments.command.name }!
                do throws(UsageError) { run = try entry.prepare(arguments) } catch {
                    throw UsageError(error.message, command: arguments.command.name)
                }
            }
        } catch {
            FileHandleStandardError.write(error.line(tool: tool.name) + "\n")
            CLinux.exit(WristCoreExit.usageOrConfiguration)
        }
        do throws(WristCoreFailure) {
            try run()
            CLinux.exit(WristCoreExit.ok)
        } catch {
            FileHandleStandardError.write("wristcore: \(error.message)\n")
            CLinux.exit(error.exitCode)
        }
    }
}

/// `--board` ARG, loaded and validated (ResourcePaths.loadBoard), or its
/// problems field by field as a failure with exit code 2.
func loadBoardArgument(_ argument: String) throws(WristCoreFailure) -> Board {
    do throws(BoardError) { return try ResourcePaths.loadBoard(argument: argument) } catch { throw error.commandFailure }
}

extension BoardError {
    /// A board file with problems, reported field by field: exit code 2.
    var commandFailure: WristCoreFailure {
        WristCoreFailure("the board file has problems:\n\(self)", exitCode: WristCoreExit.usageOrConfiguration)
    }
}

#if hasFeature(Embedded)
/// The process's entry point: Embedded Swift has no `CommandLine`, so the C
/// `main` keeps argv itself, then runs `Wristcore.main()` (which never returns:
/// every way out is `exit`).
@_cdecl("main")
func wristcoreMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    ProcessArguments.all = (0..<Int(argc)).map { String(cString: argv[$0]!) }
    Wristcore.main()
    return WristCoreExit.ok
}
#else
@main extension Wristcore {}
#endif

/// The command line the process was started with (argv, the program first).
enum ProcessArguments {
    #if hasFeature(Embedded)
    /// Set once by `wristcoreMain` before anything reads it.
    nonisolated(unsafe) static var all: [String] = []
    #else
    static var all: [String] { CommandLine.arguments }
    #endif
}

/// Options every subcommand takes.
struct GlobalOptions {
    static let parameters: [Parameter] = [
        .option(
            "log-level", valueName: "level", value: .oneOf(Logger.Level.allCases.map { $0.rawValue }),
            default: Logger.Level.info.rawValue,
            help: "How much to log to standard error: trace, debug, info, notice, warning, error, critical.")
    ]

    var logLevel: Logger.Level

    init(_ arguments: ParsedArguments) {
        logLevel = arguments.choice("log-level", as: Logger.Level.self)!
    }

    /// Sends every `Logger(label:)` made from now on to standard error (or
    /// the journal) at --log-level: once per process, before the first logger.
    func bootstrapLogging() {
        Logger.bootstrap(sink: StandardErrorLog.sink(), level: logLevel)
    }
}

/// The width help pages are wrapped to: $COLUMNS, else the terminal's, else 80.
enum HelpWidth {
    static var columns: Int {
        if let text = getenv("COLUMNS"), let n = IntegerText.int(String(cString: text)) { return n }
        var size = winsize()
        if wc_ioctl_ptr(1, wc_tiocgwinsz(), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

enum FileHandleStandardError {
    static func write(_ text: String) {
        fflush(nil)  // all streams: keeps stdout's report lines ahead of the error
        _ = text.withCString { CLinux.write(2, $0, strlen($0)) }
    }
}
