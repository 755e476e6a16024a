import Gadgetbridge
import HAL
import PhoneServices
import TextFormat

/// Gadgetbridge's lines on the watch's Nordic UART (docs/android.md), as the
/// watch reads them: the phone's writes on RX and the watch's notifications
/// on TX are each put back together into lines by the watch's own
/// `LineAssembler`, with the watch's limits (`GadgetbridgeSession.Limits`);
/// the phone's lines are told apart by `GadgetbridgeLine` and read by
/// `JSONReader` and `GadgetbridgeMessage`, the watch's replies checked as
/// JSON. One record per line, made when its `\n` arrives.
final class GadgetbridgeTracker {
    /// The UART's two characteristics: RX carries the phone's lines, TX the watch's.
    enum Characteristic { case rx, tx }

    private let rx: LineAssembler
    private let tx: LineAssembler
    private let reader: JSONReader
    /// Who sent each one's bytes last (for the records of a line cut off).
    private var rxDirection: DecodedRecord.Direction?
    private var txDirection: DecodedRecord.Direction?

    init() {
        let limits = GadgetbridgeSession.Limits()
        rx = LineAssembler(capacity: limits.lineCapacity)
        tx = LineAssembler(capacity: limits.lineCapacity)
        reader = JSONReader(maxValues: limits.maxValues, maxDepth: limits.maxDepth, maxLength: limits.lineCapacity)
    }

    /// A value written on RX or notified on TX: the records of the lines it completes.
    func feed(_ value: UnsafeRawBufferPointer, on c: Characteristic, direction: DecodedRecord.Direction?) -> [DecodedRecord] {
        var out: [DecodedRecord] = []
        let assembler = c == .rx ? rx : tx
        if c == .rx { rxDirection = direction } else { txDirection = direction }
        assembler.append(
            value,
            line: { line in out.append(c == .rx ? phoneLine(line) : reply(line)) },
            overlong: {
                let problem = GadgetbridgeSession.LineProblem.overlong(limit: assembler.capacity)
                out.append(Self.malformed(c == .rx ? "line" : "reply", "\(problem) (dropped)", line: nil))
            })
        for k in out.indices { out[k].direction = direction }
        return out
    }

    /// The end of the link (`reason`) or of the capture (nil): a line still
    /// waiting for its `\n` is reported, and both assemblers start clean.
    func end(because reason: String?) -> [DecodedRecord] {
        let when = reason ?? "the capture ended"
        var out: [DecodedRecord] = []
        for (assembler, name, field, direction) in [(rx, "RX", "rx", rxDirection), (tx, "TX", "tx", txDirection)] where assembler.pendingCount > 0 {
            out.append(DecodedRecord(
                direction: direction, layer: .gadgetbridge, type: "line_incomplete",
                summary: "UART \(name): \(assembler.pendingCount) bytes of a line without its end when \(when)",
                fields: [
                    DecodeField("characteristic", .string(field)), DecodeField("length", .int(assembler.pendingCount)),
                    DecodeField("reason", .string(when)),
                ]))
            assembler.reset()
        }
        return out
    }

    // MARK: lines

    /// A line the phone wrote: a `GB(...)` message, the clock, or JavaScript.
    private func phoneLine(_ line: UnsafeRawBufferPointer) -> DecodedRecord {
        switch GadgetbridgeLine(line) {
        case .message(let json):
            let value: JSONValue
            do throws(JSONError) {
                value = try reader.read(json)
            } catch {
                return Self.malformed("line", "\(GadgetbridgeSession.LineProblem.malformed(error))", line: line)
            }
            do throws(GadgetbridgeMessage.DecodeError) {
                return Self.record(try GadgetbridgeMessage(value))
            } catch {
                return Self.malformed("line", "\(GadgetbridgeSession.LineProblem.notAMessage(error))", line: line)
            }
        case .setTime(let utc, let zone):
            return Self.setTime(utc, zone)
        case .empty:
            return DecodedRecord(layer: .gadgetbridge, type: "empty_line", summary: "an empty line")
        case .other:
            let text = Self.latin1(line)
            return DecodedRecord(
                layer: .gadgetbridge, type: "javascript",
                summary: "JavaScript for a Bangle.js (ignored): \"\(QuotedText.escaped(text, quote: true))\"",
                fields: [DecodeField("line", .string(text))])
        }
    }

    /// A line the watch notified: one JSON object, `\r\n` at its end.
    private func reply(_ line: UnsafeRawBufferPointer) -> DecodedRecord {
        let trimmed = line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        do throws(JSONError) {
            _ = try reader.read(trimmed)
        } catch {
            return Self.malformed("reply", "not JSON (\(error))", line: trimmed)
        }
        let text = Self.latin1(trimmed)
        return DecodedRecord(
            layer: .gadgetbridge, type: "reply",
            summary: EscapedText.escaped(text, style: .swift, quote: false, backslash: false),
            fields: [DecodeField("json", .string(text))])
    }

    static func malformed(_ what: String, _ message: String, line: UnsafeRawBufferPointer?) -> DecodedRecord {
        var summary = "Gadgetbridge \(what): \(message)"
        var fields = [DecodeField("error", .string(message))]
        if let line {
            let text = latin1(line)
            summary += ": \"\(QuotedText.escaped(text, quote: true))\""
            fields.append(DecodeField("line", .string(text)))
        }
        return DecodedRecord(layer: .malformed, type: "malformed", summary: summary, fields: fields)
    }

