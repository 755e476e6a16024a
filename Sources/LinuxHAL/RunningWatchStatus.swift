import CLinux
import HAL
import TextFormat

/// What a running watch says of itself, for `wristcore doctor`: the file
/// `status` in the service's runtime directory (`/run/wristcore`,
/// systemd's `RuntimeDirectory=`), replaced atomically whenever systemd's
/// STATUS= line or the Status screen's causes change. `/run` is emptied at
/// boot and systemd removes the directory when the service stops, so a
/// file there belongs to a watch that runs (doctor checks its pid too).
///
/// Its lines, each at most one: `pid N`, `status TEXT` (the STATUS= line),
/// then one `cause NAME WORDS` per cause (`StatusReport.Cause`: its name
/// and its words). Mode 0644: no secrets, and any user's `doctor` reads it.
public enum RunningWatchStatus {
    public static let fileName = "status"
    /// Where the package's unit keeps it (`RuntimeDirectory=wristcore`).
    public static let defaultDirectory = "/run/wristcore"
    /// The most the file may hold; doctor refuses a larger one.
    public static let maxBytes = 4096
    /// The most causes it lists (there are eight kinds).
    public static let maxCauses = 16

    /// `$RUNTIME_DIRECTORY/status`; nil when systemd did not start the daemon.
    public static var runtimePath: String? {
        CurrentProcess.environment("RUNTIME_DIRECTORY")?.split(separator: ":").first.map { String($0) + "/" + fileName }
    }

    /// What the file says, parsed.
    public struct Report: Equatable, Sendable {
        public var pid: Int32
        public var status: String
        public var causes: [Cause]

        public struct Cause: Equatable, Sendable {
            public var name: String
            public var words: String
            public init(name: String, words: String) {
                self.name = name
                self.words = words
            }
        }

        public init(pid: Int32, status: String, causes: [Cause]) {
            self.pid = pid
            self.status = status
            self.causes = causes
        }

        /// The file's bytes; lines are cut at their line breaks (none may
        /// hold one) and the whole at `maxBytes`.
        public var bytes: [UInt8] {
            var text = "pid \(pid)\nstatus \(Self.oneLine(status))\n"
            for cause in causes.prefix(RunningWatchStatus.maxCauses) {
                text += "cause \(Self.oneLine(cause.name)) \(Self.oneLine(cause.words))\n"
            }
            return Array(text.utf8.prefix(RunningWatchStatus.maxBytes))
        }

        static func oneLine(_ s: String) -> Substring { s.prefix { $0 != "\n" && $0 != "\r" } }

        /// Parses the file's bytes; nil when they are not what `bytes` writes.
        public init?(parsing bytes: [UInt8]) {
            guard bytes.count <= RunningWatchStatus.maxBytes else { return nil }
            var pid: Int32?
            var status: String?
            var causes: [Cause] = []
            for line in bytes.split(separator: 0x0A) {
                guard let space = line.firstIndex(of: 0x20) else { return nil }
                let key = String(decoding: line[line.startIndex..<space], as: UTF8.self)
                let value = line[(space + 1)...]
                switch key {
                case "pid":
                    guard pid == nil, value.first != 0x2B,
                          let n = IntegerText.integer(String(decoding: value, as: UTF8.self), in: 1...999_999_999) else { return nil }
                    pid = Int32(n)
                case "status":
                    guard status == nil else { return nil }
                    status = String(decoding: value, as: UTF8.self)
                case "cause":
                    guard causes.count < RunningWatchStatus.maxCauses, let nameEnd = value.firstIndex(of: 0x20) else { return nil }
                    causes.append(Cause(
                        name: String(decoding: value[value.startIndex..<nameEnd], as: UTF8.self),
                        words: String(decoding: value[(nameEnd + 1)...], as: UTF8.self)))
                default:
                    return nil
                }
            }
            guard let pid, let status else { return nil }
            self.init(pid: pid, status: status, causes: causes)
        }

    }

    /// Replaces the file at `path` (atomically, mode 0644, owned by the
    /// runtime directory's owner).
    public static func write(_ report: Report, to path: String) throws(HALError) {
        try AtomicFile.write(path, report.bytes, mode: 0o644)
    }

    /// The file at `path`, read once (a regular file, at most `maxBytes`):
    /// nil when there is none; an error when it is unreadable or not what
    /// a watch writes.
    public static func read(at path: String) throws(HALError) -> Report? {
        guard let bytes = try FileBytes.readIfPresent(path, limit: maxBytes) else { return nil }
        guard let report = Report(parsing: bytes) else {
            throw HALError(operation: "read \(path)", errno: EINVAL, reason: "not a watch's status file (pid, status, cause lines)")
        }
        return report
    }

    /// This process's id.
    public static var currentPID: Int32 { getpid() }

    /// Whether process `pid` runs (kill(pid, 0): EPERM means it does, under another user).
    public static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || Errno.current == Errno(EPERM)
    }
}
