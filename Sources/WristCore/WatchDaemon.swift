import HAL
import LinuxHAL
import Logging
import RunLoop

/// The daemon's composition root: one event loop, the board's devices, and an
/// orderly shutdown on SIGINT / SIGTERM.
public final class WatchDaemon {
    public let board: Board
    let logger: Logger
    let duration: Double?

    public init(board: Board, logger: Logger, duration: Double? = nil) {
        self.board = board
        self.logger = logger
        self.duration = duration
    }

    public func run() throws {
        if !board.simulated {
            // Refuse to start on a board whose devices are missing or busy, saying how to fix it.
            let report = Doctor(board: board).check()
            for line in report.lines { logger.debug("\(line)") }
            if report.failed {
                let failures = report.lines.filter { $0.hasPrefix("FAIL") }.joined(separator: "\n")
                throw WristCoreFailure("the board's devices are not ready:\n\(failures)\n(run 'wristcore doctor --board \(board.source)' for the full check)")
            }
        }
        let loop: EventLoop
        do {
            loop = try EventLoop()
            try loop.handleTerminationSignals()
        } catch {
            throw WristCoreFailure("cannot start the event loop: \(error)")
        }
        loop.onShutdown { [logger] in logger.info("stopped") }
        if let duration {
            loop.schedule(after: .milliseconds(Int64(duration * 1000))) { loop.shutdown() }
        }
        let d = board.display
        logger.info("WristCore \(WristCoreVersion.string) on \(board.name) [\(board.source)]\(board.simulated ? " (simulated hardware)" : "")")
        logger.info("display \(d.controller.rawValue) \(d.width)x\(d.height) on \(d.devicePath) at 0x\(String(d.address, radix: 16, uppercase: true)); buttons: \(board.buttons.map(\.role.rawValue).joined(separator: ", ")); motor: \(board.motor == nil ? "none" : "yes")")
        logger.info("press Ctrl-C to stop")
        do { try loop.run() } catch { throw WristCoreFailure("event loop failed: \(error)") }
        if let sig = loop.receivedSignal { logger.info("received signal \(sig), shut down cleanly") }
    }
}
