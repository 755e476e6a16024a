import BoardConfig
import Foundation
import HAL
import SimBoard

/// A demo scenario: what the simulated iPhone does and, optionally, which
/// buttons a "hand" presses, on one timeline. The text format is the phone
/// script format (`PhoneScript`, see docs/demo.md) plus two watch-side verbs:
///
///     press positive        # press and release a button
///     hold negative 800     # hold a button for 800 ms (a long press)
///
/// `wait` lines move the timeline for both.
public struct DemoScenario: Equatable, Sendable {
    /// A button step at a point of the timeline (scenario time, speed 1).
    public struct ButtonStep: Equatable, Sendable {
        public var at: Duration
        public var role: ButtonRole
        public var hold: Duration
    }

    public var phoneEvents: [PhoneEvent]
    public var buttonSteps: [ButtonStep]
    /// The time of the last step.
    public var length: Duration

    public static func parse(_ text: String, file: String = "scenario") throws(WristCoreFailure) -> DemoScenario {
        var phone: [PhoneEvent] = []
        var buttons: [ButtonStep] = []
        var now = Duration.zero
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            func fail(_ message: String) -> WristCoreFailure {
                WristCoreFailure("\(file):\(index + 1): \(message)", exitCode: WristCoreExit.usageOrConfiguration)
            }
            if verb == "press" || verb == "hold" {
                guard words.count >= 2, let role = ButtonRole(rawValue: words[1]) else {
                    throw fail("\(verb) needs a button: \(ButtonRole.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                var hold = Duration.milliseconds(80)
                if verb == "hold" {
                    guard words.count == 3, let ms = Int(words[2]), ms > 0 else { throw fail("hold BUTTON MILLISECONDS, e.g. hold negative 800") }
                    hold = .milliseconds(ms)
                } else if words.count != 2 {
                    throw fail("press takes one button")
                }
                buttons.append(ButtonStep(at: now, role: role, hold: hold))
                continue
            }
            let events: [PhoneEvent]
            do { events = try PhoneScript.parse(String(raw)) } catch {
                throw fail(error.message)
            }
            for e in events {
                if case .wait(let d) = e { now += d }
                phone.append(e)
            }
        }
        return DemoScenario(phoneEvents: phone, buttonSteps: buttons, length: now)
    }

    /// Every wait divided by `speed`.
    public func scaled(by speed: Double) -> DemoScenario {
        guard speed != 1 else { return self }
        func scale(_ d: Duration) -> Duration { .nanoseconds(Int64(Double(d.nanosecondsClamped) / speed)) }
        return DemoScenario(
            phoneEvents: phoneEvents.map { if case .wait(let d) = $0 { .wait(scale(d)) } else { $0 } },
            buttonSteps: buttonSteps.map { ButtonStep(at: scale($0.at), role: $0.role, hold: $0.hold) },
            length: scale(length))
    }

    /// Finds a scenario by path, or by name in the shipped Scenarios/ folder.
    public static func load(_ argument: String?) throws(WristCoreFailure) -> DemoScenario {
        let name = argument ?? "default"
        var candidates = [name]
        if !name.contains("/") {
            let file = name.hasSuffix(".scenario") ? name : name + ".scenario"
            for dir in searchPath() { candidates.append(dir + "/" + file) }
        }
        for path in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    throw WristCoreFailure("\(path): cannot be read as UTF-8 text", exitCode: WristCoreExit.usageOrConfiguration)
                }
                return try parse(text, file: path)
            }
        }
        throw WristCoreFailure(
            "no scenario '\(name)' (looked in: \(candidates.joined(separator: ", "))); shipped scenarios are in Scenarios/, the format is in docs/demo.md",
            exitCode: WristCoreExit.usageOrConfiguration)
    }

    /// $WRISTCORE_SCENARIOS, ./Scenarios, then next to the executable
    /// (../share/wristcore/Scenarios for an installed binary).
    static func searchPath() -> [String] {
        var dirs: [String] = []
        if let env = ProcessInfo.processInfo.environment["WRISTCORE_SCENARIOS"] { dirs.append(env) }
        dirs.append("Scenarios")
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        dirs.append(exe.appendingPathComponent("../share/wristcore/Scenarios").standardizedFileURL.path)
        // Built in the source tree: .build/<triple>/debug/wristcore.
        dirs.append(exe.appendingPathComponent("../../../Scenarios").standardizedFileURL.path)
        return dirs
    }
}