    /// The bytes as Gadgetbridge writes and reads them: ISO-8859-1.
    static func latin1(_ bytes: UnsafeRawBufferPointer) -> String {
        var s = ""
        for b in bytes { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s
    }

    // MARK: records

    /// `setTime 2025-01-01 12:00:00 UTC, zone +1:00`.
    static func setTime(_ utc: Int64, _ zone: Int32?) -> DecodedRecord {
        let t = CivilTime(secondsSinceEpoch: utc)
        let date = "\(DecodeTime.pad(t.year, 4))-\(DecodeTime.pad(t.month, 2))-\(DecodeTime.pad(t.day, 2))"
        let time = "\(DecodeTime.pad(t.hour, 2)):\(DecodeTime.pad(t.minute, 2)):\(DecodeTime.pad(t.second, 2))"
        var summary = "setTime \(date) \(time) UTC"
        var fields = [DecodeField("utc_seconds", .int(utc)), DecodeField("utc", .string("\(t)Z"))]
        if let zone {
            let minutes = Int(zone.magnitude) / 60
            let offset = "\(zone < 0 ? "-" : "+")\(minutes / 60):\(DecodeTime.pad(minutes % 60, 2))"
            summary += ", zone \(offset)"
            fields += [DecodeField("zone_offset_seconds", .int(zone)), DecodeField("zone", .string(offset))]
        }
        return DecodedRecord(layer: .gadgetbridge, type: "set_time", summary: summary, fields: fields)
    }

    /// A message, its main fields named as Gadgetbridge's keys: `notify id=1234 src="WhatsApp" title="René"`.
    static func record(_ message: GadgetbridgeMessage) -> DecodedRecord {
        var m: MessageFields
        switch message {
        case .notify(let n):
            m = MessageFields("notify")
            m.number("id", n.id)
            m.text("src", n.source)
            m.text("title", n.title)
            m.text("subject", n.subject)
            m.text("body", n.body)
            m.text("sender", n.sender)
        case .notifyRemoved(let id):
            m = MessageFields("notify-")
            m.number("id", id)
        case .call(let c):
            m = MessageFields("call")
            m.word("cmd", Self.name(of: c.command))
            m.text("name", c.name)
            m.text("number", c.number)
        case .musicInfo(let i):
            m = MessageFields("musicinfo")
            m.text("artist", i.artist)
            m.text("album", i.album)
            m.text("track", i.track)
            m.number("dur", i.durationSeconds)
        case .musicState(let s):
            m = MessageFields("musicstate")
            m.word("state", Self.name(of: s.state))
            m.number("position", s.positionSeconds)
        case .find(let on):
            m = MessageFields("find")
            m.word("n", on ? "true" : "false", .bool(on))
        case .vibrate(let count):
            m = MessageFields("vibrate")
            m.number("n", Int64(count))
        case .weather(let w):
            m = MessageFields("weather")
            m.number("temp", w.temperatureKelvin)
            m.number("hi", w.highKelvin)
            m.number("lo", w.lowKelvin)
            m.number("hum", w.humidity)
            m.number("code", w.code)
            m.text("txt", w.text)
            m.number("wind", w.windKmh)
            m.number("wdir", w.windDirection)
            m.text("loc", w.location)
        case .calendar(let c):
            m = MessageFields("calendar")
            m.number("id", c.id)
            m.number("timestamp", c.start)
            m.number("durationInSeconds", c.durationSeconds)
            m.word("allDay", c.allDay ? "true" : "false", .bool(c.allDay))
            m.text("title", c.title)
            m.text("location", c.location)
        case .calendarRemoved(let ids):
            m = MessageFields("calendar-")
            m.number("id", ids.integer)
            ids.forEachElement { m.number("id", $0.integer) }
        case .calendarSyncRequested:
            m = MessageFields("force_calendar_sync_start")
        case .alarms(let list):
            m = MessageFields("alarm")
            list.forEachElement { a in
                m.number("h", a["h"]?.integer)
                m.number("m", a["m"]?.integer)
                m.number("rep", a["rep"]?.integer)
                m.word("on", a["on"]?.bool == true ? "true" : "false", .bool(a["on"]?.bool == true))
            }
        case .unsupported(let type):
            m = MessageFields(String(decoding: type, as: UTF8.self))
            m.summary += " (not acted on by this watch)"
        }
        return DecodedRecord(layer: .gadgetbridge, type: "message", summary: m.summary, fields: m.fields)
    }

    /// What Gadgetbridge sends for the call's `cmd` (`other`: anything else).
    static func name(of command: GadgetbridgeMessage.Call.Command) -> String {
        switch command {
        case .incoming: "incoming"
        case .outgoing: "outgoing"
        case .start: "start"
        case .end: "end"
        case .reject: "reject"
        case .accept: "accept"
        case .other: "other"
        }
    }

    /// What Gadgetbridge sends for the player's `state` (`unknown`: anything else).
    static func name(of state: GadgetbridgeMessage.MusicState.State) -> String {
        switch state {
        case .play: "play"
        case .pause: "pause"
        case .stop: "stop"
        case .unknown: "unknown"
        }
    }

    /// A message's summary and fields, built key by key.
    struct MessageFields {
        var summary: String
        var fields: [DecodeField]

        init(_ t: String) {
            summary = QuotedText.escaped(t)
            fields = [DecodeField("t", .string(t))]
        }

        /// A text the phone sent (UTF-8 once read), when not empty.
        mutating func text(_ key: String, _ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            let s = String(decoding: bytes, as: UTF8.self)
            summary += " \(key)=\"\(QuotedText.escaped(s, quote: true))\""
            fields.append(DecodeField(key, .string(s)))
        }

        mutating func number(_ key: String, _ n: Int64?) {
            guard let n else { return }
            word(key, "\(n)", .integer(n))
        }

        mutating func word(_ key: String, _ w: String, _ value: DecodeValue? = nil) {
            summary += " \(key)=\(w)"
            fields.append(DecodeField(key, value ?? .string(w)))
        }
    }
}
