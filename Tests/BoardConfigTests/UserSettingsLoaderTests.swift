import BoardConfig
import WearerSettings
import HAL
import Haptics
import Testing

/// The settings file (docs/settings.md): what a valid one gives, and one
/// loader error per field, each `file:line: field: what is wrong; allowed`.
@Suite("Settings file")
struct UserSettingsLoaderTests {
    static let file = "/var/lib/wristcore/settings.json"
    static let cap = Duration.seconds(20)

    func load(_ text: String) throws(BoardError) -> UserSettings {
        try UserSettingsLoader.parse(Array(text.utf8), file: Self.file, motorCap: Self.cap)
    }

    /// The problems of `text`, one line each.
    func problems(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    func appRule(_ s: UserSettings, _ id: String) -> AppRule? {
        var copy = id
        return copy.withUTF8 { s.apps.rule(for: UnsafeRawBufferPointer($0)) }
    }

    @Test func aCompleteFile() throws {
        let s = try load("""
            // the wearer's settings
            {
              "patterns": { "heartbeat": [80, 120, 80], "long": [1000] },
              "apps": {
                "com.apple.MobileSMS": { "vibrate": "heartbeat", "alwaysAlert": true },
                "com.facebook.Facebook": { "mute": true },
                "com.apple.mobilemail": { "hideContent": true, "vibrate": "none" }
              },
              "quietHours": "22:30-07:00",
              "doNotDisturb": { "calls": "silent" }
            }
            """)
        #expect(s.source == Self.file)
        #expect(s.patterns.map(\.name) == ["heartbeat", "long"])
        #expect(s.patterns[0].pulses == [
            .init(on: .milliseconds(80), off: .milliseconds(120)), .init(on: .milliseconds(80), off: .zero),
        ])
        #expect(s.patterns[1].onTime == .milliseconds(1000))
        #expect(appRule(s, "com.apple.MobileSMS") == AppRule(vibrate: s.patterns[0], alwaysAlert: true))
        #expect(appRule(s, "com.facebook.Facebook") == AppRule(mute: true))
        #expect(appRule(s, "com.apple.mobilemail") == AppRule(hideContent: true, vibrateNone: true))
        #expect(appRule(s, "com.apple.MobileSM") == nil, "bytes compared whole")
        #expect(appRule(s, "") == nil)
        #expect(s.apps.hasMute && s.apps.hasAlwaysAlert)
        #expect(s.quietHours == .hours(QuietHours(startMinute: 22 * 60 + 30, endMinute: 7 * 60)))
        #expect(s.doNotDisturb.calls == .silent)
        #expect(s.pattern(named: "double") == .double, "built-ins are there too")
    }

    @Test func anEmptyFileOrNoneIsTheDefaults() throws {
        #expect(try load("{}") == { var d = UserSettings.defaults; d.source = Self.file; return d }())
        let absent = try UserSettingsLoader.load(path: "/nowhere/settings.json", motorCap: Self.cap) { _ throws(HALError) in nil }
        #expect(absent == .defaults)
    }

    @Test func quietHoursOffOverridesTheBoardFile() throws {
        let board = QuietHours(startMinute: 60, endMinute: 120)
        #expect(try load(#"{"quietHours": "off"}"#).quietHours.resolved(board: board) == nil)
        #expect(try load("{}").quietHours.resolved(board: board) == board)
    }

    @Test func alarmPatternsAndTheSnooze() throws {
        let d = try load("{}")
        #expect(d.alarmPattern == .alarm && d.timerPattern == .timer && d.snoozeMinutes == 9)
        let s = try load(#"{"patterns": {"wake": [500, 500]}, "alarms": {"pattern": "wake", "timerPattern": "ring", "snoozeMinutes": 5}}"#)
        #expect(s.alarmPattern.name == "wake" && s.alarmPattern.repeats, "played until answered")
        #expect(s.timerPattern == .ring && s.snoozeMinutes == 5)
        let names = "short, double, ring, alarm, timer"
        let unknown = problems(#"{"alarms": {"volume": 3}}"#)
        #expect(unknown.count == 1 && unknown[0].contains("alarms.volume"), "\(unknown)")
        #expect(problems(#"{"alarms": {"pattern": "none", "snoozeMinutes": 0}}"#) == [
            "\(Self.file):1: alarms.pattern: \"none\" is not a pattern; allowed: \(names)",
            "\(Self.file):1: alarms.snoozeMinutes: 0 is out of range; allowed: whole minutes from 1 to 30",
        ])
        #expect(problems(#"{"alarms": {"timerPattern": 3}}"#) == ["\(Self.file):1: alarms.timerPattern: 3 is not a pattern; allowed: \(names)"])
    }

    @Test func cannedReplies() throws {
        #expect(try load("{}").replies == UserSettings.defaultReplies)
        #expect(try load(#"{"replies": ["Bin gleich da", "Später 🙂"]}"#).replies == ["Bin gleich da", "Später 🙂"])
        let allowed = "allowed: 1-8 texts of 1-64 bytes of UTF-8, no control characters"
        #expect(problems(#"{"replies": []}"#) == ["\(Self.file):1: replies: 0 texts; \(allowed)"])
        #expect(problems(#"{"replies": "OK"}"#) == ["\(Self.file):1: replies: expected an array of texts, found \"OK\"; \(allowed)"])
        #expect(problems(#"{"replies": ["OK", "", 3, "a\nb"]}"#) == [
            "\(Self.file):1: replies[1]: \"\" is not a reply; \(allowed)",
            "\(Self.file):1: replies[2]: 3 is not a reply; \(allowed)",
            "\(Self.file):1: replies[3]: \"a\\nb\" is not a reply; \(allowed)",
        ])
        #expect(problems(#"{"replies": ["\#(String(repeating: "x", count: 65))"]}"#).count == 1)
        #expect(problems(#"{"replies": ["1","2","3","4","5","6","7","8","9"]}"#).count == 1)
    }

    // MARK: - one error per field

    @Test func syntax() {
        #expect(problems("{\n  \"apps\": {,\n}") == ["\(Self.file):2: syntax: expected a field name in double quotes (column 12)"])
    }

    @Test func unknownTopField() {
        #expect(problems("{\n \"vibration\": 1 }") == [
            "\(Self.file):2: vibration: unknown field; allowed: patterns, apps, filters, quietHours, doNotDisturb, replies, alarms",
        ])
    }

    @Test func patterns() {
        #expect(problems(#"{"patterns": [80]}"#) == [
            #"\#(Self.file):1: patterns: expected an object { "name": [on, off, ...] }, found an array"#,
        ])
        #expect(problems(#"{"patterns": {"p": "80"}}"#) == [
            #"\#(Self.file):1: patterns.p: expected an array of milliseconds [on, off, on, ...], found the string "80""#,
        ])
        #expect(problems("{\"patterns\": {\n\"p\": [80,\n 5,\n 80]}}") == [
            "\(Self.file):3: patterns.p[1]: 5 ms is out of range; allowed: 10-5000 ms each",
        ])
        #expect(problems(#"{"patterns": {"p": [80, 12.5]}}"#) == [
            "\(Self.file):1: patterns.p[1]: 12.5 is not a whole number of milliseconds; allowed: 10-5000 ms each",
        ])
        #expect(problems(#"{"patterns": {"p": []}}"#) == ["\(Self.file):1: patterns.p: empty; allowed: 1-16 steps of 10-5000 ms each"])
        let seventeen = Array(repeating: "100", count: 17).joined(separator: ",")
        #expect(problems(#"{"patterns": {"p": [\#(seventeen)]}}"#) == [
            "\(Self.file):1: patterns.p: 17 steps; allowed: at most 16 (on, off, on, ...)",
        ])
        let long = Array(repeating: "5000", count: 9).joined(separator: ",")
        #expect(problems(#"{"patterns": {"buzz": [\#(long)]}}"#) == [
            "\(Self.file):1: patterns.buzz: 25000 ms of motor-on time is over the motor's on-time cap of 20000 ms per minute; allowed: on-steps adding up to at most 20000 ms",
        ])
        #expect(problems(#"{"patterns": {"ring": [80]}}"#) == [
            #"\#(Self.file):1: patterns.ring: "ring" is a built-in name; allowed: any other name (built-ins: short, double, ring, alarm, timer, none)"#,
        ])
        #expect(problems(#"{"patterns": {"": [80]}}"#) == [
            "\(Self.file):1: patterns.: the name is 0 bytes; allowed: 1-32 bytes of UTF-8",
        ])
        #expect(problems(#"{"patterns": {"p": [80], "p": [90]}}"#) == ["\(Self.file):1: patterns.p: given twice"])
    }

    @Test func apps() {
        #expect(problems(#"{"apps": []}"#) == [
            #"\#(Self.file):1: apps: expected an object { "AppIdentifier": { ... } }, found an array"#,
        ])
        #expect(problems(#"{"apps": {"a": true}}"#) == ["\(Self.file):1: apps.a: expected an object { ... }, found true"])
        #expect(problems(#"{"apps": {"": {}}}"#) == [
            #"\#(Self.file):1: apps.: "" is not an AppIdentifier; allowed: 1-128 bytes of UTF-8 without NUL (e.g. "com.apple.MobileSMS")"#,
        ])
        #expect(problems(#"{"apps": {"a\u0000\u001b": {}}}"#) == [
            #"\#(Self.file):1: apps.a\u0000\u001b: "a\u0000\u001b" is not an AppIdentifier; allowed: 1-128 bytes of UTF-8 without NUL (e.g. "com.apple.MobileSMS")"#,
        ])
        #expect(problems("{\"apps\": {\"a\": {\n\"silence\": true}}}") == [
            "\(Self.file):2: apps.a.silence: unknown field; allowed: mute, hideContent, vibrate, alwaysAlert",
        ])
        #expect(problems(#"{"apps": {"a": {}, "a": {}}}"#) == ["\(Self.file):1: apps.a: given twice"])
        let many = (0...AppRules.capacity).map { #""app\#($0)": {}"# }.joined(separator: ",")
        #expect(problems(#"{"apps": {\#(many)}}"#) == ["\(Self.file):1: apps: 65 apps; allowed: at most 64"])
    }

    @Test func appMute() {
        #expect(problems(#"{"apps": {"a": {"mute": "yes"}}}"#) == [
            #"\#(Self.file):1: apps.a.mute: expected true or false, found the string "yes""#,
        ])
        #expect(problems(#"{"apps": {"a": {"mute": true, "vibrate": "short"}}}"#) == [
            "\(Self.file):1: apps.a.vibrate: a muted app never vibrates; allowed: vibrate without mute",
        ])
    }

    @Test func appHideContent() {
        #expect(problems(#"{"apps": {"a": {"hideContent": 1}}}"#) == [
            "\(Self.file):1: apps.a.hideContent: expected true or false, found the number 1",
        ])
    }

    @Test func appVibrate() {
        #expect(problems(#"{"patterns": {"heartbeat": [80]}, "apps": {"a": {"vibrate": "hartbeat"}}}"#) == [
            #"\#(Self.file):1: apps.a.vibrate: "hartbeat" is not a pattern; allowed: heartbeat, short, double, ring, alarm, timer, none"#,
        ])
        #expect(problems(#"{"apps": {"a": {"vibrate": 2}}}"#) == [
            "\(Self.file):1: apps.a.vibrate: 2 is not a pattern; allowed: short, double, ring, alarm, timer, none",
        ])
    }

    @Test func appAlwaysAlert() {
        #expect(problems(#"{"apps": {"a": {"alwaysAlert": null}}}"#) == [
            "\(Self.file):1: apps.a.alwaysAlert: expected true or false, found null",
        ])
        #expect(problems(#"{"apps": {"a": {"mute": true, "alwaysAlert": true}}}"#) == [
            #"\#(Self.file):1: apps.a.alwaysAlert: contradicts "mute": true; allowed: one of mute and alwaysAlert"#,
        ])
    }

    static let quietAllowed = #""HH:MM-HH:MM" every day, or days first: "mon-fri 22:00-07:00", "sat,sun 23:00-09:00" (days: mon tue wed thu fri sat sun, a list or a range), a list of those (at most 14), or "off""#

    @Test func quietHours() {
        #expect(problems(#"{"quietHours": "22-7"}"#) == [
            #"\#(Self.file):1: quietHours: "22-7" is not a time range; allowed: \#(Self.quietAllowed)"#,
        ])
        #expect(problems(#"{"quietHours": 22}"#) == [
            #"\#(Self.file):1: quietHours: expected a string or a list of strings, found the number 22; allowed: \#(Self.quietAllowed)"#,
        ])
        #expect(problems(#"{"quietHours": ["mon-fri 22:00-07:00", "sun,xyz 23:00-09:00", 7]}"#) == [
            #"\#(Self.file):1: quietHours[1]: "sun,xyz 23:00-09:00" is not a time range; allowed: \#(Self.quietAllowed)"#,
            #"\#(Self.file):1: quietHours[2]: 7 is not a time range; allowed: \#(Self.quietAllowed)"#,
        ])
        #expect(problems(#"{"quietHours": []}"#) == [#"\#(Self.file):1: quietHours: 0 windows; allowed: 1-14"#])
        let fifteen = "[" + Array(repeating: #""mon 01:00-02:00""#, count: 15).joined(separator: ",") + "]"
        #expect(problems(#"{"quietHours": "# + fifteen + "}") == [#"\#(Self.file):1: quietHours: 15 windows; allowed: 1-14"#])
    }

    /// Issue 25 item 3: quiet hours by weekday, as PebbleOS and Bangle.js schedule them.
    @Test func quietHoursByWeekday() throws {
        let s = try load(#"{"quietHours": ["mon-fri 22:00-07:00", "SAT,sun 23:00-09:00", "fri-mon 12:00-13:00", "mon-wed,sat 05:00-05:30"]}"#)
        typealias W = QuietHours.Window
        let weekdays = QuietHours.Weekdays(rawValue: 0b001_1111)
        let weekend = QuietHours.Weekdays(rawValue: 0b110_0000)
        let friToMon = QuietHours.Weekdays(rawValue: 0b111_0001)
        let monToWedSat = QuietHours.Weekdays(rawValue: 0b010_0111)
        #expect(s.quietHours == .hours(QuietHours(windows: [
            W(days: weekdays, startMinute: 22 * 60, endMinute: 7 * 60),
            W(days: weekend, startMinute: 23 * 60, endMinute: 9 * 60),
            W(days: friToMon, startMinute: 12 * 60, endMinute: 13 * 60),
            W(days: monToWedSat, startMinute: 5 * 60, endMinute: 5 * 60 + 30),
        ])!))
        #expect(try load(#"{"quietHours": "sat 10:00-11:00"}"#).quietHours == .hours(QuietHours(windows: [
            W(days: QuietHours.Weekdays(weekday: 6), startMinute: 600, endMinute: 660)])!))
    }

    @Test func doNotDisturb() {
        #expect(problems(#"{"doNotDisturb": {"calls": "vibrate"}}"#) == [
            #"\#(Self.file):1: doNotDisturb.calls: "vibrate" is not a supported choice for calls; allowed: ring, silent"#,
        ])
        #expect(problems(#"{"doNotDisturb": {"alarms": true}}"#) == [
            "\(Self.file):1: doNotDisturb.alarms: unknown field; allowed: calls",
        ])
        #expect(problems(#"{"doNotDisturb": "on"}"#) == [
            #"\#(Self.file):1: doNotDisturb: expected an object { ... }, found the string "on""#,
        ])
    }

    @Test func everyProblemIsListed() {
        let lines = problems("""
            {
              "patterns": { "p": [1] },
              "apps": { "a": { "vibrate": "nope" } },
              "quietHours": "soon"
            }
            """)
        #expect(lines.count == 3)
        #expect(lines.map { $0.split(separator: ":")[1] } == ["2", "3", "4"])
    }

    @Test func notUTF8() {
        do {
            _ = try UserSettingsLoader.parse([0x7B, 0xFF, 0x7D], file: Self.file, motorCap: Self.cap)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "\(Self.file):0: settings: not UTF-8 text")
        }
    }
}

