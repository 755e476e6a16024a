import ATTCodec

/// The server's queue of prepared writes (long writes): Prepare Write
/// Requests append parts, Execute Write applies them all or none.
///
/// Bounded: at most `maximumParts` parts and `maximumBytes` bytes in all;
/// past that a Prepare Write is answered "Prepare Queue Full" (0x09).
struct PrepareWriteQueue {
    struct Part {
        var handle: UInt16
        var offset: UInt16
        var value: [UInt8]
    }

    struct Failure: Error {
        var handle: UInt16
        var code: ATTErrorCode
    }

    static let maximumParts = 64
    static let maximumBytes = 2 * ATT.maximumAttributeValueLength

    private(set) var parts: [Part] = []
    private var bytes = 0

    /// Queues one part; false when the queue is full.
    mutating func append(handle: UInt16, offset: UInt16, value: UnsafeRawBufferPointer) -> Bool {
        guard parts.count < Self.maximumParts, bytes + value.count <= Self.maximumBytes else { return false }
        parts.append(Part(handle: handle, offset: offset, value: Array(value)))
        bytes += value.count
        return true
    }

    /// Empties the queue, returning what it held.
    mutating func take() -> [Part] {
        defer {
            parts.removeAll()
            bytes = 0
        }
        return parts
    }

    /// Joins the parts of each handle into one value, in the order the handles
    /// were first prepared. Each part must start where the previous one of
    /// its handle ended (the way a client writes a long value from offset 0);
    /// a gap or an overlap is "Invalid Offset", a value over 512 bytes
    /// "Invalid Attribute Value Length".
    static func assemble(_ parts: [Part]) -> Result<[(handle: UInt16, value: [UInt8])], Failure> {
        var writes: [(handle: UInt16, value: [UInt8])] = []
        for part in parts {
            if let k = writes.firstIndex(where: { $0.handle == part.handle }) {
                guard Int(part.offset) == writes[k].value.count else {
                    return .failure(Failure(handle: part.handle, code: .invalidOffset))
                }
                writes[k].value += part.value
            } else {
                guard part.offset == 0 else { return .failure(Failure(handle: part.handle, code: .invalidOffset)) }
                writes.append((part.handle, part.value))
            }
            if writes.last(where: { $0.handle == part.handle })!.value.count > ATT.maximumAttributeValueLength {
                return .failure(Failure(handle: part.handle, code: .invalidAttributeValueLength))
            }
        }
        return .success(writes)
    }
}
