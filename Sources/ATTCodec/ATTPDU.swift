/// Any decoded ATT PDU. Decoding does not copy: PDUs that carry values
/// reference the decoded bytes and are valid only while those bytes are.
public enum ATTPDU {
    case errorResponse(ATTErrorResponse)
    case exchangeMTURequest(ATTExchangeMTURequest)
    case exchangeMTUResponse(ATTExchangeMTUResponse)
    case findInformationRequest(ATTFindInformationRequest)
    case findInformationResponse(ATTFindInformationResponse)
    case findByTypeValueRequest(ATTFindByTypeValueRequest)
    case findByTypeValueResponse(ATTFindByTypeValueResponse)
    case readByTypeRequest(ATTReadByTypeRequest)
    case readByTypeResponse(ATTReadByTypeResponse)
    case readRequest(ATTReadRequest)
    case readResponse(ATTReadResponse)
    case readBlobRequest(ATTReadBlobRequest)
    case readBlobResponse(ATTReadBlobResponse)
    case readMultipleRequest(ATTReadMultipleRequest)
    case readMultipleResponse(ATTReadMultipleResponse)
    case readByGroupTypeRequest(ATTReadByGroupTypeRequest)
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    case writeRequest(ATTWriteRequest)
    case writeResponse(ATTWriteResponse)
    case writeCommand(ATTWriteCommand)
    case signedWriteCommand(ATTSignedWriteCommand)
    case prepareWriteRequest(ATTPrepareWriteRequest)
    case prepareWriteResponse(ATTPrepareWriteResponse)
    case executeWriteRequest(ATTExecuteWriteRequest)
    case executeWriteResponse(ATTExecuteWriteResponse)
    case handleValueNotification(ATTHandleValueNotification)
    case handleValueIndication(ATTHandleValueIndication)
    case handleValueConfirmation(ATTHandleValueConfirmation)
    /// An opcode this stack does not decode (EATT's multiple-value PDUs,
    /// reserved values). A server answers unknown requests with
    /// "Request Not Supported" and ignores unknown commands.
    case other(opcode: UInt8, parameters: UnsafeRawBufferPointer)

    /// Decodes one PDU. `mtu` is the link's current ATT_MTU: a longer PDU is
    /// rejected before anything else is looked at.
    public static func decode(_ pdu: UnsafeRawBufferPointer, mtu: Int = ATT.maximumMTU) throws(ATTPDUError) -> ATTPDU {
        guard let raw = pdu.first else { throw .empty }
        if pdu.count > mtu { throw .exceedsMTU(length: pdu.count, mtu: mtu) }
        var r = ATTReader(UnsafeRawBufferPointer(rebasing: pdu[1...]), opcode: raw)
        guard let op = ATTOpcode(rawValue: raw) else { return .other(opcode: raw, parameters: r.rest()) }
        switch op {
        case .errorResponse: return .errorResponse(try .init(parameters: &r))
        case .exchangeMTURequest: return .exchangeMTURequest(try .init(parameters: &r))
        case .exchangeMTUResponse: return .exchangeMTUResponse(try .init(parameters: &r))
        case .findInformationRequest: return .findInformationRequest(try .init(parameters: &r))
        case .findInformationResponse: return .findInformationResponse(try .init(parameters: &r))
        case .findByTypeValueRequest: return .findByTypeValueRequest(try .init(parameters: &r))
        case .findByTypeValueResponse: return .findByTypeValueResponse(try .init(parameters: &r))
        case .readByTypeRequest: return .readByTypeRequest(try .init(parameters: &r))
        case .readByTypeResponse: return .readByTypeResponse(try .init(parameters: &r))
        case .readRequest: return .readRequest(try .init(parameters: &r))
        case .readResponse: return .readResponse(try .init(parameters: &r))
        case .readBlobRequest: return .readBlobRequest(try .init(parameters: &r))
        case .readBlobResponse: return .readBlobResponse(try .init(parameters: &r))
        case .readMultipleRequest: return .readMultipleRequest(try .init(parameters: &r))
        case .readMultipleResponse: return .readMultipleResponse(try .init(parameters: &r))
        case .readByGroupTypeRequest: return .readByGroupTypeRequest(try .init(parameters: &r))
        case .readByGroupTypeResponse: return .readByGroupTypeResponse(try .init(parameters: &r))
        case .writeRequest: return .writeRequest(try .init(parameters: &r))
        case .writeResponse: return .writeResponse(try .init(parameters: &r))
        case .writeCommand: return .writeCommand(try .init(parameters: &r))
        case .signedWriteCommand: return .signedWriteCommand(try .init(parameters: &r))
        case .prepareWriteRequest: return .prepareWriteRequest(try .init(parameters: &r))
        case .prepareWriteResponse: return .prepareWriteResponse(try .init(parameters: &r))
        case .executeWriteRequest: return .executeWriteRequest(try .init(parameters: &r))
        case .executeWriteResponse: return .executeWriteResponse(try .init(parameters: &r))
        case .handleValueNotification: return .handleValueNotification(try .init(parameters: &r))
        case .handleValueIndication: return .handleValueIndication(try .init(parameters: &r))
        case .handleValueConfirmation: return .handleValueConfirmation(try .init(parameters: &r))
        case .readMultipleVariableRequest, .readMultipleVariableResponse, .multipleHandleValueNotification:
            return .other(opcode: raw, parameters: r.rest())
        }
    }

