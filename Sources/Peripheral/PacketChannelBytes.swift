import HAL

/// `[UInt8]` conveniences for the mgmt path (not a hot path), keeping the
/// typed `HALError` through the buffer closures.
extension PacketChannel {
    func send(bytes: [UInt8]) throws(HALError) -> PacketSendResult {
        var result: Result<PacketSendResult, HALError> = .success(.sent)
        bytes.withUnsafeBytes { b in
            do throws(HALError) { result = .success(try self.send(b)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    func receive(into buffer: inout [UInt8]) throws(HALError) -> PacketReceiveResult {
        var result: Result<PacketReceiveResult, HALError> = .success(.wouldBlock)
        buffer.withUnsafeMutableBytes { b in
            do throws(HALError) { result = .success(try self.receive(into: b)) } catch { result = .failure(error) }
        }
        return try result.get()
    }
}
