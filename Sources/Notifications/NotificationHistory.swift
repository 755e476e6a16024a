import HAL

/// The notification list as a small file, so that after a restart or a
/// reboot the list shows what it showed (docs/settings.md, "Notification
/// history"). Pure: bytes in, bytes out; the file itself is the state
/// directory's (WatchFiles' `HistoryFile`), the timing the watch's
/// (`NotificationHistoryKeeper`), the restored entries the ANCS store's
/// "previous session" ones.
///
/// Format, version 1 (little-endian):
///
///     "WCNH"  u8 version (1)  u8 count
///     count entries, oldest first:
///       u8 category  u8 flags (silent, important, pre-existing)
///       u8 marks (bit 0: content hidden, bit 1: a date follows)
///       u8 fields (bit 0 app identifier, 1 title, 2 subtitle, 3 message, 4 app name)
///       [date: u16 year, u8 month, day, hour, minute, second]
///       per field present, in bit order: u16 length, the UTF-8 bytes
///     u32 FNV-1a of every byte before it
///
/// Bounded: at most `maximumEntries` entries and `maximumFileBytes` bytes;
/// the writer drops the oldest entries to fit, a reader refuses more.
/// An app whose content is hidden is stored without its title, subtitle
/// and message: its identifier, name, category and date only.
public enum NotificationHistory {
    /// The name of the file in the state directory.
    public static let fileName = "notification-history"
    public static let magic: [UInt8] = [0x57, 0x43, 0x4E, 0x48]  // "WCNH"
    public static let version: UInt8 = 1
    /// The count limit: the notification store's capacity (the ANCS
    /// consumer's default `storeCapacity`; a test keeps them equal).
    public static let maximumEntries = 32
    /// The byte limit: never written larger (the oldest entries go), a
    /// larger file is set aside unread. 32 entries with every field at the
    /// ANCS store's capacities take about 20 KiB.
    public static let maximumFileBytes = 32 * 1024

    /// One kept notification.
    public struct Entry: Equatable, Sendable {
        public var category: NotificationCategory
        public var flags: NotificationFlags
        public var date: CivilTime?
        /// Stored without its title, subtitle and message (the app's rule).
        public var contentHidden = false
        public var appIdentifier: [UInt8]?
        public var appName: [UInt8]?
        public var title: [UInt8]?
        public var subtitle: [UInt8]?
        public var message: [UInt8]?

        public init(
            category: NotificationCategory, flags: NotificationFlags = [], date: CivilTime? = nil, contentHidden: Bool = false,
            appIdentifier: [UInt8]? = nil, appName: [UInt8]? = nil, title: [UInt8]? = nil, subtitle: [UInt8]? = nil,
            message: [UInt8]? = nil
        ) {
            self.category = category
            self.flags = flags
            self.date = date
            self.contentHidden = contentHidden
            self.appIdentifier = appIdentifier
            self.appName = appName
            self.title = title
            self.subtitle = subtitle
            self.message = message
        }
    }

    /// Why a file cannot be used (it is set aside).
    public enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        case notAHistoryFile
        case unsupportedVersion(UInt8)
        case tooLarge(Int)
        case tooManyEntries(Int)
        case truncated
        case badChecksum
        case badDate
        case trailingBytes

