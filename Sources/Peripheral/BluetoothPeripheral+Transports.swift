import HAL

extension BluetoothPeripheral {
    /// The two kernel endpoints; tests pass socket-pair fakes. The
    /// composition root makes the real ones (the mgmt control socket and an
    /// L2CAP LE listener on the ATT channel).
    public struct Transports {
        public var management: any PacketChannel
        /// Made once the controller is powered (its address is known then).
        public var makeListener: (_ controllerAddress: BluetoothAddress) throws(HALError) -> any BluetoothLinkListener
        public init(
            management: any PacketChannel,
            makeListener: @escaping (_ controllerAddress: BluetoothAddress) throws(HALError) -> any BluetoothLinkListener
        ) {
            self.management = management
            self.makeListener = makeListener
        }
    }
}