/// User patterns in Haptics: bounded on/off lists.
@Suite("Vibration patterns from on/off milliseconds")
struct VibrationPatternOnOffTests {
    @Test func anOddListEndsOnAPulse() throws {
        let p = try VibrationPattern(name: "x", onOffMilliseconds: [100, 50, 200], cap: .seconds(20))
        #expect(p.pulses == [.init(on: .milliseconds(100), off: .milliseconds(50)), .init(on: .milliseconds(200), off: .zero)])
        #expect(!p.repeats)
        #expect(p.onTime == .milliseconds(300))
    }

    @Test func theBounds() {
        #expect(throws: VibrationPattern.OnOffError.empty) { try VibrationPattern(name: "x", onOffMilliseconds: [], cap: .seconds(20)) }
        #expect(throws: VibrationPattern.OnOffError.stepOutOfRange(index: 0, milliseconds: 9)) {
            try VibrationPattern(name: "x", onOffMilliseconds: [9], cap: .seconds(20))
        }
        #expect(throws: VibrationPattern.OnOffError.stepOutOfRange(index: 1, milliseconds: 5001)) {
            try VibrationPattern(name: "x", onOffMilliseconds: [10, 5001], cap: .seconds(20))
        }
        #expect(throws: VibrationPattern.OnOffError.tooManySteps(count: 17)) {
            try VibrationPattern(name: "x", onOffMilliseconds: Array(repeating: 10, count: 17), cap: .seconds(20))
        }
        #expect(throws: VibrationPattern.OnOffError.onTimeOverCap(onMilliseconds: 1500, capMilliseconds: 1000)) {
            try VibrationPattern(name: "x", onOffMilliseconds: [1000, 5000, 500], cap: .seconds(1))
        }
        #expect((try? VibrationPattern(name: "x", onOffMilliseconds: [1000, 5000], cap: .seconds(1))) != nil, "off time is not on-time")
    }
}

