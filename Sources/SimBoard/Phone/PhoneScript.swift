import ATTCodec
import HAL
import PhoneServices
import TextFormat


/// One step of a simulated-iPhone script.
public enum PhoneEvent: Equatable, Sendable {
    /// Pause before the next step.
    case wait(Duration)
    /// A new notification (Notification Source "added").
    case add(SimulatedNotification)
    /// Changes to an existing notification ("modified"); nil fields stay.
    case modify(uid: UInt32, title: String?, subtitle: String?, message: String?, flags: SimulatedNotification.Flags?)
    /// The notification goes away ("removed").
    case remove(uid: UInt32)
    /// ANCS appears (at `handle`, or the first free range) and Service Changed is indicated.
    case publishANCS(at: UInt16?)
    /// ANCS disappears and Service Changed is indicated.
    case unpublishANCS
    /// The phone's clock changes (Current Time notified when subscribed).
    case setTime(CurrentTime)
    /// The phone's battery level changes (0-100): its Battery Service notifies it.
    case battery(UInt8)
    /// An app's display name (GetAppAttributes answers it).
    case appName(identifier: String, name: String)
    /// The phone reads the watch's encrypted characteristic, which makes it pair.
    case pair
    /// The phone drops the link.
    case disconnect
    /// ANCS stops sending Notification Source events (the subscription
    /// stays) until the watch re-subscribes.
    case goSilent
    /// Control Point writes get no ATT response at all.
    case stopAnsweringControlPoint
    /// Control Point writes are answered again.
    case answerControlPoint
    /// The wearer uses the phone's media player (AMS Entity Updates follow).
    case media(SimulatedMediaCommand)
    /// AMS appears (first free range) and Service Changed is indicated.
    case publishAMS
    /// AMS disappears and Service Changed is indicated.
    case unpublishAMS
}

/// Errors in a phone script text.
public struct PhoneScriptError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "phone script line \(line): \(message)" }
}

