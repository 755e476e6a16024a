/// Where a PDU sits in a capture: the record that completed it and its time.
public struct CapturePosition: Equatable, Sendable {
    /// 1-based record number in the capture file.
    public var packet: Int
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var timeMicroseconds: Int64

    public init(packet: Int, timeMicroseconds: Int64) {
        self.packet = packet
        self.timeMicroseconds = timeMicroseconds
    }
}
