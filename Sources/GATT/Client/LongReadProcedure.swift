import ATTCodec

/// Reads a value whole (Core Specification Vol 3 Part G 4.8.3, "Read Long
/// Characteristic Values"): a Read Request, then Read Blob Requests at
/// increasing offsets while a response fills the PDU (ATT_MTU − 1 bytes),
/// into storage made once. An Attribute Not Long or Invalid Offset error
/// after the first part ends the value there.
///
/// One read runs at a time per procedure. Its handlers are made once, so a
/// read allocates nothing: the form for values read again and again (AMS's
/// truncated titles). `GATTClient.read` runs one per call for one-off reads.
public final class LongReadProcedure {
    /// What a read ends with: the value (valid during the call), or why not.
    public typealias Completion = (Result<UnsafeRawBufferPointer, GATTError>) -> Void

    private unowned(unsafe) let client: GATTClient
    private let storage: UnsafeMutableRawBufferPointer
    private let completion: Completion
    private var step: ATTResponseHandler!
    private var handle: UInt16 = 0
    private var count = 0
    private var limit = 0

    /// - Parameter completion: called once per read that `start` began.
    public init(client: GATTClient, completion: @escaping Completion) {
        self.client = client
        self.completion = completion
        storage = .allocate(byteCount: ATT.maximumAttributeValueLength, alignment: 1)
        step = { [unowned(unsafe) self] outcome in self.received(outcome) }
    }

    deinit { storage.deallocate() }

    /// Reads `handle`, at most `limit` bytes (512, an attribute's longest
    /// value, at most). Throws when the first request cannot be queued (no
    /// completion follows then).
    public func start(handle: UInt16, limit: Int = ATT.maximumAttributeValueLength) throws(ATTBearerError) {
        self.handle = handle
        count = 0
        self.limit = min(limit, storage.count)
        try client.bearer.send(request: ATTReadRequest(handle: handle), handler: step)
    }

    private func received(_ outcome: ATTRequestOutcome) {
        let part: UnsafeRawBufferPointer
        switch outcome {
        case .response(.readResponse(let r)): part = r.value
        case .response(.readBlobResponse(let r)): part = r.value
        case .error(let e) where count > 0 && (e.error == .attributeNotLong || e.error == .invalidOffset):
            return finish()
        default:
            let error = GATTError(outcome) ?? .invalidResponse("unexpected response to read")
            client.noteOutOfSync(error)
            return completion(.failure(error))
        }
        let n = min(part.count, storage.count - count)
        if n > 0 {
            UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + n)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: part[0..<n]))
        }
        count += n
        guard part.count == client.bearer.mtu - 1, count < limit else { return finish() }
        do throws(ATTBearerError) {
            try client.bearer.send(request: ATTReadBlobRequest(handle: handle, offset: UInt16(count)), handler: step)
        } catch {
            completion(.failure(.bearer(error)))
        }
    }

    private func finish() {
        completion(.success(UnsafeRawBufferPointer(rebasing: storage[0..<count])))
    }
}
