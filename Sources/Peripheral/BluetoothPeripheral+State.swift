import HAL

extension BluetoothPeripheral {
    /// Where the peripheral is, as `state` and `onStateChange` report it.
    public enum State: Equatable, Sendable, CustomStringConvertible {
        case stopped
        case advertising
        case connected(BluetoothAddress)
        /// The link is encrypted (after pairing or with a stored key).
        case encrypted(BluetoothAddress, LinkSecurityLevel)
        /// The adapter went away: no link, no advertising, waiting for it to return.
        case adapterLost(AdapterLoss)
        case failed(String)

        public var description: String {
            switch self {
            case .stopped: "stopped"
            case .advertising: "advertising"
            case .connected(let a): "connected to \(a)"
            case .encrypted(let a, let l): "connected to \(a), \(l)"
            case .adapterLost(let loss): "adapter \(loss)"
            case .failed(let why): "failed: \(why)"
            }
        }
    }
}
