import ATTCodec
/// Characteristic properties, as carried in a characteristic declaration.
public struct GATTCharacteristicProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let broadcast = Self(rawValue: 0x01)
    public static let read = Self(rawValue: 0x02)
    public static let writeWithoutResponse = Self(rawValue: 0x04)
    public static let write = Self(rawValue: 0x08)
    public static let notify = Self(rawValue: 0x10)
    public static let indicate = Self(rawValue: 0x20)
    public static let authenticatedSignedWrites = Self(rawValue: 0x40)
    public static let extendedProperties = Self(rawValue: 0x80)
}

/// Access rules the server enforces for an attribute.
public struct GATTPermissions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let read = Self(rawValue: 0x01)
    public static let write = Self(rawValue: 0x02)
    /// Reading needs an encrypted link ("Insufficient Authentication" otherwise,
    /// which is what makes iOS start pairing).
    public static let readEncrypted = Self(rawValue: 0x04)
    /// Writing needs an encrypted link.
    public static let writeEncrypted = Self(rawValue: 0x08)
    public static let readWrite: Self = [.read, .write]
}

/// One characteristic of a service to publish.
public struct GATTCharacteristicDefinition {
    public var uuid: BluetoothUUID
    public var properties: GATTCharacteristicProperties
    public var permissions: GATTPermissions
    /// The initial (or static) value.
    public var value: [UInt8]
    /// Produces the value on every read (overrides `value`).
    public var read: (() -> [UInt8])?
    /// Accepts or rejects a written value; returning an error code answers
    /// the Write Request with it. Without a handler, writes replace `value`.
    public var write: ((UnsafeRawBufferPointer) -> ATTErrorCode?)?
    /// Extra descriptors (a CCCD is added automatically for notify / indicate).
    public var descriptors: [GATTDescriptorDefinition]

    public init(
        uuid: BluetoothUUID, properties: GATTCharacteristicProperties, permissions: GATTPermissions = [],
        value: [UInt8] = [], read: (() -> [UInt8])? = nil,
        write: ((UnsafeRawBufferPointer) -> ATTErrorCode?)? = nil, descriptors: [GATTDescriptorDefinition] = []
    ) {
        self.uuid = uuid
        self.properties = properties
        var p = permissions
        if properties.contains(.read) { p.insert(.read) }
        if !properties.isDisjoint(with: [.write, .writeWithoutResponse]) { p.insert(.write) }
        self.permissions = p
        self.value = value
        self.read = read
        self.write = write
        self.descriptors = descriptors
    }
}

/// A descriptor other than the CCCD (which the server manages).
public struct GATTDescriptorDefinition {
    public var uuid: BluetoothUUID
    public var permissions: GATTPermissions
    public var value: [UInt8]
    public init(uuid: BluetoothUUID, permissions: GATTPermissions = .read, value: [UInt8]) {
        self.uuid = uuid
        self.permissions = permissions
        self.value = value
    }
}

/// A service to publish.
public struct GATTServiceDefinition {
    public var uuid: BluetoothUUID
    public var isPrimary: Bool
    public var characteristics: [GATTCharacteristicDefinition]
    public init(uuid: BluetoothUUID, isPrimary: Bool = true, characteristics: [GATTCharacteristicDefinition]) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.characteristics = characteristics
    }

    /// Number of handles the service takes.
    public var handleCount: Int {
        1 + characteristics.reduce(0) { n, c in
            n + 2 + c.descriptors.count + (c.properties.isDisjoint(with: [.notify, .indicate]) ? 0 : 1)
        }
    }
}

/// Where a published service landed.
public struct GATTPublishedService: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var range: ATTHandleRange
    /// Value handles of the characteristics, in definition order.
    public var valueHandles: [UInt16]
    /// CCCD handles (0 for characteristics without one), in definition order.
    public var cccdHandles: [UInt16]
}