/// The text form of a phone script: one event per line, `#` comments.
///
///     wait 2s                       # also 500ms
///     app com.apple.MobileSMS "Messages"
///     add uid=1 category=social app=com.apple.MobileSMS title="Anna" message="Lunch?" flags=important
///     add uid=2 category=incomingCall title="Mum"          # calls get Answer / Decline
///     modify uid=1 message="Lunch at 1?"
///     remove uid=1
///     unpublish-ancs
///     publish-ancs at=0x0060
///     time 2024-05-01T12:30:00
///     pair
///     disconnect
///     go-silent                     # no Notification Source events until re-subscribed
///     stop-answering-control-point  # no ATT response to Control Point writes
///     answer-control-point
///     media next                    # also play, pause, toggle, previous, volume-up, volume-down
///     unpublish-ams
///     publish-ams
///
/// `add` keys: uid (required), category (other, incomingCall, missedCall,
/// voicemail, social, schedule, email, news, healthAndFitness,
/// businessAndFinance, location, entertainment), app, title, subtitle,
/// message, date (yyyyMMddTHHmmSS), flags (comma list of silent, important,
/// positiveAction, negativeAction), positive, negative (action labels).
public enum PhoneScript {
    public static func parse(_ text: String) throws(PhoneScriptError) -> [PhoneEvent] {
        var events: [PhoneEvent] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let words: [String]
            do { words = try tokenize(String(rawLine)) } catch { throw PhoneScriptError(line: lineNumber, message: error.message) }
            guard let verb = words.first else { continue }
            let args = Array(words.dropFirst())
            do { events.append(try event(verb, args)) } catch {
                throw PhoneScriptError(line: lineNumber, message: error.message)
            }
        }
        return events
    }

    struct Problem: Error { var message: String }

    private static func tokenize(_ line: String) throws(Problem) -> [String] {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var hasWord = false
        var escape = false
        for c in line {
            if escape {
                current.append(c == "n" ? "\n" : c)
                escape = false
                continue
            }
            if inQuotes {
                if c == "\\" { escape = true } else if c == "\"" { inQuotes = false } else { current.append(c) }
                continue
            }
            if c == "#" { break }
            if c == "\"" {
                inQuotes = true
                hasWord = true
            } else if c == " " || c == "\t" || c == "\r" {
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
            } else {
                current.append(c)
                hasWord = true
            }
        }
        if inQuotes { throw Problem(message: "unterminated quote") }
        if hasWord { words.append(current) }
        return words
    }

    private static func keyValues(_ args: [String]) throws(Problem) -> [String: String] {
        var kv: [String: String] = [:]
        for a in args {
            guard let eq = a.firstIndex(of: "=") else { throw Problem(message: "expected key=value, got \(a)") }
            kv[String(a[..<eq])] = String(a[a.index(after: eq)...])
        }
        return kv
    }

    private static func number(_ s: String) -> UInt32? {
        let hex = s.hasPrefix("0x") || s.hasPrefix("0X")
        return IntegerText.integer(hex ? s.dropFirst(2) : s[...], radix: hex ? 16 : 10, in: 0...Int64(UInt32.max)).map { UInt32($0) }
    }

    static func duration(_ s: String) -> Duration? {
        if s.hasSuffix("ms"), let v = IntegerText.integer(s.dropLast(2), in: .min ... .max) { return .milliseconds(v) }
        if s.hasSuffix("s"), let v = Double(s.dropLast()) { return .milliseconds(Int64(v * 1000)) }
        return nil
    }

    private static func flags(_ s: String) throws(Problem) -> SimulatedNotification.Flags {
        var f: SimulatedNotification.Flags = []
        for name in s.split(separator: ",") {
            switch name.asciiLowercased() {
            case "silent": f.insert(.silent)
            case "important": f.insert(.important)
            case "preexisting": f.insert(.preExisting)
            case "positiveaction": f.insert(.positiveAction)
            case "negativeaction": f.insert(.negativeAction)
            default: throw Problem(message: "unknown flag \(name)")
            }
        }
        return f
    }

    /// `time`'s argument, yyyy-MM-ddTHH:mm:ss, as seconds since 1970 (the
    /// phone's local time; the Android script shares it).
    static func clockSeconds(_ args: [String]) throws(Problem) -> Int64 {
        let digits = args.count == 1 ? args[0].split(whereSeparator: { "-T:".contains($0) }).compactMap { IntegerText.int($0) } : []
        guard digits.count == 6 else { throw Problem(message: "time needs yyyy-MM-ddTHH:mm:ss") }
        // Through seconds, so out-of-range fields carry over (25:00 is the next day).
        return CivilTime(year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5])
            .secondsSinceEpoch
    }

    private static func event(_ verb: String, _ args: [String]) throws(Problem) -> PhoneEvent {
        switch verb {
        case "wait":
            guard args.count == 1, let d = duration(args[0]) else { throw Problem(message: "wait needs a duration like 2s or 500ms") }
            return .wait(d)
        case "add":
            let kv = try keyValues(args)
            guard let u = kv["uid"].flatMap(number) else { throw Problem(message: "add needs uid=") }
            var category = SimulatedNotification.Category.other
            if let c = kv["category"] {
                guard let parsed = SimulatedNotification.Category(name: c) else { throw Problem(message: "unknown category \(c)") }
                category = parsed
            }
            let f = try kv["flags"].map { (s) throws(Problem) in try flags(s) } ?? []
            return .add(SimulatedNotification(
                uid: u, category: category, flags: f,
                appIdentifier: kv["app"] ?? (category == .incomingCall ? "com.apple.mobilephone" : "com.apple.MobileSMS"),
                title: kv["title"] ?? "", subtitle: kv["subtitle"] ?? "", message: kv["message"] ?? "",
                date: kv["date"] ?? "20240501T120000", positiveActionLabel: kv["positive"], negativeActionLabel: kv["negative"]))
        case "modify":
            let kv = try keyValues(args)
            guard let u = kv["uid"].flatMap(number) else { throw Problem(message: "modify needs uid=") }
            let f = try kv["flags"].map { (s) throws(Problem) in try flags(s) }
            return .modify(uid: u, title: kv["title"], subtitle: kv["subtitle"], message: kv["message"], flags: f)
        case "remove":
            let kv = try keyValues(args)
            guard let u = kv["uid"].flatMap(number) else { throw Problem(message: "remove needs uid=") }
            return .remove(uid: u)
        case "publish-ancs":
            let kv = try keyValues(args)
            if let at = kv["at"] {
                guard let h = number(at), h > 0, h <= 0xFFFF else { throw Problem(message: "bad handle \(at)") }
                return .publishANCS(at: UInt16(h))
            }
            return .publishANCS(at: nil)
        case "unpublish-ancs":
            return .unpublishANCS
        case "time":
            return .setTime(CurrentTime(CivilTime(secondsSinceEpoch: try clockSeconds(args))))
        case "battery":
            guard args.count == 1, let level = number(args[0]), level <= 100 else {
                throw Problem(message: "battery needs a level 0-100")
            }
            return .battery(UInt8(level))
        case "app":
            guard args.count == 2 else { throw Problem(message: "app needs an identifier and a name") }
            return .appName(identifier: args[0], name: args[1])
        case "pair":
            return .pair
        case "disconnect":
            return .disconnect
        case "go-silent":
            return .goSilent
        case "stop-answering-control-point":
            return .stopAnsweringControlPoint
        case "answer-control-point":
            return .answerControlPoint
        case "media":
            guard args.count == 1, let c = SimulatedMediaCommand(rawValue: args[0]) else {
                let verbs = SimulatedMediaCommand.allCases.map { $0.rawValue }.joined(separator: ", ")
                throw Problem(message: "media needs one of \(verbs)")
            }
            return .media(c)
        case "publish-ams":
            return .publishAMS
        case "unpublish-ams":
            return .unpublishAMS
        default:
            throw Problem(message: "unknown event \(verb)")
        }
    }
}
