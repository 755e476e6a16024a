import Graphics
import Notifications
import Display
import HAL
import Haptics
import TextFormat

/// One problem with a board file: `file:line: field: message`.
public struct BoardProblem: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var field: String
    public var message: String

    package init(file: String, line: Int, field: String, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// One line: values in the message are quoted and escaped where they are
    /// echoed; any control character left (the file name, a field path) is
    /// escaped here, so no problem can cut or split the report.
    public var description: String {
        BoardText.controlsEscaped("\(file):\(line): \(field): \(message)")
    }
}

/// Every problem found in a board file (never just the first), reported
/// as at most `reportedProblems` lines and then a count: a file of a
/// hundred thousand bad rules must not flood the journal.
public struct BoardError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [BoardProblem]
    /// Problems found past the ones kept (counted only).
    public var uncounted = 0
    public static let reportedProblems = 20

    package init(problems: [BoardProblem], uncounted: Int = 0) {
        self.problems = problems
        self.uncounted = uncounted
    }

    public var description: String {
        let shown = problems.prefix(Self.reportedProblems).map { $0.description }
        let more = problems.count - shown.count + uncounted
        return (shown + (more > 0 ? ["... and \(more) more problem(s) (fix these first)"] : [])).joined(separator: "\n")
    }
}

/// Reads and validates board files (docs/boards.md describes the format).
public enum BoardLoader {
    /// The name that selects the simulated board.
    public static let simulatedBoardName = "sim"

    /// The most a board file may hold (docs/boards.md): the shipped ones
    /// are under 6 KB with their comments.
    public static let maxFileBytes = 64 * 1024

    /// Reads a whole file: its bytes, nil when there is no such file; throws
    /// when it exists but cannot be read. BoardConfig reads no files itself:
    /// the composition root passes LinuxHAL's `FileBytes.readIfPresent`
    /// (WristCore's `BoardLoader.load(path:)` / `load(argument:)` do).
    public typealias ReadFile = (_ path: String) throws(HALError) -> [UInt8]?

    /// Where `--board sim` looks first, relative to the working directory.
    public static let simulatedBoardFile = "Boards/sim.json"

    /// Loads `--board` ARG: a path, or `sim` (Boards/sim.json when it exists
    /// next to the working directory, else the built-in simulated board).
    public static func load(argument: String, readFile: ReadFile) throws(BoardError) -> Board {
        if argument == simulatedBoardName {
            let bytes: [UInt8]?
            do { bytes = try readFile(simulatedBoardFile) } catch { throw unreadable(simulatedBoardFile, error) }
            guard let bytes else { return builtInSimulated }
            return try parse(bytes, file: simulatedBoardFile)
        }
        return try load(path: argument, readFile: readFile)
    }

    public static func load(path: String, readFile: ReadFile) throws(BoardError) -> Board {
        let bytes: [UInt8]?
        do { bytes = try readFile(path) } catch { throw unreadable(path, error) }
        guard let bytes else {
            throw BoardError(problems: [BoardProblem(file: path, line: 0, field: "board", message: "no such file; \(shippedBoardsHint)")])
        }
        return try parse(bytes, file: path)
    }

