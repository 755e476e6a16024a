import BenchTools
import BoardConfig
import CommandLineOptions
import HAL
import LinuxHAL
import Log
import Peripheral
import SimBoard
import TextFormat
import WatchFiles
import WristCore

struct RunCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "run",
        abstract: "Run the watch: Bluetooth, display, buttons and motor of a board.",
        discussion: """
            Loads and validates the board file, opens its devices and runs until a \
            terminating signal (SIGTERM, SIGINT, SIGQUIT, SIGUSR1 ...), switching the motor \
            and (unless persisted) the display off on the way out. SIGHUP does the same, \
            then restarts in place (same PID): the board file is read again and the devices \
            reopened. SIGPIPE is ignored.

            Examples:
              wristcore run --board Boards/rpi-zero2w.json
              wristcore run --board sim            # simulated hardware and a built-in simulated iPhone
              wristcore run --board sim --phone unix:/tmp/phone.sock --harness unix:/tmp/harness.sock

            On the simulated board, --phone listens on a Unix SOCK_SEQPACKET socket: each \
            connection is one BLE link carrying raw ATT PDUs, so any program can play the \
            iPhone. --harness serves a line protocol (press / hold / release a button, the \
            motor's on/off events, a PBM or PNG snapshot of the screen, the notification \
            store as JSON). Both are described with examples in docs/harness.md.

            Board files are described in docs/boards.md. A board file with problems is \
            reported field by field and the exit code is 2.
            """,
        parameters: [
            .option("board", valueName: "file|sim", required: true, help: "A board file (Boards/<name>.json), or 'sim' for simulated hardware."),
            .option("duration", valueName: "seconds", value: .number, help: "Stop after this many seconds (for scripted runs)."),
            .option(
                "phone", valueName: "unix:path",
                help: "Simulated board only: listen for phone links (raw ATT over SOCK_SEQPACKET) at unix:PATH."),
            .option("harness", valueName: "unix:path", help: "Serve the harness line protocol (buttons, motor, screen, store) at unix:PATH."),
            .option(
                "state-dir", valueName: "dir",
                help: "Where Bluetooth bonds are kept (default: $STATE_DIRECTORY from systemd, else /var/lib/wristcore)."),
        ] + GlobalOptions.parameters
    )

    var board: String
    var duration: Double?
    var phone: String?
    var harness: String?
    var stateDir: String?
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        board = arguments.required("board")
        duration = arguments.number("duration")
        phone = arguments.value("phone")
        harness = arguments.value("harness")
        stateDir = arguments.value("state-dir")
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        if let duration, !(duration > 0) { throw UsageError("--duration must be a positive number of seconds") }
        for (flag, value) in [("--phone", phone), ("--harness", harness)] {
            if let value, !value.hasPrefix("unix:") || value.count <= 5 {
                throw UsageError("\(flag) takes unix:PATH, for example \(flag) unix:/tmp/wristcore\(flag.dropFirst(1)).sock")
            }
        }
    }

    func run() throws(WristCoreFailure) {
        // First thing: a signal from now on waits for the loop (or, during a
        // restart, for the next image's loop) instead of killing the process.
        ProcessSignals.blockTerminating()
        // The name the process had before a SIGHUP restart (`wristcore`, not `exe`),
        // and the path a restart executes: the installed file, read once now.
        RestartHandoff.takeName()
        let executable = CurrentProcess.executablePath
        global.bootstrapLogging()
        let loaded: Board
        do throws(BoardError) { loaded = try ResourcePaths.loadBoardAfterRestart(argument: board) } catch { throw error.commandFailure }
        var options = WatchDaemon.Options()
        options.boardArgument = board
        options.duration = duration.map { .milliseconds(Int64($0 * 1000)) }
        options.phoneEndpoint = phone
        options.harnessEndpoint = harness
        options.stateDirectory = stateDir
        let logger = Logger(label: "wristcore")
        let daemon = WatchDaemon(board: loaded, logger: logger, options: options, devices: .matching(loaded))
        try daemon.run()
        if daemon.restartRequested {
            // Everything is released by now (motor off, lines and sockets closed).
            // The new image gets the files exactly as the SIGHUP checked them.
            do throws(HALError) {
                try RestartHandoff.hand(daemon.checkedForRestart.board, as: RestartHandoff.boardVariable)
                try RestartHandoff.hand(daemon.checkedForRestart.settings, as: RestartHandoff.settingsVariable)
            } catch {
                throw WristCoreFailure("SIGHUP: cannot hand the checked files to the new image: \(error)")
            }
            // After an upgrade the file was replaced: the restart starts the
            // installed version from the path this one was started from.
            if let running = CurrentProcess.executablePath, running.hasSuffix(" (deleted)"), let executable {
                logger.notice("the wristcore binary was replaced since this one (WristCore \(WristCoreVersion.string)) started: restarting into the installed \(executable)")
            }
            let error = ProcessSignals.restartInPlace(executable: executable, arguments: ProcessArguments.all)
            throw WristCoreFailure("SIGHUP: \(error)")
        }
    }
}