        public var description: String {
            switch self {
            case .notAHistoryFile: "not a notification history file"
            case .unsupportedVersion(let v): "version \(v), this watch reads version \(NotificationHistory.version)"
            case .tooLarge(let n): "\(n) bytes, more than \(NotificationHistory.maximumFileBytes)"
            case .tooManyEntries(let n): "\(n) entries, more than \(NotificationHistory.maximumEntries)"
            case .truncated: "cut short"
            case .badChecksum: "its checksum does not match (damaged)"
            case .badDate: "an entry's date is not a date"
            case .trailingBytes: "bytes after the last entry"
            }
        }
    }

    /// The flags worth keeping (the actions are the phone's, gone with its session).
    static let keptFlags = NotificationFlags([.silent, .important, .preExisting])
    static let headerBytes = 6
    static let checksumBytes = 4
    static let dateBytes = 7

    // MARK: - writing

    /// Whether the list keeps `n` across a session's end (as the ANCS
    /// store's previous-session rule does): something to show, not a call.
    public static func keeps(_ n: Notification) -> Bool {
        n.category != .incomingCall && (n.has(.title) || n.has(.appIdentifier))
    }

    /// The file for what `source` lists: the newest entries that fit
    /// `maximumEntries` and `maximumFileBytes`, oldest first. Allocates
    /// (once, at write time: never on a notification's arrival).
    public static func encode(_ source: any NotificationSource, hidesContent: (Notification) -> Bool) -> [UInt8] {
        // Newest first: how many of the newest fit.
        var fitting = 0
        var size = headerBytes + checksumBytes
        var full = false
        source.forEachNotification(newestFirst: true) { n in
            guard !full, keeps(n) else { return }
            let s = encodedSize(n, hidden: hidesContent(n))
            if fitting == maximumEntries || size + s > maximumFileBytes {
                full = true
                return
            }
            fitting += 1
            size += s
        }
        var out = magic
        out.reserveCapacity(size)
        out.append(version)
        out.append(UInt8(fitting))
        var skip = -fitting
        source.forEachNotification(newestFirst: false) { n in if keeps(n) { skip += 1 } }
        source.forEachNotification(newestFirst: false) { n in
            guard keeps(n) else { return }
            if skip > 0 {
                skip -= 1
                return
            }
            append(n, hidden: hidesContent(n), to: &out)
        }
        appendUInt32(checksum(out[...]), to: &out)
        return out
    }

    /// The file for `entries` (oldest first; the newest that fit are kept).
    public static func encode(_ entries: [Entry]) -> [UInt8] {
        var first = entries.count
        var size = headerBytes + checksumBytes
        while first > 0 && entries.count - first < maximumEntries {
            let s = encodedSize(entries[first - 1])
            if size + s > maximumFileBytes { break }
            size += s
            first -= 1
        }
        var out = magic
        out.append(version)
        out.append(UInt8(entries.count - first))
        for e in entries[first...] { append(e, to: &out) }
        appendUInt32(checksum(out[...]), to: &out)
        return out
    }

    static func encodedSize(_ n: Notification, hidden: Bool) -> Int {
        var s = 4 + (n.date == nil ? 0 : dateBytes)
        if n.has(.appIdentifier) { s += 2 + n.bytes(.appIdentifier).count }
        if let name = n.appDisplayNameBytes { s += 2 + name.count }
        if !hidden {
            for f in [NotificationField.title, .subtitle, .message] where n.has(f) { s += 2 + n.bytes(f).count }
        }
        return s
    }

    static func encodedSize(_ e: Entry) -> Int {
        var s = 4 + (e.date == nil ? 0 : dateBytes)
        for f in fields(of: e) { if let f { s += 2 + f.count } }
        return s
    }

    static func fields(of e: Entry) -> [[UInt8]?] {
        [e.appIdentifier, e.title, e.subtitle, e.message, e.appName]
    }

    static func append(_ n: Notification, hidden: Bool, to out: inout [UInt8]) {
        let name = n.appDisplayNameBytes
        var mask: UInt8 = 0
        if n.has(.appIdentifier) { mask |= 1 }
        if !hidden {
            if n.has(.title) { mask |= 2 }
            if n.has(.subtitle) { mask |= 4 }
            if n.has(.message) { mask |= 8 }
        }
        if name != nil { mask |= 16 }
        appendHead(n.category, n.flags, n.date, hidden: hidden, mask: mask, to: &out)
        if mask & 1 != 0 { appendField(n.bytes(.appIdentifier), to: &out) }
        if mask & 2 != 0 { appendField(n.bytes(.title), to: &out) }
        if mask & 4 != 0 { appendField(n.bytes(.subtitle), to: &out) }
        if mask & 8 != 0 { appendField(n.bytes(.message), to: &out) }
        if let name { appendField(name, to: &out) }
    }

    static func append(_ e: Entry, to out: inout [UInt8]) {
        let all = fields(of: e)
        var mask: UInt8 = 0
        for (i, f) in all.enumerated() where f != nil { mask |= 1 << UInt8(i) }
        appendHead(e.category, e.flags, e.date, hidden: e.contentHidden, mask: mask, to: &out)
        for f in all { if let f { f.withUnsafeBytes { appendField($0, to: &out) } } }
    }

    static func appendHead(
        _ category: NotificationCategory, _ flags: NotificationFlags, _ date: CivilTime?, hidden: Bool, mask: UInt8,
        to out: inout [UInt8]
    ) {
        out.append(category.rawValue)
        out.append(flags.intersection(keptFlags).rawValue)
        out.append((hidden ? 1 : 0) | (date == nil ? 0 : 2))
        out.append(mask)
        if let d = date {
            let year = UInt16(clamping: max(0, d.year))
            out.append(UInt8(year & 0xFF))
            out.append(UInt8(year >> 8))
            for v in [d.month, d.day, d.hour, d.minute, d.second] { out.append(UInt8(clamping: max(0, v))) }
        }
    }

    /// A field's length and bytes (at most 65535: longer than any store keeps).
    static func appendField(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let n = min(bytes.count, Int(UInt16.max))
        out.append(UInt8(n & 0xFF))
        out.append(UInt8(n >> 8))
        out.append(contentsOf: bytes.prefix(n))
    }

    static func appendUInt32(_ v: UInt32, to out: inout [UInt8]) {
        for shift in [0, 8, 16, 24] as [UInt32] { out.append(UInt8(truncatingIfNeeded: v >> shift)) }
    }

    /// FNV-1a (32 bits): catches a damaged byte; not a defence against a forger
    /// (the state directory's owner and mode rule is).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var h: UInt32 = 0x811C_9DC5
        for b in bytes { h = (h ^ UInt32(b)) &* 0x0100_0193 }
        return h
    }

    // MARK: - reading

    /// The entries of a history file, oldest first. Throws when the bytes
    /// are not a whole, undamaged version-1 file within the limits.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> [Entry] {
        if bytes.count > maximumFileBytes { throw .tooLarge(bytes.count) }
        guard bytes.count >= headerBytes, Array(bytes[0..<4]) == magic else { throw .notAHistoryFile }
        guard bytes[4] == version else { throw .unsupportedVersion(bytes[4]) }
        guard bytes.count >= headerBytes + checksumBytes else { throw .truncated }
        let end = bytes.count - checksumBytes
        var stored: UInt32 = 0
        for i in 0..<4 { stored |= UInt32(bytes[end + i]) << UInt32(8 * i) }
        guard stored == checksum(bytes[..<end]) else { throw .badChecksum }
        let count = Int(bytes[5])
        if count > maximumEntries { throw .tooManyEntries(count) }
        var reader = Reader(bytes: bytes, at: headerBytes, end: end)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(try reader.entry()) }
        guard reader.at == end else { throw .trailingBytes }
        return entries
    }

    struct Reader {
        let bytes: [UInt8]
        var at: Int
        let end: Int

        mutating func byte() throws(DecodeError) -> UInt8 {
            guard at < end else { throw .truncated }
            at += 1
            return bytes[at - 1]
        }

        mutating func field() throws(DecodeError) -> [UInt8] {
            let n = Int(try byte()) | Int(try byte()) << 8
            guard end - at >= n else { throw .truncated }
            at += n
            return Array(bytes[(at - n)..<at])
        }

        mutating func entry() throws(DecodeError) -> Entry {
            let category = NotificationCategory(rawValue: try byte())
            let flags = NotificationFlags(rawValue: try byte()).intersection(keptFlags)
            let marks = try byte()
            let mask = try byte()
            var e = Entry(category: category, flags: flags, contentHidden: marks & 1 != 0)
            if marks & 2 != 0 {
                let year = Int(try byte()) | Int(try byte()) << 8
                let d = CivilTime(
                    year: year, month: Int(try byte()), day: Int(try byte()), hour: Int(try byte()),
                    minute: Int(try byte()), second: Int(try byte()))
                guard (1...12).contains(d.month), (1...31).contains(d.day), d.hour < 24, d.minute < 60, d.second <= 60
                else { throw .badDate }
                e.date = d
            }
            if mask & 1 != 0 { e.appIdentifier = try field() }
            if mask & 2 != 0 { e.title = try field() }
            if mask & 4 != 0 { e.subtitle = try field() }
            if mask & 8 != 0 { e.message = try field() }
            if mask & 16 != 0 { e.appName = try field() }
            return e
        }
    }
}
