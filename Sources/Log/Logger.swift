/// What the daemon's modules log through: a label, a level, and the sink the
/// lines go to.
///
/// Our own instead of swift-log's because the shipped daemon is built with
/// Embedded Swift, which has no existentials of non-class protocols (swift-log
/// keeps `any LogHandler`), no Foundation and no Glibc overlay.
///
/// The message is an autoclosure and every method is inlinable, so a line
/// below `logLevel` costs one comparison at the call site: the message is not
/// built and nothing is allocated (the hot path runs with debug off).
public struct Logger: Sendable {
    /// Who is logging, printed on every line (e.g. "wristcore").
    public let label: String
    /// Lines below this level are dropped before their message is built.
    public var logLevel: Level
    /// Where the lines that pass go.
    public let sink: LogSink

    /// A logger writing to the process's default sink at its default level
    /// (both set by `Logger.bootstrap`).
    public init(label: String) {
        self.init(label: label, sink: Logger.defaultSink, level: Logger.defaultLevel)
    }

    /// A logger writing to `sink`: for tests and captures.
    public init(label: String, sink: LogSink, level: Level = .trace) {
        self.label = label
        self.sink = sink
        self.logLevel = level
    }

    /// Logs `message` at `level` when `level` is at or above `logLevel`.
    @inlinable
    public func log(level: Level, _ message: @autoclosure () -> String) {
        // The only place the message is evaluated.
        if level >= logLevel { sink.write(level, label, message()) }
    }

    // One method per level, as swift-log had, so call sites stay the same.
    @inlinable public func trace(_ message: @autoclosure () -> String) { log(level: .trace, message()) }
    @inlinable public func debug(_ message: @autoclosure () -> String) { log(level: .debug, message()) }
    @inlinable public func info(_ message: @autoclosure () -> String) { log(level: .info, message()) }
    @inlinable public func notice(_ message: @autoclosure () -> String) { log(level: .notice, message()) }
    @inlinable public func warning(_ message: @autoclosure () -> String) { log(level: .warning, message()) }
    @inlinable public func error(_ message: @autoclosure () -> String) { log(level: .error, message()) }
    @inlinable public func critical(_ message: @autoclosure () -> String) { log(level: .critical, message()) }
}
