extension Logger {
    // The process-wide defaults `Logger(label:)` uses. Globals without a lock:
    // the daemon is single-threaded and sets them once, at start, before any
    // logger is made. Until then lines are dropped: this module cannot write
    // anywhere by itself (the standard-error writer lives in LinuxHAL).
    nonisolated(unsafe) static var defaultSink = LogSink.discarding
    nonisolated(unsafe) static var defaultLevel = Level.info

    /// Sets where `Logger(label:)` writes, and from which level. Call once, at
    /// start: loggers already made keep the sink and level they were made with.
    public static func bootstrap(sink: LogSink, level: Level) {
        defaultSink = sink
        defaultLevel = level
    }
}
