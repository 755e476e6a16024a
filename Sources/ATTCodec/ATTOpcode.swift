/// An Attribute Protocol opcode (Core Specification Vol 3, Part F, 3.3 and 3.4).
///
/// Bit 6 marks a command (no response is ever sent, unknown ones are ignored),
/// bit 7 marks an authentication signature. Opcodes this stack does not know
/// are kept as raw values in `ATTPDU.other` so a server can still answer
/// "Request Not Supported" for them.
public enum ATTOpcode: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case errorResponse = 0x01
    case exchangeMTURequest = 0x02
    case exchangeMTUResponse = 0x03
    case findInformationRequest = 0x04
    case findInformationResponse = 0x05
    case findByTypeValueRequest = 0x06
    case findByTypeValueResponse = 0x07
    case readByTypeRequest = 0x08
    case readByTypeResponse = 0x09
    case readRequest = 0x0A
    case readResponse = 0x0B
    case readBlobRequest = 0x0C
    case readBlobResponse = 0x0D
    case readMultipleRequest = 0x0E
    case readMultipleResponse = 0x0F
    case readByGroupTypeRequest = 0x10
    case readByGroupTypeResponse = 0x11
    case writeRequest = 0x12
    case writeResponse = 0x13
    case prepareWriteRequest = 0x16
    case prepareWriteResponse = 0x17
    case executeWriteRequest = 0x18
    case executeWriteResponse = 0x19
    case readMultipleVariableRequest = 0x20
    case readMultipleVariableResponse = 0x21
    case multipleHandleValueNotification = 0x23
    case handleValueNotification = 0x1B
    case handleValueIndication = 0x1D
    case handleValueConfirmation = 0x1E
    case writeCommand = 0x52
    case signedWriteCommand = 0xD2

    /// The role a PDU with this opcode plays in the protocol.
    public enum Kind: Sendable, Equatable {
        case request, response, command, notification, indication, confirmation
    }

    public var kind: Kind { ATTOpcode.kind(ofRaw: rawValue) }

    /// The method kind of any raw opcode, known or not (used to decide how an
    /// unknown PDU is answered: unknown requests get "Request Not Supported",
    /// unknown commands are ignored).
    public static func kind(ofRaw raw: UInt8) -> Kind {
        if raw & 0x40 != 0 { return .command }
        switch raw {
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21:
            return .response
        case 0x1B, 0x23: return .notification
        case 0x1D: return .indication
        case 0x1E: return .confirmation
        default: return .request
        }
    }

    /// For a request opcode, the opcode of its successful response.
    public var responseOpcode: ATTOpcode? {
        guard kind == .request else { return nil }
        return ATTOpcode(rawValue: rawValue + 1)
    }

    public var description: String {
        switch self {
        case .errorResponse: "Error Response"
        case .exchangeMTURequest: "Exchange MTU Request"
        case .exchangeMTUResponse: "Exchange MTU Response"
        case .findInformationRequest: "Find Information Request"
        case .findInformationResponse: "Find Information Response"
        case .findByTypeValueRequest: "Find By Type Value Request"
        case .findByTypeValueResponse: "Find By Type Value Response"
        case .readByTypeRequest: "Read By Type Request"
        case .readByTypeResponse: "Read By Type Response"
        case .readRequest: "Read Request"
        case .readResponse: "Read Response"
        case .readBlobRequest: "Read Blob Request"
        case .readBlobResponse: "Read Blob Response"
        case .readMultipleRequest: "Read Multiple Request"
        case .readMultipleResponse: "Read Multiple Response"
        case .readByGroupTypeRequest: "Read By Group Type Request"
        case .readByGroupTypeResponse: "Read By Group Type Response"
        case .writeRequest: "Write Request"
        case .writeResponse: "Write Response"
        case .prepareWriteRequest: "Prepare Write Request"
        case .prepareWriteResponse: "Prepare Write Response"
        case .executeWriteRequest: "Execute Write Request"
        case .executeWriteResponse: "Execute Write Response"
        case .readMultipleVariableRequest: "Read Multiple Variable Request"
        case .readMultipleVariableResponse: "Read Multiple Variable Response"
        case .multipleHandleValueNotification: "Multiple Handle Value Notification"
        case .handleValueNotification: "Handle Value Notification"
        case .handleValueIndication: "Handle Value Indication"
        case .handleValueConfirmation: "Handle Value Confirmation"
        case .writeCommand: "Write Command"
        case .signedWriteCommand: "Signed Write Command"
        }
    }
}
