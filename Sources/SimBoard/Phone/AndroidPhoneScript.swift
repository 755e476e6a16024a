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
/// A `gb` line's JSON is the rest of the line (a `#` in it is text, so a
/// comment goes on a line of its own); it must be an object with a `"t"`
/// and fit Gadgetbridge's line (4,096 bytes). `time` and `timezone` before
/// the first other step set the clock line the phone sends on connecting;
/// later ones send it again.
public enum AndroidPhoneScript {
    /// The longest `gb` JSON taken (the watch's line buffer).
    public static let maxMessageLength = GadgetbridgeSession.Limits().lineCapacity - 8

    /// Parses one step: `words` are its words without the comment (the verb
    /// first), `line` the whole line (a `gb` line's JSON).
    public static func parse(_ words: [String], line: Substring) throws(PhoneScriptError) -> AndroidPhoneEvent {
        func fail(_ message: String) -> PhoneScriptError { PhoneScriptError(line: 1, message: message) }
        let args = Array(words.dropFirst())
        switch words[0] {
        case "wait":
            guard args.count == 1, let d = PhoneScript.duration(args[0]) else { throw fail("wait needs a duration like 2s or 500ms") }
            return .wait(d)
        case "time":
            do { return .time(localSeconds: try PhoneScript.clockSeconds(args)) } catch { throw fail(error.message) }
        case "timezone":
            // Whole quarter hours from -12 to +14, as time zones are.
            guard args.count == 1, let hours = Double(args[0].dropFirst(args[0].hasPrefix("+") ? 1 : 0)),
                hours >= -12, hours <= 14, (hours * 4).rounded() == hours * 4
            else { throw fail("timezone needs hours east of UTC from -12 to +14 in quarter hours, e.g. +2, 5.5, -3.5") }
            return .timeZone(seconds: Int32(hours * 3600))
        case "gb":
            return .message(try message(line))
        default:
            throw fail("unknown Android step \(words[0]) (wait, time, timezone, gb, or a button: docs/demo.md)")
        }
    }

    /// Checks a `gb` line's JSON as the watch will read it: one object with
    /// a `"t"`, within the watch's limits.
    private static func message(_ line: Substring) throws(PhoneScriptError) -> String {
        func fail(_ message: String) -> PhoneScriptError { PhoneScriptError(line: 1, message: "gb: " + message) }
        var json = line.drop { $0 != "{" }
        while let last = json.last, last == " " || last == "\t" || last == "\r" { json = json.dropLast() }
        guard !json.isEmpty else { throw fail("needs a JSON object, e.g. gb {\"t\":\"find\",\"n\":true}") }
        let bytes = Array(json.utf8)
        guard bytes.count <= maxMessageLength else { throw fail("longer than \(maxMessageLength) bytes") }
        let limits = GadgetbridgeSession.Limits()
        let reader = JSONReader(maxValues: limits.maxValues, maxDepth: limits.maxDepth, maxLength: limits.lineCapacity)
        let problem: String? = bytes.withUnsafeBytes { raw in
            do throws(JSONError) {
                let value = try reader.read(raw)
                return value.kind == .object && value["t"]?.string != nil ? nil : "needs an object with a \"t\" string"
            } catch {
                return "not JSON (\(error))"
            }
        }
        if let problem { throw fail(problem) }
        return String(json)
    }
}
