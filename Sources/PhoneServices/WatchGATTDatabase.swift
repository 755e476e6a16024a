import ATTCodec
import GATT
import HAL

/// The database the watch shows the phone (Core Specification Vol 3, Part C
/// 12 and Part G 7): Generic Access, Generic Attribute with Service Changed,
/// a WristCore service with one characteristic that needs an encrypted
/// link, and the Nordic UART Service Gadgetbridge talks over (Android). Reading it makes iOS answer "Insufficient Authentication" with its
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
        /// The UART's RX (written by the phone) and TX (notified to it).
        public var uartRX: UInt16
        public var uartTX: UInt16
        public init(deviceName: UInt16, appearance: UInt16, serviceChanged: UInt16, pairing: UInt16, uartRX: UInt16 = 0, uartTX: UInt16 = 0) {
            self.deviceName = deviceName
            self.appearance = appearance
            self.serviceChanged = serviceChanged
            self.pairing = pairing
            self.uartRX = uartRX
            self.uartTX = uartTX
        }
    }

    /// Builds the watch's server. `security` tells the server whether the link
    /// is encrypted (the pairing characteristic checks it); `uartReceived`
    /// gets what the phone writes on the UART's RX.
    public static func makeServer(
        deviceName: String, security: LinkSecurityControl?, firmwareRevision: String = "WristCore",
        uartReceived: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }, uartRequiresEncryption: Bool = false
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
            // Unencrypted by default, as on a Bangle.js: Gadgetbridge may connect
            // without bonding ("Don't pair"). Encrypted only: a stranger's
            // writes are refused (a Write Request) or dropped (a Write Command).
            let uart = try server.publish(GATTServiceDefinition(uuid: GadgetbridgeSession.uartService, characteristics: [
                GATTCharacteristicDefinition(
                    uuid: GadgetbridgeSession.uartRX, properties: [.write, .writeWithoutResponse],
                    permissions: uartRequiresEncryption ? [.writeEncrypted] : [],
                    write: { bytes in
                        uartReceived(bytes)
                        return nil
                    }),
                GATTCharacteristicDefinition(uuid: GadgetbridgeSession.uartTX, properties: [.notify]),
            ]))
            return (server, Handles(
                deviceName: gap.valueHandles[0], appearance: gap.valueHandles[1],
                serviceChanged: gatt.valueHandles[0], pairing: wc.valueHandles[0],
                uartRX: uart.valueHandles[0], uartTX: uart.valueHandles[1]))
        } catch {
            preconditionFailure("the watch database fits in an empty server: \(error)")
        }
    }
}
