/// Little-endian reader over the received bytes of one PDU. Never copies.
public struct ATTReader {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var offset: Int
    /// The opcode reported in errors.
    let opcode: UInt8
    /// Total length of the PDU including the opcode, for error reporting.
    let pduLength: Int

    init(_ bytes: UnsafeRawBufferPointer, opcode: UInt8) {
        self.bytes = bytes
        self.offset = 0
        self.opcode = opcode
        self.pduLength = bytes.count + 1
    }

    public var remaining: Int { bytes.count - offset }

    @inline(__always)
    mutating func require(_ n: Int, minimum: Int) throws(ATTPDUError) {
        if remaining < n {
            throw .truncated(opcode: opcode, minimumLength: minimum, actualLength: pduLength)
        }
    }

    @inline(__always)
    mutating func u8() -> UInt8 {
        let v = bytes[offset]
        offset += 1
        return v
    }

    @inline(__always)
    mutating func u16() -> UInt16 {
        let v = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        offset += 2
        return v
    }

    @inline(__always)
    mutating func take(_ n: Int) -> UnsafeRawBufferPointer {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)])
        offset += n
        return slice
    }

    @inline(__always)
    mutating func rest() -> UnsafeRawBufferPointer { take(remaining) }

    /// Fails unless exactly `n` bytes of parameters are left.
    @inline(__always)
    func requireExactly(_ n: Int) throws(ATTPDUError) {
        if remaining != n {
            throw .wrongLength(opcode: opcode, expectedLength: pduLength - remaining + n, actualLength: pduLength)
        }
    }
}

/// Little-endian writer into a caller-provided buffer (the bearer's send
/// buffer, sized to the maximum MTU). Callers check the total length first;
/// writing past the end is a programming error.
public struct ATTWriter {
    public let buffer: UnsafeMutableRawBufferPointer
    public private(set) var count: Int = 0

    public init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    public var capacity: Int { buffer.count }
    public var remaining: Int { buffer.count - count }

    @inline(__always)
    public mutating func u8(_ v: UInt8) {
        precondition(count < buffer.count, "ATTWriter overflow")
        buffer[count] = v
        count += 1
    }

    @inline(__always)
    public mutating func u16(_ v: UInt16) {
        precondition(count + 2 <= buffer.count, "ATTWriter overflow")
        buffer[count] = UInt8(truncatingIfNeeded: v)
        buffer[count + 1] = UInt8(truncatingIfNeeded: v >> 8)
        count += 2
    }

    @inline(__always)
    public mutating func bytes(_ b: UnsafeRawBufferPointer) {
        precondition(count + b.count <= buffer.count, "ATTWriter overflow")
        if let base = b.baseAddress, b.count > 0 {
            (buffer.baseAddress! + count).copyMemory(from: base, byteCount: b.count)
        }
        count += b.count
    }

    @inline(__always)
    public mutating func uuid(_ u: BluetoothUUID) {
        precondition(count + u.encodedLength <= buffer.count, "ATTWriter overflow")
        u.write(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
        count += u.encodedLength
    }

    /// Overwrites one byte already written (for length prefixes).
    public mutating func patch(_ offset: Int, _ v: UInt8) {
        precondition(offset < count)
        buffer[offset] = v
    }

    public var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[..<count]) }
}
