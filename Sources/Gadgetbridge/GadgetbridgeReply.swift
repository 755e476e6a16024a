/// What the watch writes back to Gadgetbridge: one JSON object per line on
/// the UART's TX characteristic, as a Bangle.js does (docs/android.md), in
/// ASCII, each line ending `\r\n`: Gadgetbridge reads ISO-8859-1 and drops
/// the byte before `\n` (Espruino's `println` sends `\r\n`).
public enum GadgetbridgeReply {
    /// A button on a notification: `{"t":"notify","id":N,"n":"DISMISS"}`.
    case notification(id: Int64, NotificationReply)
    /// A text reply: `{"t":"notify","id":N,"n":"REPLY","msg":"On my way"}`;
    /// `text` is UTF-8 (written as JSON escapes: the line stays ASCII), at
    /// most `maxReplyText` bytes of it.
    case reply(id: Int64, text: UnsafeRawBufferPointer)
    /// A button on a call: `{"t":"call","n":"ACCEPT"}`.
    case call(CallReply)
    /// A music control: `{"t":"music","n":"play"}`.
    case music(MusicCommand)
    /// Ring the phone, or stop: `{"t":"findPhone","n":true}`.
    case findPhone(Bool)
    /// The watch's firmware, told on connecting: `{"t":"ver","fw":"...","hw":"WristCore"}`.
    case version(String)
    /// The calendar events the watch holds: `{"t":"force_calendar_sync","ids":[...]}`.
    /// Gadgetbridge forgets the ones missing and sends them again.
    case calendarSync(CalendarIDs)
    /// The watch's battery, as a Bangle.js reports it: `{"t":"status","bat":82,"chg":0}`,
    /// with `"volt":3.912` when the gauge measures the cell. Gadgetbridge
    /// shows it in its device list (`handleBatteryStatus`).
    case status(percent: Int, charging: Bool, millivolts: Int?)

    /// Up to `capacity` event ids (a fixed value: no allocation).
    public struct CalendarIDs: Sendable {
        public static let capacity = 16
        public private(set) var count = 0
        private var ids = InlineArray<16, Int64>(repeating: 0)
        public init() {}
        /// Adds `id`; past the capacity it is left out.
        public mutating func append(_ id: Int64) {
            guard count < Self.capacity else { return }
            ids[count] = id
            count += 1
        }
        public subscript(i: Int) -> Int64 { ids[i] }
    }

    public enum NotificationReply: Equatable, Sendable {
        case dismiss, open, mute
        var word: StaticString {
            switch self {
            case .dismiss: "DISMISS"
            case .open: "OPEN"
            case .mute: "MUTE"
            }
        }
    }

    public enum CallReply: Equatable, Sendable {
        case accept, reject, end
        var word: StaticString {
            switch self {
            case .accept: "ACCEPT"
            case .reject: "REJECT"
            case .end: "END"
            }
        }
    }

    public enum MusicCommand: Equatable, Sendable {
        case play, pause, playPause, next, previous, volumeUp, volumeDown
        var word: StaticString {
            switch self {
            case .play: "play"
            case .pause: "pause"
            case .playPause: "playpause"
            case .next: "next"
            case .previous: "previous"
            case .volumeUp: "volumeup"
            case .volumeDown: "volumedown"
            }
        }
    }

    /// The longest line any reply makes, `\r\n` included (the version text is
    /// cut to fit).
    public static let maxLength = 400
    /// The reply text's bytes sent at most (each may take 6 bytes escaped).
    public static let maxReplyText = 64

