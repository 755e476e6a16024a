/// A typed mgmt command: its opcode and its parameter bytes (mgmt-api.txt).
/// Encoding is pure, so every command is unit-tested against byte vectors.
public protocol ManagementCommand: Sendable {
    var opcode: ManagementOpcode { get }
    /// The parameters, little-endian, without the header.
    func encodeParameters() -> [UInt8]
}

extension ManagementCommand {
    /// The whole packet (header + parameters) for controller `index`.
    public func encoded(index: UInt16) -> [UInt8] {
        ManagementPacket.command(opcode, index: index, parameters: encodeParameters())
    }
}

/// Any command, already encoded: its opcode and parameter bytes. Lists of
/// different commands (a set-up sequence) hold these, since Embedded Swift
/// has no existentials of non-class protocols.
public struct EncodedManagementCommand: ManagementCommand, Equatable {
    public let opcode: ManagementOpcode
    public let parameters: [UInt8]

    public init(opcode: ManagementOpcode, parameters: [UInt8]) {
        self.opcode = opcode
        self.parameters = parameters
    }

    public init(_ command: some ManagementCommand) {
        self.init(opcode: command.opcode, parameters: command.encodeParameters())
    }

    public func encodeParameters() -> [UInt8] { parameters }
}

/// Read Controller Information (0x0004): no parameters; the reply is `ControllerInfo`.
public struct ReadControllerInfo: ManagementCommand {
    public init() {}
    public var opcode: ManagementOpcode { .readControllerInfo }
    public func encodeParameters() -> [UInt8] { [] }
}

/// Read Controller Index List (0x0003): no parameters; reply is a u16 count then u16 indexes.
public struct ReadControllerIndexList: ManagementCommand {
    public init() {}
    public var opcode: ManagementOpcode { .readIndexList }
    public func encodeParameters() -> [UInt8] { [] }

    public static func decodeReply(_ p: UnsafeRawBufferPointer) -> [UInt16]? {
        guard p.count >= 2 else { return nil }
        let n = Int(p.loadLE16(at: 0))
        guard p.count >= 2 + 2 * n else { return nil }
        return (0..<n).map { p.loadLE16(at: 2 + 2 * $0) }
    }
}
