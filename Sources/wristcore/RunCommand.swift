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
        let loaded = try BoardLoader.load(argument: board)
        var options = WatchDaemon.Options()
        options.duration = duration.map { .milliseconds(Int64($0 * 1000)) }
        options.phoneEndpoint = phone
        options.harnessEndpoint = harness
        try WatchDaemon(board: loaded, logger: Logger(label: "wristcore"), options: options).run()
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
