import HAL
/// A long-term key as mgmt carries it (New Long Term Key, Load Long Term Keys):
/// 36 bytes: address, address type, key type, central, encryption size,
/// EDIV (u16), Rand (u64), value (16).
public struct LongTermKey: Equatable, Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    /// 0 unauthenticated legacy, 1 authenticated legacy, 2 unauthenticated
    /// P-256 (LE SC), 3 authenticated P-256, 4 debug P-256.
    public var keyType: UInt8
    /// Legacy pairing has one key per role; true for the key used when we are central.
    public var central: Bool
    public var encryptionSize: UInt8
    public var ediv: UInt16
    public var rand: UInt64
    public var value: [UInt8]

    public static let size = 36

    public init(address: BluetoothAddress, addressType: BluetoothAddressType, keyType: UInt8, central: Bool,
                encryptionSize: UInt8, ediv: UInt16, rand: UInt64, value: [UInt8]) {
        precondition(value.count == 16, "a long-term key is 16 bytes")
        self.address = address
        self.addressType = addressType
        self.keyType = keyType
        self.central = central
        self.encryptionSize = encryptionSize
        self.ediv = ediv
        self.rand = rand
        self.value = value
    }

    /// Whether pairing was MITM-protected (numeric comparison / passkey).
    public var isAuthenticated: Bool { keyType == 1 || keyType == 3 }

    public func encode(into out: inout [UInt8]) {
        out += address.wireBytes
        out.append(addressType.rawValue)
        out.append(keyType)
        out.append(central ? 1 : 0)
        out.append(encryptionSize)
        out.appendLE(ediv)
        out.appendLE(rand)
        out += value
    }

    public static func decode(_ p: UnsafeRawBufferPointer, at o: Int = 0) -> LongTermKey? {
        guard p.count >= o + size, let type = BluetoothAddressType(rawValue: p[o + 6]) else { return nil }
        return LongTermKey(
            address: p.address(at: o), addressType: type, keyType: p[o + 7], central: p[o + 8] != 0,
            encryptionSize: p[o + 9], ediv: p.loadLE16(at: o + 10), rand: p.loadLE64(at: o + 12),
            value: Array(p[(o + 20)..<(o + 36)]))
    }
}

/// An identity resolving key (New IRK, Load IRKs): 23 bytes: the peer's
/// identity address, its type, and the 16-byte key.
public struct IdentityResolvingKey: Equatable, Hashable, Sendable {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType
    public var value: [UInt8]

    public static let size = 23

    public init(address: BluetoothAddress, addressType: BluetoothAddressType, value: [UInt8]) {
        precondition(value.count == 16, "an IRK is 16 bytes")
        self.address = address
        self.addressType = addressType
        self.value = value
    }

    public func encode(into out: inout [UInt8]) {
        out += address.wireBytes
        out.append(addressType.rawValue)
        out += value
    }

    public static func decode(_ p: UnsafeRawBufferPointer, at o: Int = 0) -> IdentityResolvingKey? {
        guard p.count >= o + size, let type = BluetoothAddressType(rawValue: p[o + 6]) else { return nil }
        return IdentityResolvingKey(address: p.address(at: o), addressType: type, value: Array(p[(o + 7)..<(o + 23)]))
    }
}

/// Load Long Term Keys (0x0013): u16 count then 36-byte entries. Replaces
/// every key the kernel holds for the controller (an empty list clears them).
public struct LoadLongTermKeys: ManagementCommand, Equatable {
    public var keys: [LongTermKey]
    public init(_ keys: [LongTermKey]) { self.keys = keys }
    public var opcode: ManagementOpcode { .loadLongTermKeys }
    public func encodeParameters() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 + keys.count * LongTermKey.size)
        out.appendLE(UInt16(keys.count))
        for k in keys { k.encode(into: &out) }
        return out
    }
}

/// Load Identity Resolving Keys (0x0030): u16 count then 23-byte entries.
public struct LoadIdentityResolvingKeys: ManagementCommand, Equatable {
    public var keys: [IdentityResolvingKey]
    public init(_ keys: [IdentityResolvingKey]) { self.keys = keys }
    public var opcode: ManagementOpcode { .loadIdentityResolvingKeys }
    public func encodeParameters() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 + keys.count * IdentityResolvingKey.size)
        out.appendLE(UInt16(keys.count))
        for k in keys { k.encode(into: &out) }
        return out
    }
}
