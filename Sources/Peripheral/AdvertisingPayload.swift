/// What the watch advertises (pure: bytes out, tested against vectors).
///
/// Advertising data (31 bytes max): Flags (LE General Discoverable, BR/EDR
/// not supported), the ANCS service UUID as a 128-bit *service solicitation*
/// (AD type 0x15: "I want to talk to this service of yours", which makes a
/// bonded iPhone reconnect by itself), and Appearance 0x00C0 (Watch).
/// Scan response: the Complete Local Name (shortened when longer than 29 bytes).
public struct AdvertisingPayload: Equatable, Sendable {
    /// GAP Appearance "Generic Watch".
    public static let watchAppearance: UInt16 = 0x00C0
    /// 7905F431-B5CE-4E99-A40F-4B1E122D00D0, least significant byte first (as on air).
    public static let ancsServiceUUID: [UInt8] = [
        0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79,
    ]

    enum ADType: UInt8 {
        case flags = 0x01
        case shortenedLocalName = 0x08
        case completeLocalName = 0x09
        case serviceSolicitation128 = 0x15
        case appearance = 0x19
    }

    public var name: String
    public var appearance: UInt16
    public var solicitedService: [UInt8]

    public init(name: String, appearance: UInt16 = watchAppearance, solicitedService: [UInt8] = ancsServiceUUID) {
        self.name = name
        self.appearance = appearance
        self.solicitedService = solicitedService
    }

    public var advertisingData: [UInt8] {
        var out: [UInt8] = [2, ADType.flags.rawValue, 0x06]  // LE General Discoverable | BR/EDR Not Supported
        out += [UInt8(1 + solicitedService.count), ADType.serviceSolicitation128.rawValue] + solicitedService
        out += [3, ADType.appearance.rawValue, UInt8(appearance & 0xFF), UInt8(appearance >> 8)]
        return out
    }

    public var scanResponse: [UInt8] {
        var bytes = Array(name.utf8)
        var type = ADType.completeLocalName
        if bytes.count > 29 {
            // Cut on a UTF-8 character boundary.
            var n = 29
            while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }
            bytes = Array(bytes[0..<n])
            type = .shortenedLocalName
        }
        return [UInt8(1 + bytes.count), type.rawValue] + bytes
    }

    /// Add Advertising for instance 1: connectable; Flags, appearance and name
    /// are in our own data, so the kernel must not add them (no managed flags).
    public var command: AddAdvertising {
        AddAdvertising(instance: 1, flags: .connectable, advertisingData: advertisingData, scanResponse: scanResponse)
    }
}
