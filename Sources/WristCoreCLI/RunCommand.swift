import ArgumentParser
import BoardConfig
import HAL
import LinuxHAL
import Logging
import Peripheral
import SimBoard
import WristCore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
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
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("A board file (Boards/<name>.json), or 'sim' for simulated hardware.", valueName: "file|sim"))
    var board: String

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds (for scripted runs).", valueName: "seconds"))
    var duration: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("Simulated board only: listen for phone links (raw ATT over SOCK_SEQPACKET) at unix:PATH.", valueName: "unix:path"))
    var phone: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Serve the harness line protocol (buttons, motor, screen, store) at unix:PATH.", valueName: "unix:path"))
    var harness: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Where Bluetooth bonds are kept (default: $STATE_DIRECTORY from systemd, else /var/lib/wristcore).", valueName: "dir"))
    var stateDir: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        for (flag, value) in [("--phone", phone), ("--harness", harness)] {
            if let value, !value.hasPrefix("unix:") || value.count <= 5 {
                throw ValidationError("\(flag) takes unix:PATH, for example \(flag) unix:/tmp/wristcore\(flag.dropFirst(1)).sock")
            }
        }
    }

    func run() throws {
        global.bootstrapLogging()
        let loaded = try ResourcePaths.loadBoard(argument: board)
        var options = WatchDaemon.Options()
        options.duration = duration.map { .milliseconds(Int64($0 * 1000)) }
        options.phoneEndpoint = phone
        options.harnessEndpoint = harness
        options.stateDirectory = stateDir
        let logger = Logger(label: "wristcore")
        let daemon = WatchDaemon(board: loaded, logger: logger, options: options, devices: .matching(loaded))
        try daemon.run()
        if daemon.restartRequested {
            // Everything is released by now (motor off, lines and sockets closed).
            let error = ProcessSignals.restartInPlace(arguments: CommandLine.arguments)
            throw WristCoreFailure("SIGHUP: \(error)")
        }
    }
}

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show WristCore working with no hardware: a simulated iPhone plays a scenario.",
        discussion: """
            The watch runs on simulated hardware; a simulated iPhone plays a scenario \
            (messages in several languages, an Important message, an incoming call, a \
            missed call, a calendar alert and mail); the OLED is drawn in the terminal and \
            keys press the buttons:

              → y Enter   positive (Answer, open)      ← n Backspace   negative (Decline, Clear)
              ↑ ↓         up / down                    space           select
              Esc b       back                         q Ctrl-C        quit

            The panel is drawn with half blocks when the terminal is wide enough, braille \
            dots in a plain 80x24 terminal, ASCII when the terminal is not UTF-8. The \
            terminal is restored on exit and on Ctrl-C.

            Without a terminal (CI), give --frames N: N frames of 100 ms of watch time are \
            rendered with a stepped clock, the same on every run; --png DIR writes each \
            frame as a PNG.

            Examples:
              wristcore demo
              wristcore demo --speed 2 --board Boards/rpi-zero2w.json
              wristcore demo --frames 200 --png out/
              wristcore demo --scenario Scenarios/calls.scenario

            Scenario files: docs/demo.md.
            """
    )

    @Option(name: .long, help: ArgumentHelp("A scenario file, or the name of a shipped one (default: default).", valueName: "file"))
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp("Play the scenario this many times faster (0.1-20).", valueName: "factor"))
    var speed: Double = 1

    @Option(name: .long, help: ArgumentHelp("Write every frame as a PNG into this directory.", valueName: "dir"))
    var png: String?

    @Option(name: .long, help: ArgumentHelp("Render this many frames (100 ms of watch time each) without a terminal, then stop.", valueName: "n"))
    var frames: Int?

    @Option(name: .long, help: ArgumentHelp("A board file whose display geometry to use (default: sim).", valueName: "file|sim"))
    var board: String = "sim"

    @Option(name: .long, help: ArgumentHelp("Force a drawing style: blocks, braille or ascii.", valueName: "style"))
    var style: String?

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if !(speed >= 0.1 && speed <= 20) { throw ValidationError("--speed must be between 0.1 and 20") }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let style, TerminalPanel.Style(rawValue: style) == nil {
            throw ValidationError("--style must be one of: \(TerminalPanel.Style.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        global.bootstrapLogging()
        let loaded = try ResourcePaths.loadBoard(argument: board)
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