    /// Parses a board file's bytes (UTF-8 JSON with comments, a leading
    /// byte-order mark skipped); `file` names it in problems.
    public static func parse(_ bytes: [UInt8], file: String) throws(BoardError) -> Board {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw BoardError(problems: [BoardProblem(file: file, line: 0, field: "board", message: "not UTF-8 text")])
        }
        return try parse(text, file: file)
    }

    static let shippedBoardsHint = "shipped boards are in Boards/ (try --board Boards/rpi-zero2w.json or --board sim)"

    static func unreadable(_ path: String, _ error: HALError) -> BoardError {
        BoardError(problems: [BoardProblem(file: path, line: 0, field: "board", message: "cannot be read (\(error.reason); check its permissions); \(shippedBoardsHint)")])
    }

    public static func parse(_ text: String, file: String) throws(BoardError) -> Board {
        let root: ConfigJSON
        do {
            root = try ConfigJSONParser.parse(text)
        } catch {
            throw BoardError(problems: [BoardProblem(file: file, line: error.line, field: "syntax", message: "\(error.message) (column \(error.column))")])
        }
        var v = BoardValidator(file: file)
        let board = v.board(root)
        if !v.problems.isEmpty || board == nil {
            throw BoardError(
                problems: v.problems.isEmpty ? [BoardProblem(file: file, line: 1, field: "board", message: "invalid")] : v.problems,
                uncounted: v.uncountedProblems)
        }
        return board!
    }

    /// The simulated board used by `--board sim` when no Boards/sim.json is at hand.
    public static let builtInSimulated = Board(
        name: "Simulated watch", simulated: true,
        display: DisplayWiring(controller: .ssd1306, bus: 1, address: 0x3C, width: 128, height: 64, columnOffset: 0, rotation: 0, contrast: 127, flip: false),
        buttons: ButtonRole.allCases.enumerated().map { i, role in
            ButtonWiring(role: role, chip: "sim", line: .offset(i), activeLow: true, bias: .pullUp)
        },
        motor: MotorWiring(chip: "sim", line: .offset(6), activeLow: false),
        input: .defaults, bluetooth: .defaults, source: "built-in")
}

// The board file's fields, on the shared validator (ConfigValidator.swift).
extension BoardValidator {
    /// "64 or 32" for a family with a 32-row panel in the registry (or no
    /// family yet); else the 64 rows every family has. (Kept small: the
    /// arm64 daemon is size-budgeted.)
    static func allowedHeights(_ family: ControllerFamily?) -> String {
        guard let family, ControllerSpec.panel(family, width: 128, height: 32) == nil else { return "64 or 32" }
        return "64 (only the ssd1306 comes in 128x32)"
    }

    mutating func board(_ root: ConfigJSON) -> Board? {
        guard let m = members(root, "", allowed: ["name", "simulated", "display", "buttons", "motor", "battery", "input", "bluetooth", "setSystemClock"]) else { return nil }
        let top = root.line
        let name = string(m, "name", "name", required: top)
        let simulated = bool(m, "simulated", "simulated", default: false)
        var display: DisplayWiring?
        if let (d, _) = m["display"] { display = self.display(d) } else { problem(top, "display", "missing (required)") }
        var buttons: [ButtonWiring] = []
        if let (b, _) = m["buttons"] { buttons = self.buttons(b) } else { problem(top, "buttons", "missing (required): at least the positive and negative buttons") }
        let motor = m["motor"].flatMap { self.motor($0.0) }
        let battery = m["battery"].flatMap { self.battery($0.0) }
        let input = m["input"].map { self.input($0.0) } ?? .defaults
        let bluetooth = m["bluetooth"].map { self.bluetooth($0.0) } ?? .defaults
        let setSystemClock = bool(m, "setSystemClock", "setSystemClock", default: false)
        checkLinesAreDistinct(buttons: buttons, motor: motor, m: m)
        guard let name, let display else { return nil }
        var board = Board(name: name, simulated: simulated, display: display, buttons: buttons, motor: motor, input: input, bluetooth: bluetooth, source: file)
        board.setSystemClock = setSystemClock
        board.battery = battery
        return board
    }

