import ATTCodec

/// Writes a value longer than ATT_MTU − 3 (Core Specification Vol 3 Part G
/// 4.9.4, "Write Long Characteristic Values"): Prepare Write Requests of
/// ATT_MTU − 5 bytes each at increasing offsets, then Execute Write.
///
/// All parts are queued on the bearer at once (each is copied into the
/// bearer's request arena, so the caller's buffer may be reused at once),
/// which needs that many free request slots. One long write runs at a time.
/// A failed part cancels the parts still queued, tells the server to drop
/// what it prepared (Execute Write, cancel), and reports the failure.
/// Long writes are rare (an ANCS Get App Attributes for a long bundle
/// identifier, once per app and session); they allocate a little.
final class LongWriteProcedure {
    private unowned(unsafe) let bearer: ATTBearer
    private var pending: [ATTRequestID] = []
    private var handler: ATTResponseHandler?
    private var running = false
    private var partHandler: ATTResponseHandler!
    private var executeHandler: ATTResponseHandler!

    init(bearer: ATTBearer) {
        self.bearer = bearer
        partHandler = { [unowned(unsafe) self] outcome in self.partWritten(outcome) }
        executeHandler = { [unowned(unsafe) self] outcome in self.finish(outcome) }
    }

    /// True while a long write is in flight.
    var isRunning: Bool { running }

    func write(handle: UInt16, value: UnsafeRawBufferPointer, then handler: ATTResponseHandler?) throws(ATTBearerError) -> ATTRequestID {
        guard !running else { throw .queueFull }
        guard value.count <= ATT.maximumAttributeValueLength else {
            // An attribute value is at most 512 bytes, however it is written.
            throw .encoding(.exceedsMTU(length: value.count, mtu: ATT.maximumAttributeValueLength))
        }
        let chunk = bearer.mtu - 5
        let parts = (value.count + chunk - 1) / chunk
        guard bearer.pendingRequestCount + parts + 1 <= bearer.configuration.requestQueueCapacity else { throw .queueFull }
        running = true
        self.handler = handler
        pending.removeAll(keepingCapacity: true)
        var offset = 0
        do throws(ATTBearerError) {
            while offset < value.count {
                let end = min(value.count, offset + chunk)
                let part = UnsafeRawBufferPointer(rebasing: value[offset..<end])
                pending.append(try bearer.send(
                    request: ATTPrepareWriteRequest(handle: handle, offset: UInt16(offset), value: part), handler: partHandler))
                offset = end
            }
            let id = try bearer.send(request: ATTExecuteWriteRequest(flags: .writeAll), handler: executeHandler)
            pending.append(id)
            return id
        } catch {
            // Only a closing link fails here (the slots were counted): undo what was queued.
            abandon(nil)
            throw error
        }
    }

    private func partWritten(_ outcome: ATTRequestOutcome) {
        guard running else { return }
        if case .response(.prepareWriteResponse) = outcome { return }
        abandon(outcome)
        // The server may hold the parts it accepted: tell it to drop them.
        if !bearer.isClosed { _ = try? bearer.send(request: ATTExecuteWriteRequest(flags: .cancelAll), handler: nil) }
    }

    private func abandon(_ outcome: ATTRequestOutcome?) {
        let ids = pending
        let reply = handler
        running = false
        handler = nil
        pending.removeAll(keepingCapacity: true)
        // Last first: cancelling the head lets the bearer send the next
        // request at once, which must already be marked cancelled.
        for id in ids.reversed() { bearer.cancel(id) }
        if let outcome { reply?(outcome) }
    }

    private func finish(_ outcome: ATTRequestOutcome) {
        guard running else { return }
        let reply = handler
        running = false
        handler = nil
        pending.removeAll(keepingCapacity: true)
        reply?(outcome)
    }
}
