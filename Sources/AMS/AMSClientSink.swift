/// Where the AMS client's writes and reads go (the phone session, over
/// GATT; a recorder in tests). Each call returns false when the request
/// could not even be queued (no AMS, ATT queue full, link closed); the
/// outcome of a queued one comes back through the client's `…Written` /
/// `…Read` methods, in order. The bytes are valid only during the call.
public protocol AMSClientSink: AnyObject {
    /// Write With Response to Entity Update (a registration).
    func amsWriteEntityUpdate(_ command: UnsafeRawBufferPointer) -> Bool
    /// Write With Response to Entity Attribute (which value to read next).
    func amsWriteEntityAttribute(_ command: UnsafeRawBufferPointer) -> Bool
    /// Read Entity Attribute (Read, then Read Blob while the response fills
    /// the PDU) until at least `limit` bytes or the end of the value.
    func amsReadEntityAttribute(limit: Int) -> Bool
    /// Write With Response to Remote Command (so the phone's errors come back).
    func amsWriteRemoteCommand(_ command: UnsafeRawBufferPointer) -> Bool
    /// An event for the layers above.
    func amsEvent(_ event: MediaEvent)
}