    mutating func display(_ v: ConfigJSON) -> DisplayWiring? {
        guard let m = members(v, "display", allowed: ["controller", "bus", "address", "width", "height", "columnOffset", "rotation", "contrast", "flip", "dimAfterSeconds", "offAfterSeconds"]) else { return nil }
        let l = v.line
        let controller = choice(m, "controller", "display.controller", ControllerFamily.self, required: l, what: "display controller")
        let bus = int(m, "bus", "display.bus", range: 0...255, required: l, allowedText: "the N of /dev/i2c-N, 0-255")
        let address = int(m, "address", "display.address", range: 0x03...0x77, required: l, hexAllowed: true, allowedText: "a 7-bit I2C address 0x03-0x77 (OLEDs use 0x3C or 0x3D)")
        let width = int(m, "width", "display.width", range: 128...128, required: l, allowedText: "128")
        // The heights and the default column offset are the registry's (Display/Controllers).
        let heights = Self.allowedHeights(controller)
        var height = int(m, "height", "display.height", range: 32...64, required: l, allowedText: heights)
        if let h = height, let controller, ControllerSpec.panel(controller, width: 128, height: h) == nil {
            problem(m["height"]!.0.line, "display.height", "\(h) is not supported for \(controller.rawValue); allowed: \(heights)")
            height = nil
        }
        let usual = controller.flatMap { ControllerSpec.panel($0, width: 128, height: height ?? 64) }?.columnOffset ?? 0
        let offset = int(m, "columnOffset", "display.columnOffset", range: 0...4, required: nil, default: usual)
        let rotation = int(m, "rotation", "display.rotation", range: 0...270, required: nil, default: 0, allowedText: "0, 90, 180 or 270")
        if let r = rotation, r % 90 != 0 { problem(m["rotation"]!.0.line, "display.rotation", "\(r) is not supported; allowed: 0, 90, 180 or 270") }
        let contrast = int(m, "contrast", "display.contrast", range: 0...255, required: nil, default: 127)
        let flip = bool(m, "flip", "display.flip", default: false)
        let dim = int(m, "dimAfterSeconds", "display.dimAfterSeconds", range: 1...3600, required: nil, default: 15, allowedText: "1-3600 seconds")
        let off = int(m, "offAfterSeconds", "display.offAfterSeconds", range: 1...86400, required: nil, default: 30, allowedText: "1-86400 seconds")
        if let dim, let off, off < dim {
            problem(m["offAfterSeconds"]?.0.line ?? l, "display.offAfterSeconds", "\(off) is before dimAfterSeconds (\(dim)); allowed: at least dimAfterSeconds")
        }
        guard let controller, let bus, let address, let width, let height, let offset, let rotation, let contrast, let dim, let off else { return nil }
        var wiring = DisplayWiring(controller: controller, bus: bus, address: UInt8(address), width: width, height: height, columnOffset: offset, rotation: rotation, contrast: UInt8(contrast), flip: flip)
        wiring.dimAfter = .seconds(dim)
        wiring.offAfter = .seconds(off)
        return wiring
    }

    mutating func line(_ m: [String: (ConfigJSON, Int)], _ path: String, required l: Int) -> LineSelector? {
        guard let (v, _) = m["line"] else { problem(l, path, "missing (required); allowed: a line offset (integer) or a line name (string, e.g. \"GPIO17\")"); return nil }
        switch v {
        case .number:
            return int(m, "line", path, range: 0...1023, required: l, allowedText: "a line offset 0-1023 or a line name").map(LineSelector.offset)
        case .string(let s, _) where !s.isEmpty:
            return .name(s)
        default:
            problem(v.line, path, "expected a line offset (integer) or a line name (string), found \(v.kindName)")
            return nil
        }
    }

    mutating func chip(_ m: [String: (ConfigJSON, Int)], _ path: String, required l: Int) -> String? {
        let s = string(m, "chip", path, required: l)
        if let s, s.isEmpty { problem(m["chip"]!.0.line, path, "empty; allowed: a chip path (/dev/gpiochip0), name (gpiochip0) or label (pinctrl-rp1)"); return nil }
        return s
    }

