import ArgumentParser
import BoardConfig
import HAL
import LinuxHAL
import WristCore

struct MotorOffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motor-off",
        abstract: "Drive a board's motor line low (for ExecStopPost= after a crash or kill -9).",
        discussion: """
            'wristcore run' switches the motor off on every way out it controls (exit, \\
            SIGINT, SIGTERM, errors). After a kill -9 or a crash the kernel only releases \\
            the line, and most SoCs keep its last level, so a motor that was on would stay \\
            on. deploy/wristcore.service runs this command as ExecStopPost= to make sure.

            Example:
              wristcore motor-off --board /etc/wristcore/board.json
            """
    )

    @Option(name: .long, help: ArgumentHelp("The board file whose motor line to drive low.", valueName: "file"))
    var board: String

    func run() throws {
        let loaded = try ResourcePaths.loadBoard(argument: board)
        print(try BoardDevicesFactory.forceMotorOff(for: loaded))
    }
}