struct DemoCommand: WristcoreCommand {
    static let description = CommandDescription(
        name: "demo",
        abstract: "Show WristCore working with no hardware: a simulated iPhone (or Android phone) plays a scenario.",
        discussion: """
            The watch runs on simulated hardware; a simulated iPhone plays a scenario \
            (messages in several languages, an Important message, an incoming call, a \
            missed call, a calendar alert and mail); the OLED is drawn in the terminal and \
            keys press the buttons:

              y Enter Right  positive (Answer)     n Backspace Left  negative (Decline)
              k Up           up                    j Down            down
              s space        select                b Esc             back
              Y N K J S B or Shift+arrow: a long press of that button
              2 then a key:  a double press        q Ctrl-C          quit

            The presses last as the board's input timing says, so the watch tells them \
            apart as it does real ones: Y on the clock opens Do Not Disturb. A double \
            press counts on the positive button of a board without up/down buttons \
            (--board Boards/rpi-zero2w.json); elsewhere it is two presses. The line under \
            the panel names every press, yours and the scenario's.

            The panel is drawn with half blocks when the terminal has room (128x34 for a \
            128x64 panel), braille dots otherwise (a plain 80x24 terminal; a line says how \
            big the terminal must be for half blocks), plain ASCII when the terminal is \
            not UTF-8 or with --style ascii. The terminal is restored on exit and on Ctrl-C.

            Without a terminal (CI), give --frames N: N frames of 100 ms of watch time are \
            rendered with a stepped clock, the same on every run; --png DIR writes each \
            frame as a PNG.

            Examples:
              wristcore demo
              wristcore demo --speed 2 --board Boards/rpi-zero2w.json
              wristcore demo --frames 200 --png out/
              wristcore demo --scenario Scenarios/default.scenario
              wristcore demo --scenario android     (an Android phone: Gadgetbridge)

            Scenario files: docs/demo.md.
            """,
        parameters: [
            .option("scenario", valueName: "file", help: "A scenario file, or the name of a shipped one (default: default)."),
            .option("speed", valueName: "factor", value: .number, default: "1.0", help: "Play the scenario this many times faster (0.1-20)."),
            .option("png", valueName: "dir", help: "Write every frame as a PNG into this directory."),
            .option(
                "frames", valueName: "n", value: .integer(in: nil),
                help: "Render this many frames (100 ms of watch time each) without a terminal, then stop."),
            .option("board", valueName: "file|sim", default: "sim", help: "A board file whose display geometry to use."),
            .option("style", valueName: "style", help: "Force a drawing style: blocks, braille or ascii."),
            .option("duration", valueName: "seconds", value: .number, help: "Stop after this many seconds."),
        ] + GlobalOptions.parameters
    )

    var scenario: String?
    var speed: Double
    var png: String?
    var frames: Int?
    var board: String
    var style: String?
    var duration: Double?
    var global: GlobalOptions

    init(_ arguments: ParsedArguments) {
        scenario = arguments.value("scenario")
        speed = arguments.number("speed")!
        png = arguments.value("png")
        frames = arguments.integer("frames")
        board = arguments.required("board")
        style = arguments.value("style")
        duration = arguments.number("duration")
        global = GlobalOptions(arguments)
    }

    func validate() throws(UsageError) {
        if !(speed >= 0.1 && speed <= 20) { throw UsageError("--speed must be between 0.1 and 20") }
        if let frames, frames < 1 { throw UsageError("--frames must be at least 1") }
        if let duration, !(duration > 0) { throw UsageError("--duration must be a positive number of seconds") }
        if let style, TerminalPanel.Style(rawValue: style) == nil {
            throw UsageError("--style must be one of: \(TerminalPanel.Style.allCases.map { $0.rawValue }.joined(separator: ", "))")
        }
    }

    func run() throws(WristCoreFailure) {
        global.bootstrapLogging()
        let loaded = try loadBoardArgument(board)
        var options = DemoRunner.Options(scenario: try DemoScenario.load(ResourcePaths.scenarioArgument(scenario)))
        options.speed = speed
        options.pngDirectory = png
        options.style = style.flatMap(TerminalPanel.Style.init(rawValue:))
        options.duration = duration.map { .milliseconds(Int64($0 * 1000)) }
        let runner = DemoRunner(board: loaded, options: options, logger: Logger(label: "wristcore.demo"))
        if let frames {
            return try runner.runHeadless(frames: frames)
        }
        guard let terminal = Terminal() else {
            if png != nil {
                // No terminal but PNGs wanted: the whole scenario, headless.
                let n = Int(options.scenario.scaled(by: speed).length.nanosecondsClamped / DemoRunner.frameInterval.nanosecondsClamped) + 10
                return try runner.runHeadless(frames: n)
            }
            throw WristCoreFailure(
                "the demo draws in a terminal, and this is not one; for CI use --frames N (and --png DIR to keep the frames)",
                exitCode: WristCoreExit.usageOrConfiguration)
        }
        try runner.runInteractive(terminal: terminal)
    }
}
