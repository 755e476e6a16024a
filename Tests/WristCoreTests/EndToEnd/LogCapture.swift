import Log

/// Collects what a `Logger` logs, for tests that check a message and its level.
final class LogCapture: @unchecked Sendable {
    struct Entry: Equatable {
        var level: Logger.Level
        var message: String
    }

    private(set) var entries: [Entry] = []

    /// A logger at `level` whose messages land in `entries`.
    func logger(level: Logger.Level = .debug) -> Logger {
        Logger(label: "capture", sink: LogSink { level, _, message in self.entries.append(Entry(level: level, message: message)) }, level: level)
    }

    func messages(at level: Logger.Level) -> [String] { entries.filter { $0.level == level }.map(\.message) }
}
