import ATTCodec

extension ATTWriter {
    /// Writes a whole PDU, opcode then parameters, with ATTCodec's encoder
    /// for it: the answers the bearer and the server build in place (Error
    /// Responses above all) are not encoded by hand a second time.
    @inline(__always)
    mutating func write<PDU: ATTPDUProtocol>(_ pdu: PDU) {
        u8(PDU.opcode.rawValue)
        pdu.encodeParameters(into: &self)
    }
}
