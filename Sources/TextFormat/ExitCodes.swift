/// The process exit codes every `wristcore` subcommand uses.
public enum WristCoreExit {
    public static let ok: Int32 = 0
    /// Something failed at run time (a device error, a lost link that could not recover...).
    public static let runtimeFailure: Int32 = 1
    /// The command line or a configuration (board) file is wrong.
    public static let usageOrConfiguration: Int32 = 2
}

/// A failure the user can act on, with the exit code it maps to.
public struct WristCoreFailure: Error, CustomStringConvertible {
    public var message: String
    public var exitCode: Int32
    public init(_ message: String, exitCode: Int32 = WristCoreExit.runtimeFailure) {
        self.message = message
        self.exitCode = exitCode
    }
    public var description: String { message }
}
