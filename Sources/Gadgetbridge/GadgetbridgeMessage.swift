/// A message from Gadgetbridge (`GB({"t":...})`), decoded from the JSON
/// value in place: its texts point into the line and are valid until the
/// next line is read. Fields a message lacks are empty (or nil); texts the
/// phone sent as something other than a string read as absent.
public enum GadgetbridgeMessage {
    /// A notification posted (or updated: the same `id` again).
    case notify(Notify)
    /// A notification withdrawn on the phone (`notify-`).
    case notifyRemoved(id: Int64)
    /// A phone call's state (`call`).
    case call(Call)
    /// What the phone's player plays (`musicinfo`).
    case musicInfo(MusicInfo)
    /// Whether it plays (`musicstate`).
    case musicState(MusicState)
    /// "Find my watch" started or stopped (`find`).
    case find(on: Bool)
    /// Buzz `count` times (`vibrate`).
    case vibrate(count: Int)
    /// The weather where the phone is (`weather`).
    case weather(Weather)
    /// A calendar event added or changed (`calendar`; only with
    /// Gadgetbridge's "Sync calendar events" on).
    case calendar(CalendarEntry)
    /// Calendar events gone (`calendar-`): `ids` is one number or an array.
    case calendarRemoved(ids: JSONValue)
    /// Gadgetbridge asks which events the watch holds (`force_calendar_sync_start`).
    case calendarSyncRequested
    /// The alarms set on the phone for the watch (`alarm`): `list` is the
    /// array `d` of `{h, m, rep, on}` (`rep`: Monday bit 0 ... Sunday bit 6).
    case alarms(list: JSONValue)
    /// A message this watch does not act on (its `t`, for the log).
    case unsupported(type: UnsafeRawBufferPointer)

    public struct Notify {
        /// Gadgetbridge's notification id (a Java int).
        public var id: Int64
        /// The app's name as Android shows it (`src`).
        public var source: UnsafeRawBufferPointer
        public var title: UnsafeRawBufferPointer
        public var subject: UnsafeRawBufferPointer
        public var body: UnsafeRawBufferPointer
        /// Who sent it (a name or a number), for messaging apps.
        public var sender: UnsafeRawBufferPointer
        /// The phone can answer it with a text: it has a wearable reply
        /// action (`"reply":true`) or a phone number (an SMS).
        public var canReply: Bool
    }

    public struct Call {
        public enum Command: Sendable, Equatable {
            case incoming, outgoing, start, end, reject, accept, other
        }
        public var command: Command
        public var name: UnsafeRawBufferPointer
        public var number: UnsafeRawBufferPointer
    }

    public struct MusicInfo {
        public var artist: UnsafeRawBufferPointer
        public var album: UnsafeRawBufferPointer
        public var track: UnsafeRawBufferPointer
        /// Seconds (nil: not said).
        public var durationSeconds: Int64?
    }

    public struct MusicState {
        public enum State: Sendable, Equatable { case play, pause, stop, unknown }
        public var state: State
        /// Seconds into the track (nil: not said).
        public var positionSeconds: Int64?
    }

    /// Gadgetbridge's `weather`: temperatures in Kelvin, wind in km/h.
    public struct Weather {
        public var temperatureKelvin: Int64?
        public var highKelvin: Int64?
        public var lowKelvin: Int64?
        /// Relative humidity, percent.
        public var humidity: Int64?
        /// Wind speed in km/h (rounded down) and where it comes from, in degrees.
        public var windKmh: Int64?
        public var windDirection: Int64?
        /// OpenWeatherMap's condition code (800 clear, 802 scattered clouds, ...).
        public var code: Int64?
        /// The condition in words ("scattered clouds").
        public var text: UnsafeRawBufferPointer
        /// The place ("Berlin").
        public var location: UnsafeRawBufferPointer
    }

    /// Gadgetbridge's `calendar`: one event of the phone's calendars.
    public struct CalendarEntry {
        public var id: Int64
        /// The start, seconds since 1970 UTC (an all-day event: its day's UTC midnight).
        public var start: Int64
        public var durationSeconds: Int64
        public var allDay: Bool
        public var title: UnsafeRawBufferPointer
        public var location: UnsafeRawBufferPointer
    }

