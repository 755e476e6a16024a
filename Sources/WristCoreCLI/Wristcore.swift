import BoardConfig
import CommandLineOptions
import CLinux
import HAL
import LinuxHAL
import Log
import WristCore

/// `wristcore`: the watch daemon and its bench tools.
@main
enum Wristcore {
    /// Every command, in the order `wristcore --help` lists them.
    static let commands: [any WristcoreCommand.Type] = [
        RunCommand.self,
        DemoCommand.self,
        DoctorCommand.self,
        SetupCommand.self,
        DecodeCommand.self,
        ForgetCommand.self,
        ScreenshotCommand.self,
        MotorOffCommand.self,
        SelfTestCommand.self,
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
        let command: any WristcoreCommand
        do throws(UsageError) {
            switch try tool.parse(CommandLine.arguments.dropFirst()) {
            case .help(let name):
                print(tool.help(command: name, width: HelpWidth.columns))
                CLinux.exit(WristCoreExit.ok)
            case .version:
                print(tool.version)
                CLinux.exit(WristCoreExit.ok)
            case .run(let arguments):
                let type = commands.first { $0.description.name == arguments.command.name }!
                command = type.init(arguments)
                do { try command.validate() } catch { throw UsageError(error.message, command: arguments.command.name) }
            }
        } catch {
            FileHandleStandardError.write(error.line(tool: tool.name) + "\n")
            CLinux.exit(WristCoreExit.usageOrConfiguration)
        }
        do {
            try command.run()
            CLinux.exit(WristCoreExit.ok)
        } catch let failure as WristCoreFailure {
            FileHandleStandardError.write("wristcore: \(failure.message)\n")
            CLinux.exit(failure.exitCode)
        } catch let error as BoardError {
            FileHandleStandardError.write("wristcore: the board file has problems:\n\(error)\n")
            CLinux.exit(WristCoreExit.usageOrConfiguration)
        } catch {
            FileHandleStandardError.write("wristcore: \(error)\n")
            CLinux.exit(WristCoreExit.runtimeFailure)
        }
    }
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
        if let text = getenv("COLUMNS"), let n = Int(String(cString: text)) { return n }
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
