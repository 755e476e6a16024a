import Gadgetbridge
import PhoneServices

/// One step of a simulated Android phone's (Gadgetbridge's) script.
public enum AndroidPhoneEvent: Equatable, Sendable {
    /// Pause before the next step.
    case wait(Duration)
    /// A Gadgetbridge message: the JSON inside `GB(...)`, as UTF-8 text.
    case message(String)
    /// The phone's local clock, seconds since 1970 (Gadgetbridge's clock line).
    case time(localSeconds: Int64)
    /// The phone's time zone, seconds east of UTC, daylight saving time included.
    case timeZone(seconds: Int32)
}

/// The text form of an Android phone's script, one step per line (the
/// Android half of a scenario, docs/demo.md):
///
///     wait 2s                                    # also 500ms
///     time 2024-05-01T09:41:00                   # the phone's local time
///     timezone +2                                # hours east of UTC (5.5, -3.5 ...)
///     gb {"t":"notify","id":1,"src":"WhatsApp","title":"Anna","body":"Lunch at 1?"}
///
/// A `gb` line's JSON runs to its last `}` (a `#` inside it is text); it
/// must be an object with a `"t"` and fit Gadgetbridge's line (4,096 bytes).
/// `time` and `timezone` before the first other step set the clock line
/// the phone sends on connecting; later ones send it again.
public enum AndroidPhoneScript {
    /// The longest `gb` JSON taken (the watch's line buffer).
    public static let maxMessageLength = GadgetbridgeSession.Limits().lineCapacity - 8

    /// Parses one line (nil: a blank or comment line).
    public static func parse(line: String) throws(PhoneScriptError) -> AndroidPhoneEvent? {
        func fail(_ message: String) -> PhoneScriptError { PhoneScriptError(line: 1, message: message) }
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("gb ") || trimmed.hasPrefix("gb\t") {
            return .message(try message(String(trimmed.dropFirst(3))))
        }
        let words = (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let verb = words.first else { return nil }
        let args = Array(words.dropFirst())
        switch verb {
        case "wait":
            guard args.count == 1, let d = PhoneScript.duration(args[0]) else { throw fail("wait needs a duration like 2s or 500ms") }
            return .wait(d)
        case "time":
            do { return .time(localSeconds: try PhoneScript.clockSeconds(args)) } catch { throw fail(error.message) }
        case "timezone":
            // Whole quarter hours from -12 to +14, as time zones are.
            guard args.count == 1, let hours = Double(args[0].hasPrefix("+") ? String(args[0].dropFirst()) : args[0]),
                hours >= -12, hours <= 14, (hours * 4).rounded() == hours * 4
            else { throw fail("timezone needs hours east of UTC from -12 to +14 in quarter hours, e.g. +2, 5.5, -3.5") }
            return .timeZone(seconds: Int32(hours * 3600))
        case "gb":
            throw fail("gb needs a JSON object, e.g. gb {\"t\":\"find\",\"n\":true}")
        default:
            throw fail("unknown Android step \(verb) (wait, time, timezone, gb, or a button: docs/demo.md)")
        }
    }

    /// Checks a `gb` line's JSON as the watch will read it: one object with
    /// a `"t"`, within the watch's limits; a comment may follow its last `}`.
    private static func message(_ text: String) throws(PhoneScriptError) -> String {
        func fail(_ message: String) -> PhoneScriptError { PhoneScriptError(line: 1, message: "gb: " + message) }
        guard let end = text.lastIndex(of: "}") else { throw fail("needs a JSON object {...}") }
        let rest = text[text.index(after: end)...].drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard rest.isEmpty || rest.hasPrefix("#") else { throw fail("only a # comment may follow the object") }
        let json = Array(text[...end].utf8)
        guard json.count <= maxMessageLength else { throw fail("longer than \(maxMessageLength) bytes") }
        let limits = GadgetbridgeSession.Limits()
        let reader = JSONReader(maxValues: limits.maxValues, maxDepth: limits.maxDepth, maxLength: limits.lineCapacity)
        let problem: String? = json.withUnsafeBytes { bytes in
            do throws(JSONError) {
                let value = try reader.read(bytes)
                return value.kind == .object && value["t"]?.string != nil ? nil : "needs an object with a \"t\" string, e.g. {\"t\":\"find\",\"n\":true}"
            } catch {
                return "not JSON (\(error))"
            }
        }
        if let problem { throw fail(problem) }
        return String(String(decoding: json, as: UTF8.self).drop { $0 == " " || $0 == "\t" })
    }
}
