import HAL
/// The kernel management interface's framing (BlueZ doc/mgmt-api.txt):
/// every command and event starts with opcode/event code, controller index
/// and parameter length, all u16 little-endian.
public enum ManagementPacket {
    public static let headerSize = 6
    /// The index for commands that address no controller.
    public static let noIndex: UInt16 = 0xFFFF

    /// One whole command: header then parameters.
    public static func command(_ opcode: ManagementOpcode, index: UInt16, parameters: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + parameters.count)
        out.appendLE(opcode.rawValue)
        out.appendLE(index)
        out.appendLE(UInt16(parameters.count))
        out += parameters
        return out
    }

    /// Splits a received packet into event code, index and parameters; nil
    /// when it is shorter than its header says.
    public static func parse(_ packet: UnsafeRawBufferPointer) -> (code: UInt16, index: UInt16, parameters: UnsafeRawBufferPointer)? {
        guard packet.count >= headerSize else { return nil }
        let code = packet.loadLE16(at: 0)
        let index = packet.loadLE16(at: 2)
        let length = Int(packet.loadLE16(at: 4))
        guard packet.count >= headerSize + length else { return nil }
        return (code, index, UnsafeRawBufferPointer(rebasing: packet[headerSize..<(headerSize + length)]))
    }
}

/// Command opcodes used by WristCore.
public enum ManagementOpcode: UInt16, Sendable, CustomStringConvertible {
    case readVersion = 0x0001
    case readIndexList = 0x0003
    case readControllerInfo = 0x0004
    case setPowered = 0x0005
    case setConnectable = 0x0007
    case setBondable = 0x0009
    case setLowEnergy = 0x000D
    case setLocalName = 0x000F
    case loadLongTermKeys = 0x0013
    case disconnect = 0x0014
    case setIOCapability = 0x0018
    case unpairDevice = 0x001B
    case userConfirmationReply = 0x001C
    case userConfirmationNegativeReply = 0x001D
    case setAdvertising = 0x0029
    case setBREDR = 0x002A
    case setSecureConnections = 0x002D
    case setPrivacy = 0x002F
    case loadIdentityResolvingKeys = 0x0030
    case addAdvertising = 0x003E
    case removeAdvertising = 0x003F

    public var description: String {
        switch self {
        case .readVersion: "Read Management Version Information"
        case .readIndexList: "Read Controller Index List"
        case .readControllerInfo: "Read Controller Information"
        case .setPowered: "Set Powered"
        case .setConnectable: "Set Connectable"
        case .setBondable: "Set Bondable"
        case .setLowEnergy: "Set Low Energy"
        case .setLocalName: "Set Local Name"
        case .loadLongTermKeys: "Load Long Term Keys"
        case .disconnect: "Disconnect"
        case .setIOCapability: "Set IO Capability"
        case .unpairDevice: "Unpair Device"
        case .userConfirmationReply: "User Confirmation Reply"
        case .userConfirmationNegativeReply: "User Confirmation Negative Reply"
        case .setAdvertising: "Set Advertising"
        case .setBREDR: "Set BR/EDR"
        case .setSecureConnections: "Set Secure Connections"
        case .setPrivacy: "Set Privacy"
        case .loadIdentityResolvingKeys: "Load Identity Resolving Keys"
        case .addAdvertising: "Add Advertising"
        case .removeAdvertising: "Remove Advertising"
        }
    }
}

/// Status codes of Command Complete / Command Status.
public enum ManagementStatus: UInt8, Sendable, CustomStringConvertible {
    case success = 0x00, unknownCommand, notConnected, failed, connectFailed, authenticationFailed,
        notPaired, noResources, timeout, alreadyConnected, busy, rejected, notSupported,
        invalidParameters, disconnected, notPowered, cancelled, invalidIndex, rfKilled,
        alreadyPaired, permissionDenied

