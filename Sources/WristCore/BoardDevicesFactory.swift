import BoardConfig
import HAL
import LinuxBoard
import LinuxHAL
import LinuxLoop
import Log
import SimBoard
import TextFormat

/// What a board's devices are made with, once the daemon's loop exists.
public struct BoardDevicesContext {
    public let board: Board
    public let loop: EpollLoop
    public let logger: Logger
    public let options: WatchDaemon.Options
    /// Where bonds are kept.
    public let stateDirectory: String

    public init(board: Board, loop: EpollLoop, logger: Logger, options: WatchDaemon.Options, stateDirectory: String) {
        self.board = board
        self.loop = loop
        self.logger = logger
        self.options = options
        self.stateDirectory = stateDirectory
    }
}

/// Which devices a daemon runs on. `matching(_:)` is the one place that tells
/// a simulated board from a real one; the demo asks for `simulated` whatever
/// board file gives its geometry.
public struct BoardDevicesFactory {
    /// Opens the devices (the daemon, and the self-test on the same devices).
    public let make: (BoardDevicesContext) throws(WristCoreFailure) -> any BoardDevices

    public init(_ make: @escaping (BoardDevicesContext) throws(WristCoreFailure) -> any BoardDevices) {
        self.make = make
    }

    /// i2c-dev, libgpiod and Bluetooth.
    public static var linux: BoardDevicesFactory {
        BoardDevicesFactory { context in
            LinuxBoardDevices(
                board: context.board, loop: context.loop, logger: context.logger, stateDirectory: context.stateDirectory,
                phoneEndpoint: context.options.phoneEndpoint)
        }
    }

    /// The emulated panel, pushed buttons, a reporting motor line and a
    /// simulated phone, on Unix sockets.
    public static var simulated: BoardDevicesFactory {
        BoardDevicesFactory { context throws(WristCoreFailure) in
            let phonePath = try PathText.unixEndpoint(context.options.phoneEndpoint, flag: "--phone")
            return SimulatedBoardDevices(
                board: context.board, loop: context.loop, sockets: UnixLocalSockets(), logger: context.logger,
                options: .init(
                    phoneEndpointPath: phonePath, phoneScript: context.options.phoneScript,
                    androidScript: context.options.androidPhoneScript))
        }
    }

    /// What the board file asks for: simulated devices for the sim board, Linux ones otherwise.
    public static func matching(_ board: Board) -> BoardDevicesFactory {
        board.simulated ? .simulated : .linux
    }
}

extension BoardDevicesFactory {
    /// What `wristcore doctor` reports: the system and wiring checks for a
    /// real board; on simulated hardware there is nothing to check.
    public static func doctorReport(for board: Board, stateDirectory: String, runtimeDirectory: String) -> Doctor.Report {
        guard !board.simulated else {
            var r = Doctor.Report()
            r.ok("board \(board.source): \(board.name)")
            r.ok("simulated board: no devices to check")
            return r
        }
        return Doctor(board: board, stateDirectory: stateDirectory, runtimeDirectory: runtimeDirectory).check()
    }

    /// `wristcore motor-off`: drives the board's motor line inactive (after a
    /// crash or kill -9 the kernel keeps a released line at its last level).
    /// Returns what was done, for the user.
    public static func forceMotorOff(for board: Board) throws(WristCoreFailure) -> String {
        guard let motor = board.motor, !board.simulated else { return "no motor line to switch off on \(board.name)" }
        let line: GPIOMotorLine
        do {
            // Requesting the output drives it inactive; release keeps it driven low until reboot on most SoCs.
            line = try GPIOMotorLine(chip: motor.chip, line: motor.line.gpioLineID, activeLow: motor.activeLow, consumer: "wristcore-motor-off")
        } catch {
            throw WristCoreFailure("motor-off: \(error)")
        }
        try? line.setActive(false)
        line.release()
        return "motor line \(motor.chip) \(motor.line) driven inactive"
    }
}
