import CLinux
import HAL

/// errno as a typed value, with the system's message (strerror).
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno right now.
    public static var current: Errno { Errno(wc_errno()) }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noEntry = Errno(ENOENT)
    public static let permissionDenied = Errno(EACCES)
    public static let busy = Errno(EBUSY)
    public static let noDevice = Errno(ENXIO)
    public static let remoteIO = Errno(EREMOTEIO)

    public var description: String { String(cString: strerror(rawValue)) }

    /// A HALError for this errno, naming the operation.
    public func halError(_ operation: String, hint: String? = nil) -> HALError {
        HALError(operation: operation, errno: rawValue, reason: description, hint: hint)
    }
}

/// Retries a system call while it fails with EINTR; returns its result or throws errno.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        let e = Errno.current
        if e != .interrupted { throw e }
    }
}