    /// Why a `GB(...)` line is not a message.
    public enum DecodeError: Error, Equatable, Sendable {
        /// The value is not an object with a string `t`.
        case noType
        /// A message that needs an `id` came without a number there.
        case noID
    }

    /// Decodes the message in `value` (the JSON inside `GB(...)`).
    public init(_ value: JSONValue) throws(DecodeError) {
        guard let type = value["t"], let name = type.string else { throw .noType }
        if type.equals("notify") {
            guard let id = value["id"]?.scaled(byPowerOfTen: 0) else { throw .noID }
            self = .notify(Notify(
                id: id, source: Self.text(value["src"]), title: Self.text(value["title"]),
                subject: Self.text(value["subject"]), body: Self.text(value["body"]), sender: Self.text(value["sender"]),
                canReply: value["reply"]?.bool == true || !Self.text(value["tel"]).isEmpty))
        } else if type.equals("notify-") {
            guard let id = value["id"]?.scaled(byPowerOfTen: 0) else { throw .noID }
            self = .notifyRemoved(id: id)
        } else if type.equals("call") {
            let cmd = value["cmd"]
            let command: Call.Command =
                cmd?.equals("incoming") == true ? .incoming
                : cmd?.equals("outgoing") == true ? .outgoing
                : cmd?.equals("start") == true ? .start
                : cmd?.equals("end") == true ? .end
                : cmd?.equals("reject") == true ? .reject
                : cmd?.equals("accept") == true ? .accept : .other
            self = .call(Call(command: command, name: Self.text(value["name"]), number: Self.text(value["number"])))
        } else if type.equals("musicinfo") {
            self = .musicInfo(MusicInfo(
                artist: Self.text(value["artist"]), album: Self.text(value["album"]), track: Self.text(value["track"]),
                durationSeconds: value["dur"]?.scaled(byPowerOfTen: 0)))
        } else if type.equals("musicstate") {
            let s = value["state"]
            let state: MusicState.State =
                s?.equals("play") == true ? .play
                : s?.equals("pause") == true ? .pause
                : s?.equals("stop") == true ? .stop : .unknown
            self = .musicState(MusicState(state: state, positionSeconds: value["position"]?.scaled(byPowerOfTen: 0)))
        } else if type.equals("find") {
            self = .find(on: value["n"]?.bool ?? false)
        } else if type.equals("vibrate") {
            let n = value["n"]?.scaled(byPowerOfTen: 0) ?? 1
            self = .vibrate(count: Int(max(0, min(n, 10))))
        } else if type.equals("weather") {
            self = .weather(Weather(
                temperatureKelvin: value["temp"]?.scaled(byPowerOfTen: 0), highKelvin: value["hi"]?.scaled(byPowerOfTen: 0),
                lowKelvin: value["lo"]?.scaled(byPowerOfTen: 0), humidity: value["hum"]?.scaled(byPowerOfTen: 0),
                windKmh: value["wind"]?.scaled(byPowerOfTen: 0), windDirection: value["wdir"]?.scaled(byPowerOfTen: 0),
                code: value["code"]?.scaled(byPowerOfTen: 0), text: Self.text(value["txt"]), location: Self.text(value["loc"])))
        } else if type.equals("calendar") {
            guard let id = value["id"]?.scaled(byPowerOfTen: 0), let start = value["timestamp"]?.scaled(byPowerOfTen: 0) else {
                throw .noID
            }
            self = .calendar(CalendarEntry(
                id: id, start: start, durationSeconds: max(0, value["durationInSeconds"]?.scaled(byPowerOfTen: 0) ?? 0),
                allDay: value["allDay"]?.bool ?? false, title: Self.text(value["title"]), location: Self.text(value["location"])))
        } else if type.equals("calendar-") {
            guard let ids = value["id"] else { throw .noID }
            self = .calendarRemoved(ids: ids)
        } else if type.equals("force_calendar_sync_start") {
            self = .calendarSyncRequested
        } else if type.equals("alarm") {
            guard let list = value["d"], list.kind == .array else { throw .noID }
            self = .alarms(list: list)
        } else {
            self = .unsupported(type: name)
        }
    }

    private static func text(_ value: JSONValue?) -> UnsafeRawBufferPointer {
        value?.string ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }
}
