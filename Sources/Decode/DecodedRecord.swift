import ATTCodec
import HAL
import TextFormat
/// One line of `wristcore decode` output: an ATT PDU, an ANCS message, an
/// HCI / L2CAP event worth seeing, or a malformed packet. Pure data: the
/// decoders return these, `textLine` and `jsonLine` format them.
public struct DecodedRecord: Equatable, Sendable {
    /// Which side sent the bytes, when the input says so (captures).
    public enum Direction: String, Sendable {
        case phoneToWatch = "phone→watch"
        case watchToPhone = "watch→phone"

        /// The name used in JSON ("phone_to_watch" / "watch_to_phone").
        public var jsonName: String { self == .phoneToWatch ? "phone_to_watch" : "watch_to_phone" }
        public var opposite: Direction { self == .phoneToWatch ? .watchToPhone : .phoneToWatch }
    }

    /// The protocol layer a record describes.
    public enum Layer: String, Sendable {
        case hci = "HCI", l2cap = "L2CAP", smp = "SMP", att = "ATT", ancs = "ANCS", cts = "CTS"
        /// Apple Media Service.
        case ams = "AMS"
        /// Gadgetbridge's lines on the Nordic UART (an Android phone).
        case gadgetbridge = "Gadgetbridge"
        /// Bytes that could not be decoded (in a capture: the capture goes on).
        case malformed = "MALFORMED"

        public var jsonName: String { rawValue.asciiLowercased() }
    }

    /// 1-based record number in the capture file (nil for hex input).
    public var packet: Int?
    /// Microseconds since 1970-01-01T00:00:00Z (captures only).
    public var timeMicroseconds: Int64?
    public var direction: Direction?
    public var layer: Layer
    /// What it is, in stable snake_case (`write_request`, `notification_source` ...).
    public var type: String
    /// The readable description (the text line without its prefix).
    public var summary: String
    /// The machine-readable fields, in output order (after the envelope fields).
    public var fields: [DecodeField]

    public init(
        packet: Int? = nil, timeMicroseconds: Int64? = nil, direction: Direction? = nil,
        layer: Layer, type: String, summary: String, fields: [DecodeField] = []
    ) {
        self.packet = packet
        self.timeMicroseconds = timeMicroseconds
        self.direction = direction
        self.layer = layer
        self.type = type
        self.summary = summary
        self.fields = fields
    }

    /// `#12 18:30:05.000120 phone→watch ATT Handle Value Notification ...`;
    /// for hex input just `ANCS Notification Source: ...`.
    public var textLine: String {
        var parts: [String] = []
        if let packet { parts.append("#\(packet)") }
        if let timeMicroseconds { parts.append(DecodeTime.timeOfDay(timeMicroseconds)) }
        if let direction { parts.append(direction.rawValue) }
        parts.append(layer.rawValue)
        parts.append(summary)
        return parts.joined(separator: " ")
    }

    /// One JSON object: the envelope (`packet`, `time`, `time_us`,
    /// `direction`, `layer`, `type`, `summary`) then the record's fields.
    public var jsonLine: String {
        var object: [DecodeField] = []
        if let packet { object.append(DecodeField("packet", .int(Int64(packet)))) }
        if let timeMicroseconds {
            object.append(DecodeField("time", .string(DecodeTime.iso8601(timeMicroseconds))))
            object.append(DecodeField("time_us", .int(timeMicroseconds)))
        }
        if let direction { object.append(DecodeField("direction", .string(direction.jsonName))) }
        object.append(DecodeField("layer", .string(layer.jsonName)))
        object.append(DecodeField("type", .string(type)))
        object.append(DecodeField("summary", .string(summary)))
        object.append(contentsOf: fields)
        var out = ""
        DecodeValue.object(object).writeJSON(to: &out)
        return out
    }
}

/// A named value of a record (kept in order so the JSON is stable).
public struct DecodeField: Equatable, Sendable {
    public var name: String
    public var value: DecodeValue
    public init(_ name: String, _ value: DecodeValue) {
        self.name = name
        self.value = value
    }
}

/// A JSON value.
public indirect enum DecodeValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case array([DecodeValue])
    case object([DecodeField])

    public static func int(_ v: some BinaryInteger) -> DecodeValue { .integer(Int64(v)) }
    /// Bytes as lowercase hex without separators (`"0a1b"`).
    public static func hex(_ bytes: some Sequence<UInt8>) -> DecodeValue { .string(HexFormat.compact(bytes)) }

    public func writeJSON(to out: inout String) {
        switch self {
        case .string(let s): Self.writeString(s, to: &out)
        case .integer(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeJSON(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, f) in fields.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(f.name, to: &out)
                out += ":"
                f.value.writeJSON(to: &out)
            }
            out += "}"
        }
    }

    public static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars { EscapedText.append(scalar, to: &out, style: .json, quote: true, backslash: true) }
        out += "\""
    }
}

/// Hex spellings used in the output.
public enum HexFormat {
    /// `0a1b2c`
    public static func compact(_ bytes: some Sequence<UInt8>) -> String {
        var s = ""
        for b in bytes { s += byte(b) }
        return s
    }

    /// `0a 1b 2c`
    public static func spaced(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map(byte).joined(separator: " ")
    }

    public static func byte(_ b: UInt8) -> String {
        let h = String(b, radix: 16)
        return b < 16 ? "0" + h : h
    }

    /// `0x002a`
    public static func handle(_ h: UInt16) -> String {
        let s = String(h, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - s.count) + s
    }

    /// `0xa2`
    public static func byteValue(_ b: UInt8) -> String { "0x" + byte(b) }
}
