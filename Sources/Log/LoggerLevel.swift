extension Logger {
    /// How important a line is, least first. The raw values are the names
    /// `--log-level` takes and the lines print, as with swift-log.
    public enum Level: String, CaseIterable, Comparable, Sendable, CustomStringConvertible {
        case trace, debug, info, notice, warning, error, critical

        /// Its place in the order. A switch rather than an `Int` raw value,
        /// because the raw value is the name.
        @inlinable
        var severity: Int {
            switch self {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .notice: 3
            case .warning: 4
            case .error: 5
            case .critical: 6
            }
        }

        @inlinable
        public static func < (a: Level, b: Level) -> Bool { a.severity < b.severity }

        /// The name: Embedded Swift has no reflection to print a case by itself.
        public var description: String { rawValue }
    }
}
