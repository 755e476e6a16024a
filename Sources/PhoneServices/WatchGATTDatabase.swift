import ATTCodec
import GATT
import HAL

/// The database the watch shows the phone (Core Specification Vol 3, Part C
/// 12 and Part G 7): Generic Access, Generic Attribute with Service Changed,
/// and a WristCore service with one characteristic that needs an encrypted
/// link. Reading it makes iOS answer "Insufficient Authentication" with its
/// system pairing dialog — the usual way an accessory gets bonded.
public enum WatchGATTDatabase {
    /// Appearance "Generic Watch" (Assigned Numbers, 0x00C0).
    public static let appearanceGenericWatch: UInt16 = 0x00C0
    /// The WristCore service and its encrypted characteristic.
    public static let wristCoreService = BluetoothUUID("5C3A0001-8F7E-4B6B-9C1D-57A1C0DE0001")!
    public static let pairingCharacteristic = BluetoothUUID("5C3A0002-8F7E-4B6B-9C1D-57A1C0DE0001")!

    /// Handles of the published database.
    public struct Handles: Sendable, Equatable {
        public var deviceName: UInt16
        public var appearance: UInt16
        public var serviceChanged: UInt16
        public var pairing: UInt16
        public init(deviceName: UInt16, appearance: UInt16, serviceChanged: UInt16, pairing: UInt16) {
            self.deviceName = deviceName
            self.appearance = appearance
            self.serviceChanged = serviceChanged
            self.pairing = pairing
        }
    }

    /// Builds the watch's server. `security` tells the server whether the link
    /// is encrypted (the pairing characteristic checks it).
    public static func makeServer(
        deviceName: String, security: LinkSecurityControl?, firmwareRevision: String = "WristCore"
    ) -> (GATTServer, Handles) {
        let server = GATTServer(security: security)
        do {
            let gap = try server.publish(GATTServiceDefinition(uuid: .genericAccess, characteristics: [
                GATTCharacteristicDefinition(uuid: .deviceName, properties: [.read], value: Array(deviceName.utf8.prefix(248))),
                GATTCharacteristicDefinition(
                    uuid: .appearance, properties: [.read],
                    value: [UInt8(appearanceGenericWatch & 0xFF), UInt8(appearanceGenericWatch >> 8)]),
            ]))
            let gatt = try server.publishGenericAttributeService()
            let wc = try server.publish(GATTServiceDefinition(uuid: wristCoreService, characteristics: [
                GATTCharacteristicDefinition(
                    uuid: pairingCharacteristic, properties: [.read], permissions: [.readEncrypted],
                    value: Array(firmwareRevision.utf8.prefix(64))),
            ]))
            return (server, Handles(
                deviceName: gap.valueHandles[0], appearance: gap.valueHandles[1],
                serviceChanged: gatt.valueHandles[0], pairing: wc.valueHandles[0]))
        } catch {
            preconditionFailure("the watch database fits in an empty server: \(error)")
        }
    }
}