    public var description: String {
        switch self {
        case .success: "Success"
        case .unknownCommand: "Unknown Command"
        case .notConnected: "Not Connected"
        case .failed: "Failed"
        case .connectFailed: "Connect Failed"
        case .authenticationFailed: "Authentication Failed"
        case .notPaired: "Not Paired"
        case .noResources: "No Resources"
        case .timeout: "Timeout"
        case .alreadyConnected: "Already Connected"
        case .busy: "Busy"
        case .rejected: "Rejected"
        case .notSupported: "Not Supported"
        case .invalidParameters: "Invalid Parameters"
        case .disconnected: "Disconnected"
        case .notPowered: "Not Powered"
        case .cancelled: "Cancelled"
        case .invalidIndex: "Invalid Index"
        case .rfKilled: "RFKilled"
        case .alreadyPaired: "Already Paired"
        case .permissionDenied: "Permission Denied"
        }
    }
}

/// The controller settings bit field (Read Controller Information, New Settings, Set ... replies).
public struct ManagementSettings: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let powered = Self(rawValue: 1 << 0)
    public static let connectable = Self(rawValue: 1 << 1)
    public static let fastConnectable = Self(rawValue: 1 << 2)
    public static let discoverable = Self(rawValue: 1 << 3)
    public static let bondable = Self(rawValue: 1 << 4)
    public static let linkSecurity = Self(rawValue: 1 << 5)
    public static let secureSimplePairing = Self(rawValue: 1 << 6)
    public static let bredr = Self(rawValue: 1 << 7)
    public static let highSpeed = Self(rawValue: 1 << 8)
    public static let lowEnergy = Self(rawValue: 1 << 9)
    public static let advertising = Self(rawValue: 1 << 10)
    public static let secureConnections = Self(rawValue: 1 << 11)
    public static let debugKeys = Self(rawValue: 1 << 12)
    public static let privacy = Self(rawValue: 1 << 13)
    public static let configuration = Self(rawValue: 1 << 14)
    public static let staticAddress = Self(rawValue: 1 << 15)

    public var description: String {
        let names: [(Self, String)] = [
            (.powered, "powered"), (.connectable, "connectable"), (.fastConnectable, "fast-connectable"),
            (.discoverable, "discoverable"), (.bondable, "bondable"), (.linkSecurity, "link-security"),
            (.secureSimplePairing, "ssp"), (.bredr, "br/edr"), (.highSpeed, "hs"), (.lowEnergy, "le"),
            (.advertising, "advertising"), (.secureConnections, "secure-conn"), (.debugKeys, "debug-keys"),
            (.privacy, "privacy"), (.configuration, "configuration"), (.staticAddress, "static-addr"),
        ]
        return names.filter { contains($0.0) }.map { $0.1 }.joined(separator: " ")
    }
}

/// Little-endian helpers for the codecs.
extension Array where Element == UInt8 {
    @inline(__always) mutating func appendLE(_ v: UInt16) { append(UInt8(v & 0xFF)); append(UInt8(v >> 8)) }
    @inline(__always) mutating func appendLE(_ v: UInt32) {
        for s in stride(from: 0, to: 32, by: 8) { append(UInt8((v >> UInt32(s)) & 0xFF)) }
    }
    @inline(__always) mutating func appendLE(_ v: UInt64) {
        for s in stride(from: 0, to: 64, by: 8) { append(UInt8((v >> UInt64(s)) & 0xFF)) }
    }
}

extension UnsafeRawBufferPointer {
    @inline(__always) func loadLE16(at o: Int) -> UInt16 { UInt16(self[o]) | UInt16(self[o + 1]) << 8 }
    @inline(__always) func loadLE32(at o: Int) -> UInt32 {
        UInt32(self[o]) | UInt32(self[o + 1]) << 8 | UInt32(self[o + 2]) << 16 | UInt32(self[o + 3]) << 24
    }
    @inline(__always) func loadLE64(at o: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(self[o + i]) << UInt64(8 * i) }
        return v
    }
    func address(at o: Int) -> BluetoothAddress {
        BluetoothAddress(wire: (self[o], self[o + 1], self[o + 2], self[o + 3], self[o + 4], self[o + 5]))
    }
}
