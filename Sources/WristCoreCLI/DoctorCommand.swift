import BoardConfig
import CommandLineOptions
import HAL
import LinuxHAL
import Log
import Peripheral
import TextFormat
import WristCore

struct DoctorCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "doctor",
        abstract: "Check a board's wiring and the system, and say how to fix each problem.",
        discussion: """
            Validates the board file, then checks: the I2C bus exists and the display \
            answers at its address; each GPIO chip exists and each button and motor line \
            exists and is free; the Bluetooth adapter exists and supports Low Energy; \
            bluetoothd is not holding it; the process has root or CAP_NET_ADMIN; \
            the state directory (bonds) is writable. When the watch service runs, \
            it also prints what the running watch says of itself (its status file in \
            the runtime directory): why notifications may not arrive, as its Status \
            screen explains it (not paired, not sharing, not answering, adapter gone...).

            Every check prints one line: ok, WARN or FAIL with the fix. Exit code 0 when \
            nothing failed, 1 when a check failed, 2 when the board file itself is wrong.

            Example:
              wristcore doctor --board Boards/rpi-zero2w.json
            """,
        parameters: [
            .option("board", valueName: "file|sim", required: true, help: "The board file to check, or 'sim'."),
            .option(
                "state-dir", valueName: "dir", default: BondStore.defaultDirectory,
                help: "The state directory that will hold the Bluetooth bonds."),
            .option(
                "runtime-dir", valueName: "dir", default: RunningWatchStatus.defaultDirectory,
                help: "Where the running watch service writes its status (systemd's RuntimeDirectory)."),
        ] + GlobalOptions.parameters
    )

    var board: String
    var stateDir: String
    var runtimeDir: String
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        board = arguments.required("board")
        stateDir = arguments.required("state-dir")
        runtimeDir = arguments.required("runtime-dir")
        global = GlobalOptions(arguments)
    }

    func run() throws(WristCoreFailure) {
        global.bootstrapLogging()
        let loaded = try loadBoardArgument(board)
        let report = BoardDevicesFactory.doctorReport(for: loaded, stateDirectory: stateDir, runtimeDirectory: runtimeDir)
        for line in report.lines { print(line) }
        if report.failed { throw WristCoreFailure("\(report.failureCount) check(s) failed", exitCode: WristCoreExit.runtimeFailure) }
    }
}
