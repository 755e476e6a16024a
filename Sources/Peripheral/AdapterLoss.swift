/// Why the watch's Bluetooth adapter went away while it ran.
public enum AdapterLoss: Equatable, Sendable, CustomStringConvertible {
    /// mgmt Index Removed: the dongle was unplugged, its driver unloaded, or
    /// the kernel dropped the controller after an error.
    case removed
    /// mgmt New Settings without Powered that the watch did not ask for:
    /// another program (btmgmt, bluetoothd, rfkill) switched it off.
    case poweredOff

    public var description: String {
        switch self {
        case .removed: "removed"
        case .poweredOff: "powered off by another program"
        }
    }

    /// What to check when it does not come back.
    var hint: String {
        switch self {
        case .removed: "check the adapter's USB connection and 'dmesg' for Bluetooth errors; systemd restarts the watch (Restart=on-failure)"
        case .poweredOff: "another program switched the adapter off: is bluetoothd running ('systemctl status bluetooth'), or was it rfkill ('rfkill list')?"
        }
    }
}
