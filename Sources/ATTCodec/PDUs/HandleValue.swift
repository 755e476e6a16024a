/// Handle Value Notification (0x1B): the server pushes a value, unconfirmed.
public struct ATTHandleValueNotification: ATTHandleValueShape {
    public static let opcode = ATTOpcode.handleValueNotification
    public var handle: UInt16
    public var value: UnsafeRawBufferPointer
    public init(handle: UInt16, value: UnsafeRawBufferPointer) {
        self.handle = handle
        self.value = value
    }
}

/// Handle Value Indication (0x1D): like a notification, but the client must
/// answer with a Handle Value Confirmation before the next indication.
public struct ATTHandleValueIndication: ATTHandleValueShape {
    public static let opcode = ATTOpcode.handleValueIndication
    public var handle: UInt16
    public var value: UnsafeRawBufferPointer
    public init(handle: UInt16, value: UnsafeRawBufferPointer) {
        self.handle = handle
        self.value = value
    }
}

/// Handle Value Confirmation (0x1E): no parameters.
public struct ATTHandleValueConfirmation: ATTPDUProtocol, Hashable, Sendable {
    public static let opcode = ATTOpcode.handleValueConfirmation
    public init() {}
    public var length: Int { 1 }
    public func encodeParameters(into w: inout ATTWriter) {}
    public init(parameters r: inout ATTReader) throws(ATTPDUError) { try r.requireExactly(0) }
}
