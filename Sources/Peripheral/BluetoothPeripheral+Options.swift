import HAL

extension BluetoothPeripheral {
    /// The peripheral's settings (the board file's `bluetooth` section sets some).
    public struct Options: Sendable {
        /// Advertise from resolvable private addresses (a stored local IRK keeps the watch recognisable).
        public var privacy = true
        /// How long the pairing number waits for a button before it is rejected.
        public var pairingTimeout: Duration = .seconds(30)
        /// How long `start` may take, from the first mgmt command to advertising.
        public var startTimeout: Duration = .seconds(15)
        /// Refuse to start while bluetoothd runs.
        public var refuseWhenBluetoothdRuns = true
        /// How often a bond that could not be saved (full disk) is written again.
        public var bondSaveRetry: Duration = .seconds(60)
        /// How long a lost adapter may stay away before `onFailure`.
        public var adapterLossTimeout: Duration = .seconds(120)
        public init() {}
    }
}
