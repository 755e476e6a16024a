/// Where a logger's lines go: a closure taking the level, the label and the
/// message.
///
/// A class holding a closure rather than a protocol, because Embedded Swift
/// cannot store `any LogHandler` of a non-class protocol; a class is one
/// reference, so copying a `Logger` stays cheap.
public final class LogSink: Sendable {
    public typealias Write = @Sendable (Logger.Level, _ label: String, _ message: String) -> Void

    /// Called for every line at or above the logger's level.
    public let write: Write

    public init(_ write: @escaping Write) {
        self.write = write
    }

    /// Drops every line: for tests that want silence.
    public static let discarding = LogSink { _, _, _ in }
}
