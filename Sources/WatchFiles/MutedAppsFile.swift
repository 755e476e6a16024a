import HAL
import LinuxHAL
import Log
import Notifications
import TextFormat

/// The apps muted from the wrist (`AppMutes`), kept in the state directory
/// as `muted-apps` so a restart keeps them: one line per mute,
/// `always ID NAME` or `until SECONDS ID NAME` (SECONDS since 1970 on the
/// wall clock; ID the AppIdentifier, without spaces; NAME the rest of the
/// line). A `StateFile` (read once, at most `maxFileBytes`; replaced whole,
/// 0600) when the wearer mutes or undoes one. A line that cannot be read is
/// skipped and logged; a mute already over is dropped.
public struct MutedAppsFile {
    public static let fileName = "muted-apps"
    public static let maxFileBytes = 8 * 1024
    let file: StateFile
    public var path: String { file.path }

    public init(stateDirectory: String) { file = StateFile(stateDirectory: stateDirectory, name: Self.fileName) }

    public typealias Kept = (identifier: [UInt8], name: [UInt8], remaining: Duration?)

    /// The mutes kept, each with what is left of it at `wallNow` (nil: always).
    public func load(wallNow: WallClockInstant, logger: Logger) -> [Kept] {
        guard let bytes = file.read(limit: Self.maxFileBytes, logger: logger, otherwise: "no app stays muted from before the restart") else { return [] }
        let (kept, skipped) = Self.decode(bytes, wallNow: wallNow)
        if skipped > 0 { logger.warning("\(path): \(skipped) line(s) that are not a mute skipped") }
        return kept
    }

    /// Replaces the file with `mutes` as they stand at `now` (removes it when none is left).
    public func save(_ mutes: AppMutes, now: MonotonicInstant, wallNow: WallClockInstant) throws(HALError) {
        try file.replace(with: Self.encode(mutes, now: now, wallNow: wallNow))
    }

    /// Deletes the file (missing is fine): `wristcore forget`.
    public func remove() throws(HALError) { try file.remove() }

    static func encode(_ mutes: AppMutes, now: MonotonicInstant, wallNow: WallClockInstant) -> [UInt8] {
        var out: [UInt8] = []
        mutes.forEach(now: now) { id, name, until in
            guard !id.contains(0x20) && !id.contains(0x0A) else { return }
            if let until {
                out += Array("until \(wallNow.advanced(by: until.duration(since: now)).nanosecondsSinceEpoch / 1_000_000_000) ".utf8)
            } else {
                out += Array("always ".utf8)
            }
            out += id
            out.append(0x20)
            out += name.filter { $0 != 0x0A }
            out.append(0x0A)
        }
        return out
    }

    static func decode(_ bytes: [UInt8], wallNow: WallClockInstant) -> (kept: [Kept], skipped: Int) {
        var kept: [Kept] = []
        var skipped = 0
        for line in bytes.split(separator: 0x0A) {
            let words = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            var remaining: Duration?
            var rest = words.dropFirst()
            if words.first.map({ Array($0) }) == Array("always".utf8) {
                remaining = nil
            } else if words.first.map({ Array($0) }) == Array("until".utf8), words.count == 3,
                      words[1].first != 0x2B, let seconds = IntegerText.integer(String(decoding: words[1], as: UTF8.self), in: 0...(1 << 40))
            {
                remaining = WallClockInstant(secondsSinceEpoch: seconds).duration(since: wallNow)
                let parts = words[2].split(separator: 0x20, maxSplits: 1, omittingEmptySubsequences: false)
                rest = parts[...]
            } else {
                skipped += 1
                continue
            }
            guard kept.count < AppMutes.capacity, let id = rest.first, !id.isEmpty, id.count <= AppMutes.identifierCapacity else {
                skipped += 1
                continue
            }
            if let r = remaining, r <= .zero { continue }
            let name = rest.count > 1 ? Array(rest[rest.startIndex + 1].prefix(AppMutes.nameCapacity)) : Array(id.prefix(AppMutes.nameCapacity))
            kept.append((Array(id), name, remaining))
        }
        return (kept, skipped)
    }
}
