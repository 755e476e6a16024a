/// Exchange MTU Request (0x02): the client's receive MTU.
public struct ATTExchangeMTURequest: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.exchangeMTURequest
    public var clientRxMTU: UInt16
    public init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }
    public var length: Int { 3 }
    public func encodeParameters(into w: inout ATTWriter) { w.u16(clientRxMTU) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(2)
        clientRxMTU = r.u16()
    }
}

/// Exchange MTU Response (0x03): the server's receive MTU. Both sides then use
/// min(client, server), never less than 23.
public struct ATTExchangeMTUResponse: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.exchangeMTUResponse
    public var serverRxMTU: UInt16
    public init(serverRxMTU: UInt16) { self.serverRxMTU = serverRxMTU }
    public var length: Int { 3 }
    public func encodeParameters(into w: inout ATTWriter) { w.u16(serverRxMTU) }
    public init(parameters r: inout ATTReader) throws(ATTPDUError) {
        try r.requireExactly(2)
        serverRxMTU = r.u16()
    }
}
