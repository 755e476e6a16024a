import Logging

/// Collects what a `Logger` logs, for tests that check a message and its level.
final class LogCapture: @unchecked Sendable {
    struct Entry: Equatable {
        var level: Logger.Level
        var message: String
    }

    private(set) var entries: [Entry] = []

    /// A logger at `level` whose messages land in `entries`.
    func logger(level: Logger.Level = .debug) -> Logger {
        var l = Logger(label: "capture") { _ in Handler(capture: self) }
        l.logLevel = level
        return l
    }

    func messages(at level: Logger.Level) -> [String] { entries.filter { $0.level == level }.map(\.message) }

    fileprivate func append(_ e: Entry) { entries.append(e) }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            capture.append(Entry(level: level, message: message.description))
        }
    }
}
