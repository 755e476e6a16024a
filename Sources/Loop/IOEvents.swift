/// Readiness of a file descriptor source.
public struct IOEvents: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let readable = IOEvents(rawValue: 1 << 0)
    public static let writable = IOEvents(rawValue: 1 << 1)
    /// The peer hung up (reported whether or not it was asked for).
    public static let hangUp = IOEvents(rawValue: 1 << 2)
    /// An error condition on the descriptor (reported whether or not it was asked for).
    public static let error = IOEvents(rawValue: 1 << 3)

    public var description: String {
        var parts: [String] = []
        if contains(.readable) { parts.append("readable") }
        if contains(.writable) { parts.append("writable") }
        if contains(.hangUp) { parts.append("hangUp") }
        if contains(.error) { parts.append("error") }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}

/// Names a registered descriptor source. Stale IDs (of removed sources) are ignored.
public struct SourceID: Hashable, Sendable {
    package let index: UInt32
    package let generation: UInt32
    package init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
}

/// Names a timer. Stale IDs (of destroyed timers) are ignored.
public struct TimerID: Hashable, Sendable {
    package let index: UInt32
    package let generation: UInt32
    package init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
}