    mutating func buttons(_ v: ConfigJSON) -> [ButtonWiring] {
        guard case .array(let list, _) = v else { problem(v.line, "buttons", "expected an array [ ... ] of buttons, found \(v.kindName)"); return [] }
        var result: [ButtonWiring] = []
        var seen = ButtonRoleTable<Int>()
        for (i, b) in list.enumerated() {
            let p = "buttons[\(i)]"
            guard let m = members(b, p, allowed: ["role", "chip", "line", "activeLow", "bias", "position"]) else { continue }
            let role = choice(m, "role", "\(p).role", ButtonRole.self, required: b.line, what: "button role")
            let chip = chip(m, "\(p).chip", required: b.line)
            let line = line(m, "\(p).line", required: b.line)
            let activeLow = bool(m, "activeLow", "\(p).activeLow", default: true)
            let bias = choice(m, "bias", "\(p).bias", LineBias.self, required: nil, default: .pullUp, what: "bias")
            if let role {
                if let first = seen[role] {
                    problem(b.line, "\(p).role", "\"\(role.rawValue)\" is already used by buttons[\(first)]; each role at most once")
                    continue
                }
                seen[role] = i
            }
            let position = m["position"] == nil ? nil : choice(m, "position", "\(p).position", ButtonCorner.self, required: nil, what: "button position")
            if let role, let chip, let line, let bias {
                result.append(ButtonWiring(role: role, chip: chip, line: line, activeLow: activeLow, bias: bias, position: position))
            }
        }
        for required in [ButtonRole.positive, .negative] where seen[required] == nil {
            problem(v.line, "buttons", "no button has role \"\(required.rawValue)\"; the positive and negative buttons are required")
        }
        return result
    }

    mutating func motor(_ v: ConfigJSON) -> MotorWiring? {
        guard let m = members(v, "motor", allowed: ["chip", "line", "activeLow", "quietHours", "vibrate"]) else { return nil }
        let chip = chip(m, "motor.chip", required: v.line)
        let line = line(m, "motor.line", required: v.line)
        let activeLow = bool(m, "activeLow", "motor.activeLow", default: false)
        var quiet: (Int, Int)?
        if let text = string(m, "quietHours", "motor.quietHours", required: nil) {
            quiet = Self.quietHours(text)
            if quiet == nil { problem(m["quietHours"]!.0.line, "motor.quietHours", "\(BoardText.quoted(text)) is not a time range; allowed: \"HH:MM-HH:MM\", e.g. \"22:00-07:00\"") }
        }
        let policy = m["vibrate"].map { vibrate($0.0) } ?? .standard
        guard let chip, let line else { return nil }
        return MotorWiring(chip: chip, line: line, activeLow: activeLow, quietHours: quiet, policy: policy)
    }

