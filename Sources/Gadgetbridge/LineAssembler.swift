/// Puts the phone's UART writes back together into lines. Gadgetbridge
/// cuts each line into writes of at most the link's MTU; a line ends at
/// `\n`. A line longer than the buffer is dropped whole (up to its `\n`),
/// and counted: the lines around it are unharmed. Storage is allocated once.
public final class LineAssembler {
    /// The longest line kept, in bytes (without its `\n`).
    public let capacity: Int
    /// Lines dropped for being longer than `capacity`.
    public private(set) var overlongLines = 0

    private let buffer: UnsafeMutableRawBufferPointer
    private var count = 0
    /// Inside an overlong line: its bytes are skipped up to the next `\n`.
    private var skipping = false

    public init(capacity: Int = 2048) {
        self.capacity = max(16, capacity)
        buffer = .allocate(byteCount: self.capacity, alignment: 1)
    }

    deinit { buffer.deallocate() }

    /// Bytes of an unfinished line waiting for the rest.
    public var pendingCount: Int { count }

    /// Adds one write; `line` is called for each line it completes, with the
    /// line's bytes (without `\n`, valid during the call). A line dropped for
    /// its length calls `overlong` instead.
    public func append(
        _ bytes: UnsafeRawBufferPointer, line: (UnsafeRawBufferPointer) -> Void, overlong: () -> Void = {}
    ) {
        var k = 0
        while k < bytes.count {
            let b = bytes[k]
            k += 1
            if b == 0x0A {
                if skipping {
                    skipping = false
                    overlongLines += 1
                    overlong()
                } else {
                    let complete = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                    count = 0
                    line(complete)
                }
                continue
            }
            if skipping { continue }
            if count == capacity {
                skipping = true
                count = 0
                continue
            }
            buffer[count] = b
            count += 1
        }
    }

    /// Forgets an unfinished line (the link went away mid-line).
    public func reset() {
        count = 0
        skipping = false
    }
}
