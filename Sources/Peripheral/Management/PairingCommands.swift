import HAL
/// User Confirmation Reply (0x001C) / Negative Reply (0x001D): the answer to
/// a User Confirmation Request (numeric comparison), by peer address and type.
public struct UserConfirmationReply: ManagementCommand, Equatable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var accept: Bool
    public init(address: BluetoothAddress, addressType: BluetoothAddressType, accept: Bool) {
        self.address = address
        self.addressType = addressType
        self.accept = accept
    }
    public var opcode: ManagementOpcode { accept ? .userConfirmationReply : .userConfirmationNegativeReply }
    public func encodeParameters() -> [UInt8] { address.wireBytes + [addressType.rawValue] }
}

/// Unpair Device (0x001B): forgets the keys of a peer; `disconnect` also drops its link.
public struct UnpairDevice: ManagementCommand, Equatable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var disconnect: Bool
    public init(address: BluetoothAddress, addressType: BluetoothAddressType, disconnect: Bool = true) {
        self.address = address
        self.addressType = addressType
        self.disconnect = disconnect
    }
    public var opcode: ManagementOpcode { .unpairDevice }
    public func encodeParameters() -> [UInt8] { address.wireBytes + [addressType.rawValue, disconnect ? 1 : 0] }
}

/// Disconnect (0x0014): drops the link to a peer.
public struct DisconnectDevice: ManagementCommand, Equatable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public init(address: BluetoothAddress, addressType: BluetoothAddressType) {
        self.address = address
        self.addressType = addressType
    }
    public var opcode: ManagementOpcode { .disconnect }
    public func encodeParameters() -> [UInt8] { address.wireBytes + [addressType.rawValue] }
}
