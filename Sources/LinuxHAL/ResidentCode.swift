import CLinux
import HAL

/// Keeps only the code the daemon runs in memory.
///
/// The kernel maps a file page together with its neighbours (fault-around,
/// 64 KiB) and reads ahead, so a process that runs a little of each of its
/// files ends up with most of its binary and of libc resident although it
/// uses a fraction of them: 1.74 MiB of a 1.8 MB binary, 1.25 MiB of libc.
/// Once start-up is over (the start-up code is not needed again), `trim()`
/// asks the kernel to drop this process's mappings of every read-only file
/// (`MADV_DONTNEED`: the pages stay in the page cache, a page used again
/// faults back in from it, nothing is read from disk) and to map them page
/// by page from now on (`MADV_RANDOM`: no fault-around, no read-ahead). The
/// resident set is then what the running watch really touches.
///
/// Only mappings that hold nothing but file pages are touched: a mapping
/// with private copies (relocated data, written pages: `Anonymous` above 0
/// in /proc/self/smaps) or a writable one would lose its contents. And only
/// mappings the kernel says are resident (`Rss` above 0): qemu-user's
/// emulated smaps reports 0 for both, while it may hold a guest's code in
/// anonymous memory (a 32-bit ARM daemon lost its code that way).
public enum ResidentCode {
    /// What `trim()` did, for the log.
    public struct Report: Equatable, Sendable {
        public var mappings = 0
        public var bytes = 0
    }

    /// /proc/self/smaps is a few tens of KiB; anything larger is not read.
    static let smapsLimit = 1 << 20

    /// Where the trim has been tried on a real kernel: x86_64 and arm64. A
    /// 32-bit ARM daemon under qemu-arm lost code and data with it (qemu-user
    /// holds a 32-bit guest's memory its own way and emulates smaps), and no
    /// armhf board has run it yet, so 32-bit builds keep every page.
    public static var isSupported: Bool {
        #if _pointerBitWidth(_64)
        return true
        #else
        return false
        #endif
    }

    @discardableResult
    public static func trim() -> Report {
        var report = Report()
        guard isSupported else { return report }
        // The project's bounded reader: a regular file, stopped past the limit.
        guard let smaps = try? AtomicFile.read("/proc/self/smaps", limit: smapsLimit) else { return report }
        for mapping in fileMappings(smaps) {
            guard let base = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            _ = madvise(base, length, MADV_RANDOM)
            if madvise(base, length, MADV_DONTNEED) == 0 {
                report.mappings += 1
                report.bytes += length
            }
        }
        return report
    }

    /// A mapping of /proc/self/smaps that may be dropped.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
    }

    /// The read-only, private, file-backed, resident mappings with no private
    /// copies of pages, from the text of /proc/self/smaps. Pure: tested with
    /// sample text.
    static func fileMappings(_ smaps: [UInt8]) -> [Mapping] {
        var result: [Mapping] = []
        var candidate: Mapping?
        var resident = false
        var lineStart = 0
        for i in 0...smaps.count {
            guard i == smaps.count || smaps[i] == UInt8(ascii: "\n") else { continue }
            let line = smaps[lineStart..<i]
            lineStart = i + 1
            if let header = parseHeader(line) {
                candidate = header
                resident = false
            } else if candidate != nil, let rss = field(line, "Rss:") {
                resident = rss > 0
            } else if let c = candidate, let anonymous = field(line, "Anonymous:") {
                // The header's mapping qualifies only when resident, without private copies.
                if anonymous == 0 && resident { result.append(c) }
                candidate = nil
            }
        }
        return result
    }

    /// "start-end perms offset dev inode path": a mapping header whose
    /// permissions are r-xp or r--p and whose path is a file.
    static func parseHeader(_ line: ArraySlice<UInt8>) -> Mapping? {
        let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard fields.count >= 6, let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
            let start = hex(fields[0][fields[0].startIndex..<dash]), let end = hex(fields[0][(dash + 1)...]), end > start
        else { return nil }
        let perms = Array(fields[1])
        guard perms.count == 4, perms[0] == UInt8(ascii: "r"), perms[1] == UInt8(ascii: "-"), perms[3] == UInt8(ascii: "p"),
            fields[5].first == UInt8(ascii: "/")
        else { return nil }
        return Mapping(start: start, end: end)
    }

    /// The kB value of "Name:   123 kB", nil for another line.
    static func field(_ line: ArraySlice<UInt8>, _ name: StaticString) -> Int? {
        let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        guard line.count > key.count, line.prefix(key.count).elementsEqual(key) else { return nil }
        var value = 0
        var digits = 0
        for byte in line.dropFirst(key.count) where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt = 0
        for d in digits {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt(d - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}
