import ATTCodec
import PhoneServices

/// Readable names for the UUIDs a watch ↔ phone conversation shows.
public enum GATTNames {
    static let table: [BluetoothUUID: String] = [
        .primaryService: "Primary Service", .secondaryService: "Secondary Service", .include: "Include",
        .characteristic: "Characteristic", .characteristicExtendedProperties: "Extended Properties",
        .characteristicUserDescription: "User Description", .clientCharacteristicConfiguration: "CCCD",
        .genericAccess: "Generic Access", .genericAttribute: "Generic Attribute",
        .currentTimeService: "Current Time Service", .deviceInformation: "Device Information", .battery: "Battery",
        .deviceName: "Device Name", .appearance: "Appearance", .serviceChanged: "Service Changed",
        .currentTime: "CTS Current Time", .localTimeInformation: "CTS Local Time Information",
        .referenceTimeInformation: "CTS Reference Time Information",
        BluetoothUUID(0x2A19): "Battery Level", BluetoothUUID(0x2A29): "Manufacturer Name",
        BluetoothUUID(0x2A24): "Model Number", BluetoothUUID(0x2B29): "Client Supported Features",
        BluetoothUUID(0x2B2A): "Database Hash",
        .ancsService: "ANCS", .ancsNotificationSource: "ANCS Notification Source",
        .ancsControlPoint: "ANCS Control Point", .ancsDataSource: "ANCS Data Source",
        .amsService: "AMS", .amsRemoteCommand: "AMS Remote Command", .amsEntityUpdate: "AMS Entity Update",
        .amsEntityAttribute: "AMS Entity Attribute",
        GadgetbridgeSession.uartService: "Nordic UART", GadgetbridgeSession.uartRX: "UART RX",
        GadgetbridgeSession.uartTX: "UART TX",
    ]

    /// The known name, or nil.
    public static func name(of uuid: BluetoothUUID) -> String? { table[uuid] }

    /// `2803 (Characteristic)`, or the bare UUID when unknown.
    public static func describe(_ uuid: BluetoothUUID) -> String {
        if let n = name(of: uuid) { return "\(uuid) (\(n))" }
        return uuid.description
    }
}
