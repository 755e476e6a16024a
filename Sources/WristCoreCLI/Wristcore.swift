import ArgumentParser
import BoardConfig
import Glibc
import HAL
import LinuxHAL
import Logging
import WristCore

/// `wristcore`: the watch daemon and its bench tools.
@main
struct Wristcore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wristcore",
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
        subcommands: [RunCommand.self, DemoCommand.self, DoctorCommand.self, SetupCommand.self, DecodeCommand.self, ForgetCommand.self, ScreenshotCommand.self, MotorOffCommand.self, SelfTestCommand.self]
    )

    /// Parses, runs, and maps every outcome to WristCore's exit codes
    /// (ArgumentParser would use 64 for usage errors; we promise 2).
    static func main() {
        ProcessSignals.ignoreBrokenPipe()
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(WristCoreExit.ok)
        } catch let failure as WristCoreFailure {
            FileHandleStandardError.write("wristcore: \(failure.message)\n")
            Glibc.exit(failure.exitCode)
        } catch let error as BoardError {
            FileHandleStandardError.write("wristcore: the board file has problems:\n\(error)\n")
            Glibc.exit(WristCoreExit.usageOrConfiguration)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(WristCoreExit.ok)
            }
            FileHandleStandardError.write(fullMessage(for: error) + "\n")
            let isUsage = code == .validationFailure || error is ValidationError
            Glibc.exit(isUsage ? WristCoreExit.usageOrConfiguration : WristCoreExit.runtimeFailure)
        }
    }
}

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "How much to log to standard error: trace, debug, info, notice, warning, error, critical.",
            valueName: "level"))
    var logLevel: Logger.Level = .info

    /// Sets up swift-log once for the process.
    func bootstrapLogging() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

enum FileHandleStandardError {
    static func write(_ text: String) {
        fflush(nil)  // all streams: keeps stdout's report lines ahead of the error
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
