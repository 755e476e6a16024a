import BoardConfig
import HAL
import TextFormat

/// A demo scenario: what the simulated phone does and, optionally, which
/// buttons a "hand" presses, on one timeline. A first step `phone android`
/// makes the phone a Gadgetbridge one (`AndroidPhoneScript`); otherwise it
/// is an iPhone (`PhoneScript`, see docs/demo.md). Both take the watch-side verbs:
///
///     press positive        # press and release a button
///     long positive         # a long press (the board's long-press time)
///     double positive       # a double press (inside the board's window)
///     hold negative 800     # hold a button for 800 ms
///
/// `wait` lines move the timeline for both. The edges of each step come from
/// `ButtonPress` and the board's input timing, when the demo runs.
public struct DemoScenario: Equatable, Sendable {
    /// A button step at a point of the timeline (scenario time, speed 1).
    public struct ButtonStep: Equatable, Sendable {
        public var at: Duration
        public var role: ButtonRole
        public var press: ButtonPress
        public init(at: Duration, role: ButtonRole, press: ButtonPress) {
            self.at = at
            self.role = role
            self.press = press
        }
    }

    /// The verbs that press a button.
    public static let buttonVerbs = ["press", "long", "double", "hold"]

    /// Which phone plays the scenario.
    public enum Phone: String, Equatable, Sendable {
        case iPhone = "iphone"
        case android
    }

    public var phone = Phone.iPhone
    /// The iPhone's steps (empty for an Android scenario).
    public var phoneEvents: [PhoneEvent]
    /// The Android phone's steps (empty for an iPhone scenario).
    public var androidEvents: [AndroidPhoneEvent] = []
    public var buttonSteps: [ButtonStep]
    /// The time of the last step.
    public var length: Duration

    public static func parse(_ text: String, file: String = "scenario") throws(WristCoreFailure) -> DemoScenario {
        var scenario = DemoScenario(phoneEvents: [], buttonSteps: [], length: .zero)
        var stepsSoFar = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            func fail(_ message: String) -> WristCoreFailure {
                WristCoreFailure("\(file):\(index + 1): \(message)", exitCode: WristCoreExit.usageOrConfiguration)
            }
            stepsSoFar += 1
            if verb == "phone" {
                guard words.count == 2, let phone = Phone(rawValue: words[1]) else { throw fail("phone needs iphone or android") }
                guard stepsSoFar == 1 else { throw fail("phone must be the first step") }
                scenario.phone = phone
                continue
            }
            if buttonVerbs.contains(verb) {
                guard words.count >= 2, let role = ButtonRole(rawValue: words[1]) else {
                    throw fail("\(verb) needs a button: \(ButtonRole.allCases.map { $0.rawValue }.joined(separator: ", "))")
                }
                let press: ButtonPress
                switch verb {
                case "hold":
                    guard words.count == 3, let ms = IntegerText.int(words[2]), ms > 0 else { throw fail("hold BUTTON MILLISECONDS, e.g. hold negative 800") }
                    press = .hold(.milliseconds(ms))
                default:
                    guard words.count == 2 else { throw fail("\(verb) takes one button") }
                    press = verb == "long" ? .long : verb == "double" ? .double : .press
                }
                scenario.buttonSteps.append(ButtonStep(at: scenario.length, role: role, press: press))
                continue
            }
            if scenario.phone == .android {
                let event: AndroidPhoneEvent
                do { event = try AndroidPhoneScript.parse(words, line: raw) } catch { throw fail(error.message) }
                if case .wait(let d) = event { scenario.length += d }
                scenario.androidEvents.append(event)
                continue
            }
            let events: [PhoneEvent]
            do { events = try PhoneScript.parse(String(raw)) } catch {
                throw fail(error.message)
            }
            for e in events {
                if case .wait(let d) = e { scenario.length += d }
                scenario.phoneEvents.append(e)
            }
        }
        return scenario
    }

    /// Every wait divided by `speed`.
    public func scaled(by speed: Double) -> DemoScenario {
        guard speed != 1 else { return self }
        func scale(_ d: Duration) -> Duration { .nanoseconds(Int64(Double(d.nanosecondsClamped) / speed)) }
        var scaled = self
        scaled.phoneEvents = phoneEvents.map { if case .wait(let d) = $0 { .wait(scale(d)) } else { $0 } }
        scaled.androidEvents = androidEvents.map { if case .wait(let d) = $0 { .wait(scale(d)) } else { $0 } }
        scaled.buttonSteps = buttonSteps.map { ButtonStep(at: scale($0.at), role: $0.role, press: $0.press) }
        scaled.length = scale(length)
        return scaled
    }
}
