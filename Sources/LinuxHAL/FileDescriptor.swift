import CLinux
import HAL

/// An owned, open file descriptor. Not copyable: exactly one owner closes it,
/// once, when it is consumed by `close()` or when the owner goes away.
@frozen public struct FileDescriptor: ~Copyable {
    /// The raw descriptor, for registering with the run loop or passing to the kernel.
    public let rawValue: Int32

    /// Takes ownership of an open descriptor.
    public init(adopting rawValue: Int32) {
        precondition(rawValue >= 0, "FileDescriptor: invalid descriptor \(rawValue)")
        self.rawValue = rawValue
    }

    /// Opens a path (O_CLOEXEC is always added).
    public static func open(_ path: String, flags: Int32) throws(Errno) -> FileDescriptor {
        let fd = try retryingOnInterrupt { wc_open(path, flags | O_CLOEXEC, 0) }
        return FileDescriptor(adopting: fd)
    }

    /// Reads up to `buffer.count` bytes; returns 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { CLinux.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes the bytes; returns how many were written.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { CLinux.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Gives up ownership without closing; the caller now owns the raw value.
    public consuming func release() -> Int32 {
        let fd = rawValue
        discard self
        return fd
    }

    /// Closes now.
    public consuming func close() {
        let fd = rawValue
        discard self
        _ = CLinux.close(fd)
    }

    deinit { _ = CLinux.close(rawValue) }
}
