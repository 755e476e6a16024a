import BoardConfig
import Graphics
import HAL
import Harness
import LinuxHAL
import LinuxLoop
import Log
import Peripheral
import SimBoard
import TextFormat
import WatchFiles
import WristCore

/// `wristcore selftest`: the self-test on one event loop, with the daemon's
/// signal handling (every catchable terminating signal runs the shutdown
/// steps: the motor goes off, the summary says where the run stopped), the
/// board's devices from `BoardDevicesFactory` (the only simulated-or-real
/// choice) and, when asked, the harness endpoint.
public enum SelfTestRunner {
    /// Runs the self-test to its end (or a signal) and returns the summary;
    /// `summary.exitCode` is the process's exit code. Throws only when it
    /// cannot start at all (fonts, the event loop, a harness path in use), or
    /// when nothing could press a simulated board's buttons.
    ///
    /// - Parameter terminal: the terminal it runs in, if any. On a board that
    ///   is not wired (the simulated one) the panel is then drawn there and
    ///   keys press the buttons (`SelfTestTerminal`); on a wired board the
    ///   wearer presses the real buttons and the text goes to `output`.
    public static func run(board: Board, options: SelfTestOptions, logger: Logger, terminal: Terminal? = nil,
                           output: @escaping (String) -> Void) throws(WristCoreFailure) -> SelfTestSummary {
        let fonts = try ResourcePaths.screenFonts()
        let loop = try WatchDaemon.signalHandlingLoop()
        let context = BoardDevicesContext(
            board: board, loop: loop, logger: logger, options: WatchDaemon.Options(), stateDirectory: BondStore.defaultDirectory)
        let devices = try BoardDevicesFactory.matching(board).make(context)
        // Who presses the buttons of a board that is not wired: keys in a terminal, or a harness client.
        var screen: SelfTestTerminal?
        if !devices.isWired && !options.quick {
            if let terminal {
                screen = SelfTestTerminal(terminal: terminal)
            } else if options.harnessEndpoint == nil {
                throw WristCoreFailure(nothingPresses(board), exitCode: WristCoreExit.usageOrConfiguration)
            }
        }
        let say: (String) -> Void = screen.map { s in { [unowned(unsafe) s] text in s.add(text) } } ?? output
        let sequence = SelfTestSequence(board: board, devices: devices, loop: loop, fonts: fonts, options: options, output: say)
        defer { sequence.release() }
        // A signal: the motor off at once, then the summary of what was done.
        loop.onShutdown { [unowned(unsafe) loop] in
            sequence.interrupt(reason: loop.receivedSignal.map(ProcessSignals.name) ?? "shutdown")
            sequence.release()
        }

        var harness: HarnessServer?
        defer { harness?.close() }
        if let path = try WatchDaemon.unixEndpointPath(options.harnessEndpoint, flag: "--harness") {
            do throws(HALError) {
                harness = try HarnessServer(path: path, sockets: UnixLocalSockets(), loop: loop, logger: logger, hooks: hooks(sequence, devices, board))
            } catch {
                throw WristCoreFailure("cannot start: \(error)")
            }
            logger.info("harness listening on unix:\(path)")
            // unowned(unsafe): the server lives until this function returns, and the
            // sequence's motor is released (deferred above) before that.
            if let server = harness {
                sequence.motorStateHandler = { [unowned(unsafe) server] on, at in server.motorChanged(on: on, at: at) }
            }
        }
        if let screen {
            try screen.begin(
                on: loop, board: board, devices: devices, image: { panelImage(sequence, devices, board) },
                motorOn: { sequence.motor?.isMotorOn ?? false },
                quit: { sequence.interrupt(reason: "the q key") })
        }
        // Restored before anything else is printed; then the whole text, the summary last.
        defer { screen?.end(printingTo: output) }
        // With a harness client, the last reply (and a snapshot of the summary) still goes out.
        let linger: Duration = harness == nil ? .zero : .milliseconds(300)
        sequence.onFinished = { [unowned(unsafe) loop] in
            if linger == .zero { loop.stop() } else { _ = loop.schedule(after: linger) { loop.stop() } }
        }
        sequence.start()
        if !sequence.finished || linger > .zero {
            do throws(HALError) { try loop.run() } catch { throw WristCoreFailure("event loop failed: \(error)") }
        }
        return sequence.summary
    }

    /// The one line for a board that is not wired, with no terminal and no harness.
    static func nothingPresses(_ board: Board) -> String {
        "nothing can press the buttons of \(board.name) here (this is not a terminal): add --harness unix:/tmp/wc-harness.sock "
            + "and send it 'press positive' lines (docs/harness.md), or run the self-test in a terminal, where keys press them; --quick needs nobody"
    }

    /// What the panel shows: the emulated glass, else the framebuffer.
    static func panelImage(_ sequence: SelfTestSequence, _ devices: any BoardDevices, _ board: Board) -> MonoImage {
        let rotation = Rotation(rawValue: board.display.rotation) ?? .r0
        return devices.panelImage()?.viewed(as: rotation)
            ?? sequence.panel.map { MonoImage($0.framebuffer) }
            ?? MonoImage(width: board.display.width, height: board.display.height)
    }

    private static func hooks(_ sequence: SelfTestSequence, _ devices: any BoardDevices, _ board: Board) -> HarnessServer.Hooks {
        HarnessServer.Hooks(
            setButton: { role, active in devices.setButton(role, active: active) },
            snapshot: { format in
                let image = panelImage(sequence, devices, board)
                switch format {
                case .pbm: return Array(image.pbmPlain().utf8)
                case .png: return image.png(scale: 1)
                }
            },
            notificationsJSON: { "[]" },
            stateJSON: { sequence.stateJSON() })
    }
}
