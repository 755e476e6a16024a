/// A font file's bytes and the object that keeps them valid: a read-only
/// mapping of the file (the daemon: only the glyph pages drawn become
/// resident) or a private copy (bytes from an array). `BitmapFont` reads its
/// tables and bitmaps from `bytes` in place and keeps `owner` alive.
public struct FontBytes: @unchecked Sendable {
    // The bytes are never written; the owner is immutable (a mapping or a copy).
    public let bytes: UnsafeRawBufferPointer
    public let owner: AnyObject

    /// Bytes kept valid by `owner` for as long as it lives.
    public init(bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        self.bytes = bytes
        self.owner = owner
    }

    /// A private, 16-byte aligned copy of `source`.
    public init(copying source: UnsafeRawBufferPointer) {
        let copy = Copy(source)
        self.init(bytes: UnsafeRawBufferPointer(start: copy.base, count: source.count), owner: copy)
    }

    /// A private copy of an array's bytes.
    public init(copying source: [UInt8]) {
        self = source.withUnsafeBytes { FontBytes(copying: $0) }
    }

    /// Heap memory freed with its last reference.
    private final class Copy {
        let base: UnsafeMutableRawPointer

        init(_ source: UnsafeRawBufferPointer) {
            base = .allocate(byteCount: max(1, source.count), alignment: 16)
            if let from = source.baseAddress { base.copyMemory(from: from, byteCount: source.count) }
        }

        deinit { base.deallocate() }
    }
}
