import HAL

/// A bond the kernel handed over (after pairing) could not be written to the
/// bond store: the link works until the watch restarts, then the phone
/// cannot reconnect and must pair again. `BluetoothPeripheral` logs
/// `logMessage` as an error, reports it through `onBondSaveFailed` (for a
/// notice on the watch's screen), and retries the write every
/// `Options.bondSaveRetry` until it succeeds.
public struct BondSaveFailure: Equatable, Sendable, CustomStringConvertible {
    /// The phone whose key was not saved.
    public var address: BluetoothAddress
    /// What failed (e.g. "write /var/lib/wristcore/bonds.tmp: No space left on device").
    public var error: HALError
    /// The state directory.
    public var directory: String

    public init(address: BluetoothAddress, error: HALError, directory: String) {
        self.address = address
        self.error = error
        self.directory = directory
    }

    /// The full or over-quota filesystem.
    public var isOutOfSpace: Bool { error.isOutOfSpace }

    /// A short reason: "disk full", "read-only disk", "no permission", or the system's message.
    public var shortReason: String {
        if isOutOfSpace { return "disk full" }
        switch error.errno {
        case HALError.FileErrno.readOnlyFileSystem: return "read-only disk"
        case HALError.FileErrno.permissionDenied, HALError.FileErrno.notPermitted: return "no permission"
        default: return error.reason
        }
    }

    /// For the watch's screen (a notice): "Bond not saved: disk full. Free space or pair again after a restart".
    public var notice: String {
        "Bond not saved: \(shortReason). \(isOutOfSpace ? "Free space" : "Fix it") or pair again after a restart"
    }

    /// The log line: what failed, what it means, and how to fix it.
    public var logMessage: String {
        "bond could not be saved: the key of \(address) was not written (\(error.operation): \(error.reason)). "
            + "The phone stays connected, but if the watch restarts before the key is saved the phone will need to pair again "
            + "(on the iPhone: Settings > Bluetooth, forget the watch, then connect). Fix: "
            + BondStore.fixHint(for: error, directory: directory)
            + ". The watch retries saving it on its own."
    }

    public var description: String { "bond could not be saved: \(shortReason) (\(error))" }
}
