import BoardConfig
import HAL
import Haptics

/// Reads and validates the wearer's settings file (docs/settings.md), with
/// the board file's parser and its error style: every problem, as
/// `file:line: field: what is wrong; allowed: ...`, values escaped.
public enum UserSettingsLoader {
    /// Loads `path`; `defaults` when there is no such file. `motorCap` is
    /// the motor's on-time cap a user pattern must fit in.
    public static func load(path: String, motorCap: Duration, readFile: BoardLoader.ReadFile) throws(BoardError) -> UserSettings {
        let bytes: [UInt8]?
        do { bytes = try readFile(path) } catch {
            throw BoardError(problems: [BoardProblem(file: path, line: 0, field: "settings", message: "cannot be read (\(error.reason); check its permissions)")])
        }
        guard let bytes else { return .defaults }
        return try parse(bytes, file: path, motorCap: motorCap)
    }

    /// Parses a settings file's bytes (UTF-8 JSON with comments, a leading
    /// byte-order mark skipped); `file` names it in problems.
    public static func parse(_ bytes: [UInt8], file: String, motorCap: Duration) throws(BoardError) -> UserSettings {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw BoardError(problems: [BoardProblem(file: file, line: 0, field: "settings", message: "not UTF-8 text")])
        }
        let root: ConfigJSON
        do {
            root = try ConfigJSONParser.parse(text)
        } catch {
            throw BoardError(problems: [BoardProblem(file: file, line: error.line, field: "syntax", message: "\(error.message) (column \(error.column))")])
        }
        var v = UserSettingsValidator(v: BoardValidator(file: file), motorCap: motorCap)
        var settings = v.settings(root)
        guard v.v.problems.isEmpty else { throw BoardError(problems: v.v.problems, uncounted: v.v.uncountedProblems) }
        settings.source = file
        return settings
    }
}

/// Walks a parsed settings file with the board validator's helpers.
struct UserSettingsValidator {
    var v: BoardValidator
    let motorCap: Duration

    static let topFields = ["patterns", "apps", "filters", "quietHours", "doNotDisturb", "replies", "alarms"]
    static let appFields = ["mute", "hideContent", "vibrate", "alwaysAlert"]
    static let reservedPatternNames = VibrationPattern.builtIns.map { $0.name } + ["none"]
    static let patternNameCapacity = 32

    var capMilliseconds: Int {
        Int(motorCap.components.seconds) * 1000 + Int(motorCap.components.attoseconds / 1_000_000_000_000_000)
    }

    mutating func settings(_ root: ConfigJSON) -> UserSettings {
        var s = UserSettings()
        guard let m = v.members(root, "", allowed: Self.topFields) else { return s }
        if let (p, _) = m["patterns"] { s.patterns = patterns(p) }
        if let (a, _) = m["apps"] { s.apps = apps(a, patterns: s.patterns) }
        if let (f, _) = m["filters"] { s.filters = filters(f, patterns: s.patterns) }
        if let (q, _) = m["quietHours"] { s.quietHours = quietHours(q) }
        if let (d, _) = m["doNotDisturb"] { s.doNotDisturb = doNotDisturb(d) }
        if let (r, _) = m["replies"] { s.replies = replies(r) }
        if let (a, _) = m["alarms"] { alarms(a, into: &s) }
        return s
    }

    /// `"patterns": { "heartbeat": [80, 120, 80] }`.
    mutating func patterns(_ value: ConfigJSON) -> [VibrationPattern] {
        guard case .object(let list, _) = value else {
            v.problem(value.line, "patterns", "expected an object { \"name\": [on, off, ...] }, found \(value.kindName)")
            return []
        }
        var result: [VibrationPattern] = []
        var seen: Set<String> = []
        if list.count > UserSettings.maxPatterns {
            v.problem(list[UserSettings.maxPatterns].line, "patterns", "\(list.count) patterns; allowed: at most \(UserSettings.maxPatterns)")
            return []
        }
        for member in list {
            let name = member.key
            let path = "patterns.\(BoardText.escaped(name))"
            if !seen.insert(name).inserted { v.problem(member.line, path, "given twice"); continue }
            if name.isEmpty || name.utf8.count > Self.patternNameCapacity {
                v.problem(member.line, path, "the name is \(name.utf8.count) bytes; allowed: 1-\(Self.patternNameCapacity) bytes of UTF-8")
                continue
            }
            if Self.reservedPatternNames.contains(name) {
                v.problem(member.line, path, "\(BoardText.quoted(name)) is a built-in name; allowed: any other name (built-ins: \(Self.reservedPatternNames.joined(separator: ", ")))")
                continue
            }
            guard case .array(let steps, _) = member.value else {
                v.problem(member.value.line, path, "expected an array of milliseconds [on, off, on, ...], found \(member.value.kindName)")
                continue
            }
            var ms: [Int] = []
            var bad = false
            for (i, step) in steps.enumerated() {
                guard case .number(let x, _, _) = step, x.rounded() == x, abs(x) < 1e9 else {
                    v.problem(step.line, "\(path)[\(i)]", "\(BoardValidator.show(step)) is not a whole number of milliseconds; allowed: \(Self.stepsAllowed)")
                    bad = true
                    continue
                }
                ms.append(Int(x))
            }
            if bad { continue }
            do {
                result.append(try VibrationPattern(name: name, onOffMilliseconds: ms, cap: motorCap))
            } catch {
                switch error {
                case .empty:
                    v.problem(member.value.line, path, "empty; allowed: 1-\(VibrationPattern.maxSteps) steps of \(Self.stepsAllowed)")
                case .tooManySteps(let count):
                    v.problem(member.value.line, path, "\(count) steps; allowed: at most \(VibrationPattern.maxSteps) (on, off, on, ...)")
                case .stepOutOfRange(let index, let value):
                    v.problem(steps[index].line, "\(path)[\(index)]", "\(value) ms is out of range; allowed: \(Self.stepsAllowed)")
                case .onTimeOverCap(let on, let cap):
                    v.problem(member.value.line, path, "\(on) ms of motor-on time is over the motor's on-time cap of \(cap) ms per minute; allowed: on-steps adding up to at most \(cap) ms")
                }
            }
        }
        return result
    }

