import HAL
/// mgmt event codes (mgmt-api.txt, "Events").
public enum ManagementEventCode: UInt16, Sendable {
    case commandComplete = 0x0001
    case commandStatus = 0x0002
    case controllerError = 0x0003
    case indexAdded = 0x0004
    case indexRemoved = 0x0005
    case newSettings = 0x0006
    case newLongTermKey = 0x000A
    case deviceConnected = 0x000B
    case deviceDisconnected = 0x000C
    case connectFailed = 0x000D
    case userConfirmationRequest = 0x000F
    case authenticationFailed = 0x0011
    case deviceUnpaired = 0x0016
    case newIdentityResolvingKey = 0x0018
    case advertisingAdded = 0x0023
    case advertisingRemoved = 0x0024
}

/// Why a link went down (Device Disconnected's reason byte).
public enum DisconnectReason: UInt8, Sendable, CustomStringConvertible {
    case unspecified = 0
    case connectionTimeout = 1
    case localHost = 2
    case remoteHost = 3
    case authenticationFailure = 4
    case localHostSuspend = 5

    public var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .connectionTimeout: "connection timeout (out of range?)"
        case .localHost: "closed by the watch"
        case .remoteHost: "closed by the phone"
        case .authenticationFailure: "authentication failure"
        case .localHostSuspend: "local host suspended"
        }
    }
}

/// One decoded mgmt event. Decoding is pure: bytes in, a value out; events
/// WristCore does not use come back as `.other(code)`.
public enum ManagementEvent: Equatable, Sendable {
    /// Command Complete: the opcode, status and return parameters.
    case commandComplete(opcode: UInt16, status: UInt8, returnParameters: [UInt8])
    /// Command Status: a command failed (or is pending) without return parameters.
    case commandStatus(opcode: UInt16, status: UInt8)
    case controllerError(code: UInt8)
    case indexAdded
    case indexRemoved
    case newSettings(ManagementSettings)
    /// store_hint says whether the key should be stored persistently (a bond).
    case newLongTermKey(storeHint: Bool, key: LongTermKey)
    case deviceConnected(address: BluetoothAddress, addressType: BluetoothAddressType, flags: UInt32, eir: [UInt8])
    case deviceDisconnected(address: BluetoothAddress, addressType: BluetoothAddressType, reason: DisconnectReason)
    case connectFailed(address: BluetoothAddress, addressType: BluetoothAddressType, status: UInt8)
    /// Numeric comparison: show `value` (6 digits), then reply. `confirmHint`
    /// 1 means "Just Works": no number to compare, only authorize.
    case userConfirmationRequest(address: BluetoothAddress, addressType: BluetoothAddressType, confirmHint: UInt8, value: UInt32)
    /// Pairing or encryption failed; `status` is an HCI or SMP status (0x05
    /// Authentication Failure, 0x06 PIN or Key Missing ...).
    case authenticationFailed(address: BluetoothAddress, addressType: BluetoothAddressType, status: UInt8)
    case deviceUnpaired(address: BluetoothAddress, addressType: BluetoothAddressType)
    /// The peer's IRK; `randomAddress` is the RPA it connected with.
    case newIdentityResolvingKey(storeHint: Bool, randomAddress: BluetoothAddress, key: IdentityResolvingKey)
    case advertisingAdded(instance: UInt8)
    case advertisingRemoved(instance: UInt8)
    case other(code: UInt16)

    /// Decodes the parameters of event `code`; nil when they are malformed.
    public static func decode(code: UInt16, parameters p: UnsafeRawBufferPointer) -> ManagementEvent? {
        guard let known = ManagementEventCode(rawValue: code) else { return .other(code: code) }
        func addr() -> (BluetoothAddress, BluetoothAddressType)? {
            guard p.count >= 7, let t = BluetoothAddressType(rawValue: p[6]) else { return nil }
            return (p.address(at: 0), t)
        }
        switch known {
        case .commandComplete:
            guard p.count >= 3 else { return nil }
            return .commandComplete(opcode: p.loadLE16(at: 0), status: p[2], returnParameters: Array(p[3...]))
        case .commandStatus:
            guard p.count >= 3 else { return nil }
            return .commandStatus(opcode: p.loadLE16(at: 0), status: p[2])
        case .controllerError:
            guard p.count >= 1 else { return nil }
            return .controllerError(code: p[0])
        case .indexAdded: return .indexAdded
        case .indexRemoved: return .indexRemoved
        case .newSettings:
            guard p.count >= 4 else { return nil }
            return .newSettings(ManagementSettings(rawValue: p.loadLE32(at: 0)))
        case .newLongTermKey:
            guard p.count >= 1 + LongTermKey.size, let key = LongTermKey.decode(p, at: 1) else { return nil }
            return .newLongTermKey(storeHint: p[0] != 0, key: key)
        case .deviceConnected:
            guard p.count >= 13, let (a, t) = addr() else { return nil }
            let eirLength = Int(p.loadLE16(at: 11))
            guard p.count >= 13 + eirLength else { return nil }
            return .deviceConnected(address: a, addressType: t, flags: p.loadLE32(at: 7), eir: Array(p[13..<(13 + eirLength)]))
        case .deviceDisconnected:
            // Kernels before 3.x sent no reason byte: treat it as unspecified.
            guard let (a, t) = addr() else { return nil }
            let reason = p.count >= 8 ? DisconnectReason(rawValue: p[7]) ?? .unspecified : .unspecified
            return .deviceDisconnected(address: a, addressType: t, reason: reason)
        case .connectFailed:
            guard p.count >= 8, let (a, t) = addr() else { return nil }
            return .connectFailed(address: a, addressType: t, status: p[7])
        case .userConfirmationRequest:
            guard p.count >= 12, let (a, t) = addr() else { return nil }
            return .userConfirmationRequest(address: a, addressType: t, confirmHint: p[7], value: p.loadLE32(at: 8))
        case .authenticationFailed:
            guard p.count >= 8, let (a, t) = addr() else { return nil }
            return .authenticationFailed(address: a, addressType: t, status: p[7])
        case .deviceUnpaired:
            guard let (a, t) = addr() else { return nil }
            return .deviceUnpaired(address: a, addressType: t)
        case .newIdentityResolvingKey:
            guard p.count >= 7 + IdentityResolvingKey.size, let key = IdentityResolvingKey.decode(p, at: 7) else { return nil }
            return .newIdentityResolvingKey(storeHint: p[0] != 0, randomAddress: p.address(at: 1), key: key)
        case .advertisingAdded:
            guard p.count >= 1 else { return nil }
            return .advertisingAdded(instance: p[0])
        case .advertisingRemoved:
            guard p.count >= 1 else { return nil }
            return .advertisingRemoved(instance: p[0])
        }
    }

    /// Decodes a whole packet (header included) into index and event.
    public static func decode(packet: UnsafeRawBufferPointer) -> (index: UInt16, event: ManagementEvent)? {
        guard let (code, index, params) = ManagementPacket.parse(packet),
              let event = decode(code: code, parameters: params) else { return nil }
        return (index, event)
    }

    /// Encodes an event packet: for fake controllers in tests and emulators.
    public static func packet(code: ManagementEventCode, index: UInt16, parameters: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendLE(code.rawValue)
        out.appendLE(index)
        out.appendLE(UInt16(parameters.count))
        return out + parameters
    }
}
