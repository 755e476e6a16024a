import ATTCodec
import GATT
import PhoneServices


/// The services an iPhone shows a bonded accessory, in the order it lists
/// them: ANCS is far from handle 1, next to services the watch ignores
/// (Continuity, the Apple Media Service, Device Information, Battery).
public enum IPhoneDatabase {
    public static let continuityService = BluetoothUUID("D0611E78-BBB4-4591-A5F8-487910AE4366")!
    public static let continuityCharacteristic = BluetoothUUID("8667556C-9A37-4C91-84ED-54EE27D90049")!
    public static let nearbyService = BluetoothUUID("9FA480E0-4967-4542-9390-D343DC5D04AE")!
    public static let nearbyCharacteristic = BluetoothUUID("AF0BADB1-5B99-43CD-917A-A77BC549E3CC")!

    /// Handles of the phone's characteristics the tests and the phone need.
    public struct Handles: Equatable, Sendable {
        public var serviceChanged: UInt16 = 0
        public var currentTime: UInt16 = 0
        public var batteryLevel: UInt16 = 0
        public var localTimeInformation: UInt16 = 0
        public var ancs: ATTHandleRange?
        public var notificationSource: UInt16 = 0
        public var controlPoint: UInt16 = 0
        public var dataSource: UInt16 = 0
        public var ams: ATTHandleRange?
        public var remoteCommand: UInt16 = 0
        public var entityUpdate: UInt16 = 0
        public var entityAttribute: UInt16 = 0
    }

    /// Everything but ANCS, published into `server` (AMS last, when given).
    static func publishBase(
        into server: GATTServer, deviceName: String, ams: GATTServiceDefinition?, currentTime: Bool = true,
        battery: @escaping () -> [UInt8] = { [87] }, time: @escaping () -> [UInt8]
    ) -> Handles {
        var h = Handles()
        do {
            try server.publish(GATTServiceDefinition(uuid: .genericAccess, characteristics: [
                GATTCharacteristicDefinition(uuid: .deviceName, properties: [.read], value: Array(deviceName.utf8)),
                GATTCharacteristicDefinition(uuid: .appearance, properties: [.read], value: [0x40, 0x00]),  // Generic Phone
            ]))
            h.serviceChanged = try server.publishGenericAttributeService().valueHandles[0]
            try server.publish(GATTServiceDefinition(uuid: continuityService, characteristics: [
                GATTCharacteristicDefinition(
                    uuid: continuityCharacteristic, properties: [.write, .notify, .extendedProperties],
                    permissions: [.writeEncrypted],
                    descriptors: [GATTDescriptorDefinition(uuid: .characteristicExtendedProperties, value: [0x01, 0x00])]),
            ]))
            try server.publish(GATTServiceDefinition(uuid: nearbyService, characteristics: [
                GATTCharacteristicDefinition(
                    uuid: nearbyCharacteristic, properties: [.write, .notify], permissions: [.writeEncrypted]),
            ]))
            h.batteryLevel = try server.publish(GATTServiceDefinition(uuid: .battery, characteristics: [
                GATTCharacteristicDefinition(uuid: .batteryLevel, properties: [.read, .notify], read: battery),
            ])).valueHandles[0]
            if currentTime {
                let cts = try server.publish(GATTServiceDefinition(uuid: .currentTimeService, characteristics: [
                    GATTCharacteristicDefinition(uuid: .currentTime, properties: [.read, .notify], read: time),
                    GATTCharacteristicDefinition(uuid: .localTimeInformation, properties: [.read], value: [4, 4]),  // UTC+1, DST +1h
                ]))
                h.currentTime = cts.valueHandles[0]
                h.localTimeInformation = cts.valueHandles[1]
            }
            try server.publish(GATTServiceDefinition(uuid: .deviceInformation, characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A29), properties: [.read], value: Array("Apple Inc.".utf8)),
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A24), properties: [.read], value: Array("iPhone15,2".utf8)),
            ]))
            if let ams {
                let published = try server.publish(ams)
                h.ams = published.range
                h.remoteCommand = published.valueHandles[0]
                h.entityUpdate = published.valueHandles[1]
                h.entityAttribute = published.valueHandles[2]
            }
        } catch {
            preconditionFailure("the iPhone database fits: \(error)")
        }
        return h
    }

    /// The Apple Media Service definition (secured like ANCS with `requireEncryption`).
    static func ams(
        requireEncryption: Bool, remoteCommand: @escaping (UnsafeRawBufferPointer) -> ATTErrorCode?,
        entityUpdate: @escaping (UnsafeRawBufferPointer) -> ATTErrorCode?,
        entityAttributeWrite: @escaping (UnsafeRawBufferPointer) -> ATTErrorCode?,
        entityAttributeRead: @escaping () -> [UInt8]
    ) -> GATTServiceDefinition {
        let secure: GATTPermissions = requireEncryption ? [.readEncrypted, .writeEncrypted] : []
        return GATTServiceDefinition(uuid: .amsService, characteristics: [
            GATTCharacteristicDefinition(
                uuid: .amsRemoteCommand, properties: [.write, .notify], permissions: secure, write: remoteCommand),
            GATTCharacteristicDefinition(
                uuid: .amsEntityUpdate, properties: [.write, .notify], permissions: secure, write: entityUpdate),
            GATTCharacteristicDefinition(
                uuid: .amsEntityAttribute, properties: [.read, .write], permissions: secure,
                read: entityAttributeRead, write: entityAttributeWrite),
        ])
    }

    /// The ANCS service definition. With `requireEncryption` every ANCS
    /// characteristic (and CCCD) answers "Insufficient Authentication" on an
    /// unencrypted link, as iOS does for an accessory that is not bonded.
    static func ancs(requireEncryption: Bool, controlPoint: @escaping (UnsafeRawBufferPointer) -> ATTErrorCode?) -> GATTServiceDefinition {
        let secure: GATTPermissions = requireEncryption ? [.readEncrypted, .writeEncrypted] : []
        return GATTServiceDefinition(uuid: .ancsService, characteristics: [
            GATTCharacteristicDefinition(uuid: .ancsNotificationSource, properties: [.notify], permissions: secure),
            GATTCharacteristicDefinition(
                uuid: .ancsControlPoint, properties: [.write, .extendedProperties], permissions: secure,
                write: controlPoint,
                descriptors: [GATTDescriptorDefinition(uuid: .characteristicExtendedProperties, value: [0x00, 0x00])]),
            GATTCharacteristicDefinition(uuid: .ancsDataSource, properties: [.notify], permissions: secure),
        ])
    }
}