    /// `"battery": { "gauge": "max17048", "bus": 1 }` or `{ "gauge": "power-supply", "name": "BAT0" }`.
    mutating func battery(_ v: ConfigJSON) -> BatteryWiring? {
        guard let m = members(v, "battery", allowed: ["gauge", "name", "bus", "address", "lowPercent", "criticalPercent", "powerOffWhenCritical", "intervalSeconds"]) else { return nil }
        let l = v.line
        let kind = choice(m, "gauge", "battery.gauge", BatteryWiring.Kind.self, required: l, what: "gauge")
        var gauge: BatteryWiring.Gauge?
        if kind == .powerSupply {
            for field in ["bus", "address"] where m[field] != nil {
                problem(m[field]!.0.line, "battery.\(field)", "only for a gauge read over I2C (max17048, max17043); a power supply is named by \"name\"")
            }
            let name = string(m, "name", "battery.name", required: nil)
            // A folder name, never a path: the watch reads /sys/class/power_supply/NAME.
            if let name, name.isEmpty || name.utf8.contains(UInt8(ascii: "/")) || name.hasPrefix(".") {
                problem(m["name"]!.0.line, "battery.name", "\(BoardText.quoted(name)) is not a power supply's name; allowed: a folder name in /sys/class/power_supply, e.g. \"BAT0\"")
            } else {
                gauge = .powerSupply(name: name)
            }
        } else if let kind {
            if m["name"] != nil { problem(m["name"]!.0.line, "battery.name", "only for \"gauge\": \"power-supply\"") }
            let bus = int(m, "bus", "battery.bus", range: 0...255, required: l, allowedText: "the N of /dev/i2c-N, 0-255")
            let address = int(m, "address", "battery.address", range: 0x03...0x77, required: nil, default: 0x36, hexAllowed: true,
                              allowedText: "a 7-bit I2C address 0x03-0x77 (MAX1704x gauges answer at 0x36)")
            if let bus, let address {
                gauge = kind == .max17048 ? .max17048(bus: bus, address: UInt8(address)) : .max17043(bus: bus, address: UInt8(address))
            }
        }
        let low = int(m, "lowPercent", "battery.lowPercent", range: 1...50, required: nil, default: 15, allowedText: "1-50 %")
        let critical = int(m, "criticalPercent", "battery.criticalPercent", range: 0...20, required: nil, default: 5, allowedText: "0-20 %")
        if let low, let critical, critical >= low {
            problem(m["criticalPercent"]?.0.line ?? l, "battery.criticalPercent", "\(critical) is not below lowPercent (\(low)); allowed: less than lowPercent")
        }
        let powerOff = bool(m, "powerOffWhenCritical", "battery.powerOffWhenCritical", default: true)
        let interval = int(m, "intervalSeconds", "battery.intervalSeconds", range: 10...3600, required: nil, default: 120, allowedText: "10-3600 seconds")
        guard let gauge, let low, let critical, critical < low, let interval else { return nil }
        var wiring = BatteryWiring(gauge: gauge)
        wiring.lowPercent = low
        wiring.criticalPercent = critical
        wiring.powerOffWhenCritical = powerOff
        wiring.interval = .seconds(interval)
        return wiring
    }

    /// `"vibrate": { "important": "double", "default": "short", "social": "none", ... }`:
    /// a pattern (short, double, ring, alarm, timer) or none, for Important notifications,
    /// for the rest, and per category. Keys left out keep the standard policy
    /// (Important double, incoming call ring, the rest none). Silent and
    /// pre-existing ones never vibrate.
    mutating func vibrate(_ v: ConfigJSON) -> VibrationPolicy {
        let categoryNames = NotificationCategory.defined.map { $0.description }
        let keys = ["important", "default"] + categoryNames.sorted()
        guard let m = members(v, "motor.vibrate", allowed: keys) else { return .standard }
        let patterns = VibrationPattern.builtIns.map { $0.name } + ["none"]
        var policy = VibrationPolicy.standard
        for key in m.keys.sorted() {  // the keys' sort, not one of (key, value) pairs: one sort of Strings in the daemon
            let (value, line) = m[key]!
            let path = "motor.vibrate.\(key)"
            guard case .string(let name, _) = value, patterns.contains(name) else {
                problem(line, path, "\(Self.show(value)) is not a pattern; allowed: \(patterns.joined(separator: ", "))")
                continue
            }
            let pattern = name == "none" ? nil : VibrationPattern.named(name)
            switch key {
            case "important": policy.important = pattern
            case "default": policy.defaultPattern = pattern
            default: policy.setPattern(pattern, for: NotificationCategory.defined[categoryNames.firstIndex(of: key)!])
            }
        }
        return policy
    }