    static var stepsAllowed: String {
        "\(VibrationPattern.stepMilliseconds.lowerBound)-\(VibrationPattern.stepMilliseconds.upperBound) ms each"
    }

    /// `"apps": { "com.apple.MobileSMS": { "vibrate": "heartbeat", "alwaysAlert": true } }`.
    mutating func apps(_ value: ConfigJSON, patterns: [VibrationPattern]) -> AppRules {
        var rules = AppRules()
        guard case .object(let list, _) = value else {
            v.problem(value.line, "apps", "expected an object { \"AppIdentifier\": { ... } }, found \(value.kindName)")
            return rules
        }
        var seen: Set<String> = []
        var extra = 0, firstExtraLine = 0
        let patternNames = patterns.map { $0.name } + Self.reservedPatternNames
        for member in list {
            let id = member.key
            let path = "apps.\(BoardText.escaped(id))"
            if !seen.insert(id).inserted { v.problem(member.line, path, "given twice"); continue }
            let bytes = id.utf8.count
            if bytes == 0 || bytes > AppRules.identifierCapacity || id.utf8.contains(0) {
                v.problem(member.line, path, "\(BoardText.quoted(id)) is not an AppIdentifier; allowed: 1-\(AppRules.identifierCapacity) bytes of UTF-8 without NUL (e.g. \"com.apple.MobileSMS\")")
                continue
            }
            guard let m = v.members(member.value, path, allowed: Self.appFields),
                  let rule = rule(m, path, patterns: patterns, patternNames: patternNames) else { continue }
            if rules.count == AppRules.capacity {
                extra += 1
                if extra == 1 { firstExtraLine = member.line }
                continue
            }
            rules.add(id, rule)
        }
        if extra > 0 {
            v.problem(firstExtraLine, "apps", "\(AppRules.capacity + extra) apps; allowed: at most \(AppRules.capacity)")
        }
        return rules
    }

    /// What an app's rule or a filter does: `mute`, `hideContent`,
    /// `alwaysAlert`, `vibrate`; nil (and the problem reported) when they
    /// contradict each other.
    mutating func rule(_ m: [String: (ConfigJSON, Int)], _ path: String, patterns: [VibrationPattern], patternNames: [String]) -> AppRule? {
        var rule = AppRule()
        rule.mute = v.bool(m, "mute", "\(path).mute", default: false)
        rule.hideContent = v.bool(m, "hideContent", "\(path).hideContent", default: false)
        rule.alwaysAlert = v.bool(m, "alwaysAlert", "\(path).alwaysAlert", default: false)
        if let (p, line) = m["vibrate"] {
            if case .string(let name, _) = p, patternNames.contains(name) {
                if name == "none" { rule.vibrateNone = true } else {
                    rule.vibrate = patterns.first { $0.name == name } ?? VibrationPattern.named(name)
                }
            } else {
                v.problem(line, "\(path).vibrate", "\(BoardValidator.show(p)) is not a pattern; allowed: \(patternNames.joined(separator: ", "))")
            }
        }
        if rule.mute && rule.alwaysAlert {
            v.problem(m["alwaysAlert"]!.1, "\(path).alwaysAlert", "contradicts \"mute\": true; allowed: one of mute and alwaysAlert")
            return nil
        }
        if rule.mute, let (_, line) = m["vibrate"] {
            v.problem(line, "\(path).vibrate", "a muted app never vibrates; allowed: vibrate without mute")
            return nil
        }
        return rule
    }

