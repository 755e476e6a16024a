/// A failed operating-system call, named by what was being done, with errno.
///
/// Upper layers see this instead of raw errno values; LinuxHAL and the
/// simulator both produce it. `hint` carries the "how to fix it" sentence a
/// user needs (for example how to enable I2C when /dev/i2c-1 is missing).
public struct HALError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being attempted, e.g. "open /dev/i2c-1".
    public var operation: String
    /// The errno value (0 when the failure did not come from a system call).
    public var errno: Int32
    /// A human explanation of the errno, e.g. "No such file or directory".
    public var reason: String
    /// How to fix it, when we know.
    public var hint: String?

    public init(operation: String, errno: Int32, reason: String, hint: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.reason = reason
        self.hint = hint
    }

    public var description: String {
        var s = operation + ": " + reason
        if let hint { s += "; " + hint }
        return s
    }
}
