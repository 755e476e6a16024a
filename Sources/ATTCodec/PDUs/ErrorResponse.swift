/// Error Response (0x01): the request with `requestOpcode` on `handle` failed.
public struct ATTErrorResponse: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.errorResponse
    /// The opcode of the failed request, raw because it may be one we do not know.
    public var requestOpcode: UInt8
    public var handle: UInt16
    public var error: ATTErrorCode

    public init(requestOpcode: UInt8, handle: UInt16, error: ATTErrorCode) {
        self.requestOpcode = requestOpcode
        self.handle = handle
        self.error = error
    }

    public init(request: ATTOpcode, handle: UInt16, error: ATTErrorCode) {
        self.init(requestOpcode: request.rawValue, handle: handle, error: error)
    }

    public var length: Int { 5 }

    public func encodeParameters(into w: inout ATTWriter) {
        w.u8(requestOpcode)
        w.u16(handle)
        w.u8(error.rawValue)
    }

    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(4)
        requestOpcode = r.u8()
        handle = r.u16()
        error = ATTErrorCode(r.u8())
    }
}
