/// The text of one line on standard error, without the I/O, so tests can
/// check it (LinuxHAL's `StandardErrorLog` supplies the timestamp and writes).
public enum LogLine {
    /// swift-log's `StreamLogHandler` format, which users and log-reading
    /// scripts already know: `2026-11-26T00:12:34+0000 info wristcore : message`.
    public static func text(timestamp: String, level: Logger.Level, label: String, message: String) -> String {
        "\(timestamp) \(level.rawValue) \(label) : \(message)\n"
    }

    /// For standard error connected to the journal (`JOURNAL_STREAM` set):
    /// the sd-daemon priority prefix, which journald turns into the entry's
    /// priority, and no timestamp (journald stamps each line itself).
    public static func journal(level: Logger.Level, label: String, message: String) -> String {
        "<\(priority(level))>\(level.rawValue) \(label) : \(message)\n"
    }

    /// The syslog priority of a level (sd-daemon(3)): there is no trace in
    /// syslog, so trace and debug are both 7.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
