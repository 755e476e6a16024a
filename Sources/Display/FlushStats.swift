/// What a flush put on the bus.
public struct FlushStats: Sendable, Equatable {
    /// Windows (rectangles of pages x columns) sent.
    public var windows = 0
    /// Pages that carried data.
    public var pages = 0
    /// I2C transactions (each starts with an address byte).
    public var transactions = 0
    /// Bytes after the address byte: control bytes, commands and data.
    public var busBytes = 0
    /// Display-RAM bytes.
    public var dataBytes = 0

    public init() {}

    /// Bit times on the wire: 9 per byte (8 bits and the acknowledge), the
    /// address byte of each transaction included, plus one for its start and
    /// one for its stop condition.
    public var wireBits: Int { 9 * (busBytes + transactions) + 2 * transactions }

    /// `wireBits` at a bus clock of `hertz` (400 kHz: fast mode), in
    /// microseconds; the adapter's own gaps between transactions come on top.
    public func wireMicroseconds(atHertz hertz: Int = 400_000) -> Int {
        (wireBits * 1_000_000 + hertz - 1) / hertz
    }

    static func += (a: inout FlushStats, b: FlushStats) {
        a.windows += b.windows
        a.pages += b.pages
        a.transactions += b.transactions
        a.busBytes += b.busBytes
        a.dataBytes += b.dataBytes
    }
}