// MARK: - bounds (issue 28)

extension UserSettingsLoaderTests {

    @Test func appsPastTheCapacityAreOneProblemWithTheCount() {
        let apps = (0..<(AppRules.capacity + 1000)).map { "\"app.\($0)\": {\"mute\": true}" }.joined(separator: ",")
        let p = problems("{ \"apps\": { \(apps) } }")
        #expect(p.count == 1)
        #expect(p.first?.contains("\(AppRules.capacity + 1000) apps; allowed: at most \(AppRules.capacity)") == true)
    }

    @Test func patternsPastTheirLimitAreOneProblem() {
        let patterns = (0...UserSettings.maxPatterns).map { "\"p\($0)\": [100]" }.joined(separator: ",")
        let p = problems("{ \"patterns\": { \(patterns) } }")
        #expect(p == ["\(Self.file):1: patterns: \(UserSettings.maxPatterns + 1) patterns; allowed: at most \(UserSettings.maxPatterns)"])
    }

    @Test func anEchoedValueIsCutAndTheReportIsCapped() {
        let long = String(repeating: "a", count: 20_000)
        let p = problems("{ \"apps\": { \"\(long)\": {\"mute\": true} } }")
        #expect(p.count == 1)
        #expect((p.first?.count ?? 0) < 400)
        #expect(p.first?.contains(String(repeating: "a", count: BoardText.maxEchoed) + "...") == true)

        let bad = (0..<60).map { "\"a\($0)\": {\"mute\": 1}" }.joined(separator: ",\n")
        do {
            _ = try load("{ \"apps\": {\n\(bad) } }")
            Issue.record("expected problems")
        } catch {
            let lines = error.description.split(separator: "\n")
            #expect(lines.count == BoardError.reportedProblems + 1)
            #expect(lines.last == "... and 40 more problem(s) (fix these first)")
        }
    }
}