    /// Convenience for tests and tools; `body` sees the PDU only while the
    /// array's storage is pinned.
    public static func decode<R>(
        _ bytes: [UInt8], mtu: Int = ATT.maximumMTU, _ body: (ATTPDU) throws -> R
    ) throws -> R {
        try bytes.withUnsafeBytes { buf in try body(try ATTPDU.decode(buf, mtu: mtu)) }
    }

    /// The raw opcode byte.
    public var opcode: UInt8 {
        switch self {
        case .errorResponse: ATTErrorResponse.opcode.rawValue
        case .exchangeMTURequest: ATTExchangeMTURequest.opcode.rawValue
        case .exchangeMTUResponse: ATTExchangeMTUResponse.opcode.rawValue
        case .findInformationRequest: ATTFindInformationRequest.opcode.rawValue
        case .findInformationResponse: ATTFindInformationResponse.opcode.rawValue
        case .findByTypeValueRequest: ATTFindByTypeValueRequest.opcode.rawValue
        case .findByTypeValueResponse: ATTFindByTypeValueResponse.opcode.rawValue
        case .readByTypeRequest: ATTReadByTypeRequest.opcode.rawValue
        case .readByTypeResponse: ATTReadByTypeResponse.opcode.rawValue
        case .readRequest: ATTReadRequest.opcode.rawValue
        case .readResponse: ATTReadResponse.opcode.rawValue
        case .readBlobRequest: ATTReadBlobRequest.opcode.rawValue
        case .readBlobResponse: ATTReadBlobResponse.opcode.rawValue
        case .readMultipleRequest: ATTReadMultipleRequest.opcode.rawValue
        case .readMultipleResponse: ATTReadMultipleResponse.opcode.rawValue
        case .readByGroupTypeRequest: ATTReadByGroupTypeRequest.opcode.rawValue
        case .readByGroupTypeResponse: ATTReadByGroupTypeResponse.opcode.rawValue
        case .writeRequest: ATTWriteRequest.opcode.rawValue
        case .writeResponse: ATTWriteResponse.opcode.rawValue
        case .writeCommand: ATTWriteCommand.opcode.rawValue
        case .signedWriteCommand: ATTSignedWriteCommand.opcode.rawValue
        case .prepareWriteRequest: ATTPrepareWriteRequest.opcode.rawValue
        case .prepareWriteResponse: ATTPrepareWriteResponse.opcode.rawValue
        case .executeWriteRequest: ATTExecuteWriteRequest.opcode.rawValue
        case .executeWriteResponse: ATTExecuteWriteResponse.opcode.rawValue
        case .handleValueNotification: ATTHandleValueNotification.opcode.rawValue
        case .handleValueIndication: ATTHandleValueIndication.opcode.rawValue
        case .handleValueConfirmation: ATTHandleValueConfirmation.opcode.rawValue
        case .other(let op, _): op
        }
    }
}
