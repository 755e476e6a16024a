/// What the watch has put on the display's I2C bus: bytes after the address
/// byte (control bytes, commands, display data) and transactions, since the
/// watch started and in the last flush. Wire time at 400 kHz is about
/// 9 bit times per byte plus 11 per transaction (address byte, start, stop).
public struct DisplayBusCounters: Sendable, Equatable {
    public var bytes: Int
    public var transactions: Int
    public var lastFlushBytes: Int
    public var lastFlushTransactions: Int

    public init(bytes: Int, transactions: Int, lastFlushBytes: Int, lastFlushTransactions: Int) {
        self.bytes = bytes
        self.transactions = transactions
        self.lastFlushBytes = lastFlushBytes
        self.lastFlushTransactions = lastFlushTransactions
    }
}
