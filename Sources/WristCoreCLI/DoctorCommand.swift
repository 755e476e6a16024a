import ArgumentParser
import BoardConfig
import HAL
import Logging
import Peripheral
import WristCore

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a board's wiring and the system, and say how to fix each problem.",
        discussion: """
            Validates the board file, then checks: the I2C bus exists and the display \
            answers at its address; each GPIO chip exists and each button and motor line \
            exists and is free; the Bluetooth adapter exists and supports Low Energy; \
            bluetoothd is not holding it; the process has root or CAP_NET_ADMIN; \
            the state directory (bonds) is writable.

            Every check prints one line: ok, WARN or FAIL with the fix. Exit code 0 when \
            nothing failed, 1 when a check failed, 2 when the board file itself is wrong.

            Example:
              wristcore doctor --board Boards/rpi-zero2w.json
            """
    )

    @Option(name: .long, help: ArgumentHelp("The board file to check, or 'sim'.", valueName: "file|sim"))
    var board: String

    @Option(name: .long, help: ArgumentHelp("The state directory that will hold the Bluetooth bonds.", valueName: "dir"))
    var stateDir: String = BondStore.defaultDirectory

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        let loaded = try ResourcePaths.loadBoard(argument: board)
        let report = BoardDevicesFactory.doctorReport(for: loaded, stateDirectory: stateDir)
        for line in report.lines { print(line) }
        if report.failed { throw WristCoreFailure("\(report.failureCount) check(s) failed", exitCode: WristCoreExit.runtimeFailure) }
    }
}
