import BoardConfig
import CommandLineOptions
import HAL
import LinuxHAL
import TextFormat
import WristCore

struct MotorOffCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "motor-off",
        abstract: "Drive a board's motor line low (for ExecStopPost= after a crash or kill -9).",
        discussion: """
            'wristcore run' switches the motor off on every way out it controls (exit, \
            SIGINT, SIGTERM, errors). After a kill -9 or a crash the kernel only releases \
            the line, and most SoCs keep its last level, so a motor that was on would stay \
            on. deploy/wristcore.service runs this command as ExecStopPost= to make sure.

            Example:
              wristcore motor-off --board /etc/wristcore/board.json
            """,
        parameters: [
            .option("board", valueName: "file", required: true, help: "The board file whose motor line to drive low."),
        ]
    )

    var board: String

    init(_ arguments: ParsedArguments) {
        board = arguments.required("board")
    }

    func run() throws(WristCoreFailure) {
        let loaded = try loadBoardArgument(board)
        print(try BoardDevicesFactory.forceMotorOff(for: loaded))
    }
}
