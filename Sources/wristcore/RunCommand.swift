import ArgumentParser
import Logging
import WristCore

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the watch: Bluetooth, display, buttons and motor of a board.",
        discussion: """
            Loads and validates the board file, opens its devices and runs until SIGINT \
            or SIGTERM, switching the motor and (unless persisted) the display off on the \
            way out.

            Examples:
              wristcore run --board Boards/rpi-zero2w.json
              wristcore run --board sim            # simulated hardware, no devices opened

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

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
    }

    func run() throws {
        global.bootstrapLogging()
        let loaded = try BoardLoader.load(argument: board)
        try WatchDaemon(board: loaded, logger: Logger(label: "wristcore"), duration: duration).run()
    }
}

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show WristCore working with no hardware: a simulated iPhone plays a scenario.",
        discussion: """
            Runs the watch on the simulated board. The scripted iPhone, the terminal \
            rendering of the OLED and the keyboard buttons arrive with the demo issue; \
            until then this runs the daemon on simulated hardware (like 'run --board sim').

            Examples:
              wristcore demo
              wristcore demo --duration 5
            """
    )

    @Option(name: .long, help: ArgumentHelp("A board file whose display geometry to use (default: sim).", valueName: "file|sim"))
    var board: String = "sim"

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        var loaded = try BoardLoader.load(argument: board)
        loaded.simulated = true  // the demo never opens devices, whatever the geometry source
        try WatchDaemon(board: loaded, logger: Logger(label: "wristcore.demo"), duration: duration).run()
    }
}
