import BoardConfig
import TextFormat
/// One request on the harness endpoint's line protocol (docs/harness.md).
public enum HarnessCommand: Equatable, Sendable {
    /// Press and release (held 80 ms: longer than the debounce, shorter than a long press).
    case press(ButtonRole)
    /// Press; release after `milliseconds` when given, else on `release`.
    case hold(ButtonRole, milliseconds: Int?)
    case release(ButtonRole)
    /// Two presses in quick succession.
    case double(ButtonRole)
    /// Start streaming `motor on|off <monotonic ns>` lines on this connection.
    case motor
    /// Start streaming JSON lines on this connection: notifications added,
    /// modified and removed, media changes (docs/harness.md).
    case events
    case snapshot(SnapshotFormat)
    /// The notification store as one JSON line.
    case notifications
    /// The screen, display power, link and motor as one JSON line.
    case state
    case help
    case quit
    /// The simulated board's battery: `battery 42 [charging]` (the watch's),
    /// `battery phone 64` (the simulated iPhone's Battery Service).
    case battery(percent: Int, charging: Bool)
    case phoneBattery(Int)
    /// `history clear`: deletes the notification history file (docs/settings.md).
    case clearHistory

    public enum SnapshotFormat: String, Sendable { case pbm, png }

    /// Parses one line; the error text is sent back after `error `.
    public static func parse(_ line: String) -> Result<HarnessCommand, HarnessCommandError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.asciiLowercased() else { return .failure(.init("empty line; try 'help'")) }
        let args = Array(words.dropFirst())
        func role() -> Result<ButtonRole, HarnessCommandError> {
            guard let name = args.first else {
                return .failure(.init("\(verb) needs a button name: \(ButtonRole.allCases.map { $0.rawValue }.joined(separator: ", "))"))
            }
            guard let r = ButtonRole(rawValue: name.asciiLowercased()) else {
                return .failure(.init("unknown button '\(name)'; buttons: \(ButtonRole.allCases.map { $0.rawValue }.joined(separator: ", "))"))
            }
            return .success(r)
        }
        func noMoreThan(_ n: Int) -> HarnessCommandError? {
            args.count > n ? .init("too many arguments for \(verb)") : nil
        }
        switch verb {
        case "press", "release", "double":
            if let e = noMoreThan(1) { return .failure(e) }
            return role().map { verb == "press" ? .press($0) : verb == "release" ? .release($0) : .double($0) }
        case "hold":
            if let e = noMoreThan(2) { return .failure(e) }
            var ms: Int?
            if args.count == 2 {
                guard let v = IntegerText.int(args[1].hasSuffix("ms") ? String(args[1].dropLast(2)) : args[1]), v > 0, v <= 60_000 else {
                    return .failure(.init("hold: '\(args[1])' is not a duration in milliseconds (1-60000)"))
                }
                ms = v
            }
            return role().map { .hold($0, milliseconds: ms) }
        case "motor":
            if let e = noMoreThan(0) { return .failure(e) }
            return .success(.motor)
        case "events":
            if let e = noMoreThan(0) { return .failure(e) }
            return .success(.events)
        case "snapshot":
            if let e = noMoreThan(1) { return .failure(e) }
            let name = args.first?.asciiLowercased() ?? "pbm"
            guard let f = SnapshotFormat(rawValue: name) else { return .failure(.init("snapshot format must be pbm or png, not '\(name)'")) }
            return .success(.snapshot(f))
        case "notifications":
            if let e = noMoreThan(0) { return .failure(e) }
            return .success(.notifications)
        case "state":
            if let e = noMoreThan(0) { return .failure(e) }
            return .success(.state)
        case "help":
            if let e = noMoreThan(0) { return .failure(e) }
            return .success(.help)
        case "quit":
            if let e = noMoreThan(0) { return .failure(e) }
            return .success(.quit)
        case "battery":
            if let e = noMoreThan(2) { return .failure(e) }
            let usage = "battery needs a level: 'battery 0-100 [charging]' (the watch's) or 'battery phone 0-100'"
            guard let first = args.first else { return .failure(.init(usage)) }
            if first.asciiLowercased() == "phone" {
                guard args.count == 2, let level = IntegerText.int(args[1]), (0...100).contains(level) else { return .failure(.init(usage)) }
                return .success(.phoneBattery(level))
            }
            guard let level = IntegerText.int(first), (0...100).contains(level) else { return .failure(.init(usage)) }
            if args.count == 2 && args[1].asciiLowercased() != "charging" { return .failure(.init(usage)) }
            return .success(.battery(percent: level, charging: args.count == 2))
        case "history":
            guard args.count == 1, args[0].asciiLowercased() == "clear" else { return .failure(.init("history: the one subcommand is 'history clear'")) }
            return .success(.clearHistory)
        default:
            return .failure(.init("unknown command '\(words[0])'; try 'help'"))
        }
    }

    public static let helpText = """
        press BUTTON        press and release (80 ms)
        hold BUTTON [MS]    press; release after MS milliseconds, or with 'release'
        release BUTTON      release a held button
        double BUTTON       two quick presses
        motor               stream 'motor on|off <monotonic ns>' lines from now on
        events              stream JSON lines from now on: {"event":"notification",...}, {"event":"media",...}
        snapshot [pbm|png]  'snapshot FORMAT <bytes>' then the image bytes
        notifications       'notifications <JSON array>', newest first
        state               'state <JSON object>'
        battery N [charging]  the simulated board's battery at N % (read at once)
        battery phone N     the simulated iPhone's battery at N % (its Battery Service notifies it)
        history clear       delete the notification history file in the state directory
        quit                close this connection
        buttons: positive, negative, select, up, down, back (those the board has)
        """
}

public struct HarnessCommandError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