    /// `"quietHours": "22:00-07:00"`, `"off"`, one window by weekday
    /// (`"mon-fri 22:00-07:00"`), or a list of windows
    /// (`["mon-fri 22:00-07:00", "sat,sun 23:00-09:00"]`, at most
    /// `QuietHours.maxWindows`).
    mutating func quietHours(_ value: ConfigJSON) -> QuietHoursOverride {
        let allowed = "\(QuietHoursText.allowed), a list of those (at most \(QuietHours.maxWindows)), or \"off\""
        let items: [ConfigJSON]
        var isList = false
        switch value {
        case .string("off", _): return .off
        case .string: items = [value]
        case .array(let list, _):
            items = list
            isList = true
        default:
            v.problem(value.line, "quietHours", "expected a string or a list of strings, found \(value.kindName); allowed: \(allowed)")
            return .boardFile
        }
        guard !items.isEmpty, items.count <= QuietHours.maxWindows else {
            v.problem(value.line, "quietHours", "\(items.count) windows; allowed: 1-\(QuietHours.maxWindows)")
            return .boardFile
        }
        var windows: [QuietHours.Window] = []
        for (i, item) in items.enumerated() {
            let field = isList ? "quietHours[\(i)]" : "quietHours"
            guard case .string(let text, _) = item, let window = QuietHoursText.window(text) else {
                v.problem(item.line, field, "\(BoardValidator.show(item)) is not a time range; allowed: \(allowed)")
                continue
            }
            windows.append(window)
        }
        guard let schedule = QuietHours(windows: windows) else { return .boardFile }
        return .hours(schedule)
    }

    /// `"doNotDisturb": { "calls": "ring" }`.
    /// `"replies": ["On my way", "Call you later"]`: the canned replies a
    /// notification offers where the phone can reply (docs/android.md).
    mutating func replies(_ value: ConfigJSON) -> [String] {
        let allowed = "1-\(UserSettings.maxReplies) texts of 1-\(UserSettings.replyCapacity) bytes of UTF-8, no control characters"
        guard case .array(let items, _) = value else {
            v.problem(value.line, "replies", "expected an array of texts, found \(BoardValidator.show(value)); allowed: \(allowed)")
            return UserSettings.defaultReplies
        }
        guard !items.isEmpty, items.count <= UserSettings.maxReplies else {
            v.problem(value.line, "replies", "\(items.count) texts; allowed: \(allowed)")
            return UserSettings.defaultReplies
        }
        var result: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let text, _) = item, !text.isEmpty, text.utf8.count <= UserSettings.replyCapacity,
                  !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                v.problem(item.line, "replies[\(i)]", "\(BoardValidator.show(item)) is not a reply; allowed: \(allowed)")
                continue
            }
            result.append(text)
        }
        return result
    }

    /// `"alarms": { "pattern": "alarm", "timerPattern": "timer", "snoozeMinutes": 9 }`:
    /// what an alarm and the timer's end play (a built-in or one of
    /// `patterns`; "none" is not allowed: an alarm must be felt) and how long
    /// a snooze lasts. The pattern repeats until a button answers the ring.
    mutating func alarms(_ value: ConfigJSON, into s: inout UserSettings) {
        guard let m = v.members(value, "alarms", allowed: ["pattern", "timerPattern", "snoozeMinutes"]) else { return }
        let names = VibrationPattern.builtIns.map { $0.name } + s.patterns.map { $0.name }
        for (key, isTimer) in [("pattern", false), ("timerPattern", true)] {
            guard let (p, line) = m[key] else { continue }
            if case .string(let name, _) = p, var pattern = s.pattern(named: name) {
                // It plays again and again until a button answers it (the motor's ring limit ends it).
                pattern.repeats = true
                if isTimer { s.timerPattern = pattern } else { s.alarmPattern = pattern }
            } else {
                v.problem(line, "alarms.\(key)", "\(BoardValidator.show(p)) is not a pattern; allowed: \(names.joined(separator: ", "))")
            }
        }
        let range = UserSettings.snoozeMinutesRange
        s.snoozeMinutes = v.int(m, "snoozeMinutes", "alarms.snoozeMinutes", range: range, required: nil, default: 9,
                                allowedText: "whole minutes from \(range.lowerBound) to \(range.upperBound)") ?? 9
    }

    mutating func doNotDisturb(_ value: ConfigJSON) -> DoNotDisturbOptions {
        var options = DoNotDisturbOptions()
        guard let m = v.members(value, "doNotDisturb", allowed: ["calls"]) else { return options }
        options.calls = v.choice(m, "calls", "doNotDisturb.calls", DoNotDisturbOptions.Calls.self, required: nil, default: .ring, what: "choice for calls") ?? .ring
        return options
    }
}
