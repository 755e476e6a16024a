/// The one-byte "set a mode" commands: Set Powered, Set Low Energy,
/// Set BR/EDR, Set Bondable, Set Connectable, Set Secure Connections
/// (0 off, 1 on, 2 only), Set Advertising. Each replies with the new
/// current settings (u32).
public struct SetControllerSetting: ManagementCommand, Equatable {
    public let opcode: ManagementOpcode
    public let value: UInt8

    public init(_ opcode: ManagementOpcode, _ value: UInt8) {
        self.opcode = opcode
        self.value = value
    }

    public static func powered(_ on: Bool) -> Self { Self(.setPowered, on ? 1 : 0) }
    public static func lowEnergy(_ on: Bool) -> Self { Self(.setLowEnergy, on ? 1 : 0) }
    public static func bredr(_ on: Bool) -> Self { Self(.setBREDR, on ? 1 : 0) }
    public static func bondable(_ on: Bool) -> Self { Self(.setBondable, on ? 1 : 0) }
    public static func connectable(_ on: Bool) -> Self { Self(.setConnectable, on ? 1 : 0) }
    public static func advertising(_ on: Bool) -> Self { Self(.setAdvertising, on ? 1 : 0) }
    public static func secureConnections(_ mode: SecureConnectionsMode) -> Self { Self(.setSecureConnections, mode.rawValue) }

    public func encodeParameters() -> [UInt8] { [value] }

    /// The reply of every setting command: the current settings.
    public static func decodeReply(_ p: UnsafeRawBufferPointer) -> ManagementSettings? {
        p.count >= 4 ? ManagementSettings(rawValue: p.loadLE32(at: 0)) : nil
    }
}

public enum SecureConnectionsMode: UInt8, Sendable {
    case off = 0, on = 1, only = 2
}

/// Pairing IO capability (Set IO Capability, 0x0018).
public enum IOCapability: UInt8, Sendable, CustomStringConvertible {
    case displayOnly = 0
    case displayYesNo = 1
    case keyboardOnly = 2
    case noInputNoOutput = 3
    case keyboardDisplay = 4

    public var description: String {
        switch self {
        case .displayOnly: "DisplayOnly"
        case .displayYesNo: "DisplayYesNo"
        case .keyboardOnly: "KeyboardOnly"
        case .noInputNoOutput: "NoInputNoOutput"
        case .keyboardDisplay: "KeyboardDisplay"
        }
    }
}

public struct SetIOCapability: ManagementCommand, Equatable {
    public var capability: IOCapability
    public init(_ capability: IOCapability) { self.capability = capability }
    public var opcode: ManagementOpcode { .setIOCapability }
    public func encodeParameters() -> [UInt8] { [capability.rawValue] }
}

/// Set Privacy (0x002F): privacy mode (0 off, 1 on, 2 limited) and the local
/// IRK (16 bytes) the controller uses to make resolvable private addresses.
/// Only allowed while powered off.
public struct SetPrivacy: ManagementCommand, Equatable {
    public var mode: UInt8
    public var localIRK: [UInt8]
    public init(enabled: Bool, localIRK: [UInt8]) {
        precondition(localIRK.count == 16, "an IRK is 16 bytes")
        mode = enabled ? 1 : 0
        self.localIRK = localIRK
    }
    public var opcode: ManagementOpcode { .setPrivacy }
    public func encodeParameters() -> [UInt8] { [mode] + localIRK }
}

/// Set Local Name (0x000F): name (249 bytes, NUL padded) and short name (11).
public struct SetLocalName: ManagementCommand, Equatable {
    public var name: String
    public var shortName: String
    public init(name: String, shortName: String = "") {
        self.name = name
        self.shortName = shortName
    }
    public var opcode: ManagementOpcode { .setLocalName }
    public func encodeParameters() -> [UInt8] { ControllerInfo.fixed(name, 249) + ControllerInfo.fixed(shortName, 11) }
}