    /// Writes the line, `\r\n` included, into `buffer` (at least `maxLength`
    /// bytes); returns its length.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var w = LineWriter(buffer: buffer)
        switch self {
        case .notification(let id, let reply):
            w.put("{\"t\":\"notify\",\"id\":")
            w.put(id)
            w.put(",\"n\":\"")
            w.put(reply.word)
            w.put("\"}")
        case .reply(let id, let text):
            w.put("{\"t\":\"notify\",\"id\":")
            w.put(id)
            w.put(",\"n\":\"REPLY\",\"msg\":\"")
            w.putEscaped(UnsafeRawBufferPointer(rebasing: text.prefix(Self.maxReplyText)))
            w.put("\"}")
        case .call(let reply):
            w.put("{\"t\":\"call\",\"n\":\"")
            w.put(reply.word)
            w.put("\"}")
        case .music(let command):
            w.put("{\"t\":\"music\",\"n\":\"")
            w.put(command.word)
            w.put("\"}")
        case .findPhone(let on):
            w.put("{\"t\":\"findPhone\",\"n\":")
            w.put(on ? "true" : "false")
            w.put("}")
        case .version(let firmware):
            w.put("{\"t\":\"ver\",\"fw\":\"")
            w.putQuotable(firmware, max: 40)
            w.put("\",\"hw\":\"WristCore\"}")
        case .calendarSync(let ids):
            w.put("{\"t\":\"force_calendar_sync\",\"ids\":[")
            for i in 0..<ids.count {
                if i > 0 { w.put(",") }
                w.put(ids[i])
            }
            w.put("]}")
        case .status(let percent, let charging, let millivolts):
            w.put("{\"t\":\"status\",\"bat\":")
            w.put(Int64(min(max(percent, 0), 100)))
            w.put(charging ? ",\"chg\":1" : ",\"chg\":0")
            if let mv = millivolts, mv > 0, mv < 100_000 {
                w.put(",\"volt\":")
                w.put(Int64(mv / 1000))
                w.put(".")
                let milli = mv % 1000
                w.put(milli < 100 ? (milli < 10 ? "00" : "0") : "")
                w.put(Int64(milli))
            }
            w.put("}")
        }
        w.put("\r\n")
        return w.count
    }
}

/// Appends ASCII to a buffer the caller sized (never past its end).
private struct LineWriter {
    let buffer: UnsafeMutableRawBufferPointer
    var count = 0

    mutating func put(_ text: StaticString) {
        for k in 0..<text.utf8CodeUnitCount { byte(text.utf8Start[k]) }
    }

    /// Text that needs no escaping: letters, digits, `.`, `-`, `_`, space (others become `_`).
    mutating func putQuotable(_ text: String, max: Int) {
        for b in text.utf8.prefix(max) {
            let plain = (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x2E || b == 0x2D
                || b == 0x5F || b == 0x20
            byte(plain ? b : 0x5F)
        }
    }

    /// UTF-8 text as a JSON string's inside, in ASCII: `"` and `\\` escaped,
    /// everything else outside printable ASCII as `\\uXXXX` (surrogate pairs
    /// past U+FFFF; a malformed byte as `?`). Gadgetbridge reads the line
    /// as ISO-8859-1, so raw UTF-8 would arrive garbled.
    mutating func putEscaped(_ text: UnsafeRawBufferPointer) {
        var i = 0
        while i < text.count {
            let b = text[i]
            if b >= 0x20 && b < 0x7F {
                if b == 0x22 || b == 0x5C { byte(0x5C) }
                byte(b)
                i += 1
                continue
            }
            // A UTF-8 sequence: its length from the lead byte, then its continuation bytes.
            let length = b < 0x80 ? 1 : b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4 : 0
            var scalar = UInt32(length == 1 ? b : length == 2 ? b & 0x1F : length == 3 ? b & 0x0F : b & 0x07)
            var ok = length > 0 && i + length <= text.count
            if ok && length > 1 {
                for k in 1..<length {
                    let c = text[i + k]
                    if c & 0xC0 != 0x80 { ok = false }
                    scalar = scalar << 6 | UInt32(c & 0x3F)
                }
            }
            guard ok else {
                byte(UInt8(ascii: "?"))
                i += 1
                continue
            }
            if scalar > 0xFFFF {
                let v = scalar - 0x10000
                unicodeEscape(0xD800 + (v >> 10))
                unicodeEscape(0xDC00 + (v & 0x3FF))
            } else {
                unicodeEscape(scalar)
            }
            i += length
        }
    }

    private mutating func unicodeEscape(_ unit: UInt32) {
        byte(0x5C)
        byte(UInt8(ascii: "u"))
        var shift: UInt32 = 16
        while shift > 0 {
            shift -= 4
            let d = UInt8((unit >> shift) & 0xF)
            byte(d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "a") + d - 10)
        }
    }

    mutating func put(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var n = 0
        repeat {
            digits[n] = UInt8(magnitude % 10) + UInt8(ascii: "0")
            magnitude /= 10
            n += 1
        } while magnitude > 0
        while n > 0 {
            n -= 1
            byte(digits[n])
        }
    }

    private mutating func byte(_ b: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = b
        count += 1
    }
}
