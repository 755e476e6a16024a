import ATTCodec
import Testing

/// `ATTPDUProtocol.name` stands in for `"\(Self.self)"`, which Embedded Swift cannot print.
@Suite("ATT PDU names")
struct PDUNameTests {
    /// Computed: an array of metatypes is not Sendable, so it cannot be a stored static.
    static var types: [any ATTPDUProtocol.Type] {
        [
            ATTErrorResponse.self, ATTExchangeMTURequest.self, ATTExchangeMTUResponse.self,
            ATTFindInformationRequest.self, ATTFindInformationResponse.self,
            ATTFindByTypeValueRequest.self, ATTFindByTypeValueResponse.self,
            ATTReadByTypeRequest.self, ATTReadByTypeResponse.self, ATTReadRequest.self, ATTReadResponse.self,
            ATTReadBlobRequest.self, ATTReadBlobResponse.self, ATTReadMultipleRequest.self, ATTReadMultipleResponse.self,
            ATTReadByGroupTypeRequest.self, ATTReadByGroupTypeResponse.self, ATTWriteRequest.self, ATTWriteResponse.self,
            ATTWriteCommand.self, ATTSignedWriteCommand.self, ATTPrepareWriteRequest.self, ATTPrepareWriteResponse.self,
            ATTExecuteWriteRequest.self, ATTExecuteWriteResponse.self, ATTHandleValueNotification.self,
            ATTHandleValueIndication.self, ATTHandleValueConfirmation.self,
        ]
    }

    @Test func nameIsTheTypeName() {
        for t in Self.types {
            #expect(t.name == "\(t)")
        }
    }
}
