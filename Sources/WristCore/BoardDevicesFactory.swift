import BoardConfig
import HAL
import LinuxHAL
import LinuxLoop
import Logging
import SimBoard

/// What a board's devices are made with, once the daemon's loop exists.
public struct BoardDevicesContext {
    public let board: Board
    public let loop: EpollLoop
    public let logger: Logger
    public let options: WatchDaemon.Options
    /// Where bonds are kept.
    public let stateDirectory: String
}

/// Which devices a daemon runs on. `matching(_:)` is the one place that tells
/// a simulated board from a real one; the demo asks for `simulated` whatever
/// board file gives its geometry.
public struct BoardDevicesFactory {
    let make: (BoardDevicesContext) throws -> any BoardDevices

    public init(_ make: @escaping (BoardDevicesContext) throws -> any BoardDevices) {
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
        BoardDevicesFactory { context in
            let phonePath = try WatchDaemon.endpointPath(context.options.phoneEndpoint, flag: "--phone")
            return SimulatedBoardDevices(
                board: context.board, loop: context.loop, sockets: UnixLocalSockets(), logger: context.logger,
                options: .init(phoneEndpointPath: phonePath, phoneScript: context.options.phoneScript))
        }
    }

    /// What the board file asks for: simulated devices for the sim board, Linux ones otherwise.
    public static func matching(_ board: Board) -> BoardDevicesFactory {
        board.simulated ? .simulated : .linux
    }
}
