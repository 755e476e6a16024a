import HAL
import TextFormat
/// Why input could not be decoded, with where: the byte offset inside the
/// decoded bytes, or the record and file offset inside a capture.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the problem is, as the message's prefix says it.
    public enum Location: Equatable, Sendable {
        /// Offset in the bytes given (hex input, or one fragment's concatenation).
        case byte(Int)
        /// A capture file: `record` is 1-based, `fileOffset` where it starts
        /// (or the header's field); `format` names the file kind ("btsnoop").
        case capture(format: String, record: Int?, fileOffset: Int)
    }

    public var location: Location
    public var message: String

    public init(_ location: Location, _ message: String) {
        self.location = location
        self.message = message
    }

    public static func at(_ offset: Int, _ message: String) -> DecodeError { DecodeError(.byte(offset), message) }

    public var description: String {
        switch location {
        case .byte(let o): NumberText.format("byte %d: ", Int64(o)) + message
        case .capture(let format, let record?, let o): format + NumberText.format(" record %d at file offset %d: ", Int64(record), Int64(o)) + message
        case .capture(_, nil, let o): NumberText.format("capture file offset %d: ", Int64(o)) + message
        }
    }

    /// What the CLI throws: exit code 2 (bad input).
    public var failure: WristCoreFailure {
        WristCoreFailure(description, exitCode: WristCoreExit.usageOrConfiguration)
    }
}
