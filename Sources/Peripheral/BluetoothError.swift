import HAL

/// A Bluetooth set-up or runtime failure, with the fix when we know it.
public struct BluetoothError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?
    /// The mgmt status when a management command failed.
    public var status: ManagementStatus?

    public init(_ message: String, hint: String? = nil, status: ManagementStatus? = nil) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    public init(_ error: HALError) {
        self.init(error.operation + ": " + error.reason, hint: error.hint)
    }

    public var description: String { hint.map { "\(message); \($0)" } ?? message }

    static let bluetoothdHint = "bluetoothd is holding the adapter: stop it with 'sudo systemctl disable --now bluetooth.service', or run WristCore from deploy/wristcore.service, whose Conflicts=bluetooth.service stops it"

    /// The error for a management command that failed.
    static func command(_ opcode: ManagementOpcode, hci: UInt16, status: ManagementStatus) -> BluetoothError {
        let hint: String? = switch status {
        case .busy: bluetoothdHint
        case .invalidIndex: "adapter hci\(hci) does not exist: 'ls /sys/class/bluetooth' lists the adapters; set bluetooth.hci in the board file"
        case .rfKilled: "the adapter is blocked by rfkill: 'sudo rfkill unblock bluetooth'"
        case .permissionDenied: "needs CAP_NET_ADMIN: run as root or through deploy/wristcore.service"
        case .notSupported: "the adapter or kernel does not support this"
        default: nil
        }
        return BluetoothError("\(opcode) on hci\(hci) failed: \(status)", hint: hint, status: status)
    }
}
