/// A fixed-capacity byte buffer for text the screens compose (times, dates,
/// counts, ages), so that nothing on the render path creates a String.
/// Allocated once; appends past the capacity are dropped.
final class TextScratch {
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit { storage.deallocate() }

    /// The bytes appended since the last `clear()`.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Starts over; returns self so calls chain: `scratch.clear().append(...)`.
    @discardableResult
    func clear() -> TextScratch {
        count = 0
        return self
    }

    @discardableResult
    func append(byte b: UInt8) -> TextScratch {
        if count < capacity {
            storage.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
            count += 1
        }
        return self
    }

    @discardableResult
    func append(_ text: UnsafeRawBufferPointer) -> TextScratch {
        for b in text { append(byte: b) }
        return self
    }

    @discardableResult
    func append(_ text: StaticString) -> TextScratch {
        append(text.rawBytes)
    }

    /// A non-negative decimal number, zero-padded to `width` digits
    /// (negative numbers are printed as 0).
    @discardableResult
    func append(decimal value: Int, width: Int = 1) -> TextScratch {
        // Digits go in backwards, then the run is reversed in place.
        let start = count
        var v = max(0, value)
        repeat {
            append(byte: UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        while count - start < width && count < capacity { append(byte: UInt8(ascii: "0")) }
        var i = start, j = count - 1
        while i < j {
            let a = storage.load(fromByteOffset: i, as: UInt8.self)
            storage.storeBytes(of: storage.load(fromByteOffset: j, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            storage.storeBytes(of: a, toByteOffset: j, as: UInt8.self)
            i += 1
            j -= 1
        }
        return self
    }
}

extension StaticString {
    /// The literal's UTF-8 bytes, in place (no copy, no allocation).
    var rawBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
    }
}