    /// "22:00-07:00" → minutes of the day (start, end).
    package static func quietHours(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "-")
        guard parts.count == 2 else { return nil }
        func minutes(_ s: Substring) -> Int? {
            var trimmed = s
            while trimmed.first == " " || trimmed.first == "\t" { trimmed.removeFirst() }
            while trimmed.last == " " || trimmed.last == "\t" { trimmed.removeLast() }
            let hm = trimmed.split(separator: ":")
            guard hm.count == 2, let h = IntegerText.int(hm[0]), let m = IntegerText.int(hm[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
            return h * 60 + m
        }
        guard let a = minutes(parts[0]), let b = minutes(parts[1]), a != b else { return nil }
        return (a, b)
    }

    mutating func input(_ v: ConfigJSON) -> InputTiming {
        guard let m = members(v, "input", allowed: ["debounceMs", "longPressMs", "doublePressMs"]) else { return .defaults }
        // Fields left out keep InputTiming.defaults.
        let d = InputTiming.defaults
        let debounce = int(m, "debounceMs", "input.debounceMs", range: 0...500, required: nil, default: Int(d.debounce.millisecondsClamped))!
        let long = int(m, "longPressMs", "input.longPressMs", range: 100...10_000, required: nil, default: Int(d.longPress.millisecondsClamped))!
        let double = int(m, "doublePressMs", "input.doublePressMs", range: 0...2000, required: nil, default: Int(d.doublePress.millisecondsClamped))!
        return InputTiming(debounce: .milliseconds(debounce), longPress: .milliseconds(long), doublePress: .milliseconds(double))
    }

    mutating func bluetooth(_ v: ConfigJSON) -> BluetoothSettings {
        guard let m = members(v, "bluetooth", allowed: ["hci", "name", "adapterLossTimeoutSeconds", "disconnectAlertSeconds", "uartRequiresEncryption"]) else { return .defaults }
        let hci = int(m, "hci", "bluetooth.hci", range: 0...63, required: nil, default: 0, allowedText: "an HCI index 0-63 (hci0 is 0)")!
        var name = string(m, "name", "bluetooth.name", required: nil) ?? BluetoothSettings.defaults.name
        let bytes = name.utf8.count
        if bytes == 0 || bytes > 29 {
            problem(m["name"]!.0.line, "bluetooth.name", "\(BoardText.quoted(name)) is \(bytes) bytes of UTF-8; allowed: 1-29 bytes (it must fit in an advertisement)")
            name = BluetoothSettings.defaults.name
        }
        let lossTimeout = int(m, "adapterLossTimeoutSeconds", "bluetooth.adapterLossTimeoutSeconds", range: 5...3600, required: nil,
                              default: Int(BluetoothSettings.defaults.adapterLossTimeout.components.seconds))!
        let alert = int(m, "disconnectAlertSeconds", "bluetooth.disconnectAlertSeconds", range: 0...3600, required: nil, default: 10, allowedText: "0 (no alert) to 3600 seconds")!
        let uartEncrypted = bool(m, "uartRequiresEncryption", "bluetooth.uartRequiresEncryption", default: false)
        return BluetoothSettings(
            hciIndex: hci, name: name, adapterLossTimeout: .seconds(lossTimeout), disconnectAlert: alert == 0 ? nil : .seconds(alert),
            uartRequiresEncryption: uartEncrypted)
    }

    mutating func checkLinesAreDistinct(buttons: [ButtonWiring], motor: MotorWiring?, m: [String: (ConfigJSON, Int)]) {
        struct Use: Equatable {
            var chip: String
            var line: String
        }
        func shown(_ l: LineSelector) -> String {
            switch l {
            case .offset(let o): "\(o)"
            case .name(let n): BoardText.quoted(n)
            }
        }
        // Seven users at most: a list, not a hash table (its code is the bigger).
        var used: [(String, Use)] = []
        var users = buttons.map { ("buttons[\($0.role.rawValue)]", Use(chip: $0.chip, line: shown($0.line))) }
        if let motor { users.append(("motor", Use(chip: motor.chip, line: shown(motor.line)))) }
        for (who, use) in users {
            if let first = used.first(where: { $0.1 == use })?.0 {
                let line = (who == "motor" ? m["motor"] : m["buttons"])?.0.line ?? 1
                problem(line, who == "motor" ? "motor.line" : who, "chip \(BoardText.quoted(use.chip)) line \(use.line) is already used by \(first); every button and the motor need their own line")
            } else {
                used.append((who, use))
            }
        }
    }
}
