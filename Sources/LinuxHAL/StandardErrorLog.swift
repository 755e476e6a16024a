import CLinux
import Log

/// The daemon's log lines on standard error, in swift-log's stream format
/// (`2026-11-26T00:12:34+0000 info wristcore : message`), or, when systemd
/// connected standard error to the journal, with the sd-daemon priority
/// prefix and no timestamp. Here because LinuxHAL is the only module that
/// writes to a descriptor; the text itself is `LogLine`'s.
public enum StandardErrorLog {
    /// A sink writing each line with one write(2), so lines from the daemon
    /// and its children are never interleaved mid-line.
    public static func sink() -> LogSink {
        // systemd sets JOURNAL_STREAM when standard error is the journal.
        let journal = CurrentProcess.environment("JOURNAL_STREAM") != nil
        return LogSink { level, label, message in
            var line = journal
                ? LogLine.journal(level: level, label: label, message: message)
                : LogLine.text(timestamp: timestamp(), level: level, label: label, message: message)
            line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
    }

    /// Local time with its numeric offset, as StreamLogHandler printed it.
    static func timestamp() -> String {
        var now = time(nil), parts = tm(), text = [CChar](repeating: 0, count: 32)
        let n = localtime_r(&now, &parts) == nil ? 0 : strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: text[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
