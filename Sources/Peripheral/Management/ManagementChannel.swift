import HAL

/// Typed mgmt commands and events over any packet channel: the kernel's
/// management socket (LinuxHAL) or a socket-pair fake in tests.
extension PacketChannel {
    /// Sends a command by opcode, controller index and parameter bytes.
    public func send(_ opcode: ManagementOpcode, index: UInt16, parameters: [UInt8]) throws(HALError) -> PacketSendResult {
        let packet = ManagementPacket.command(opcode, index: index, parameters: parameters)
        var result: Result<PacketSendResult, HALError> = .success(.sent)
        packet.withUnsafeBytes { b in
            do throws(HALError) { result = .success(try self.send(b)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Sends a typed command.
    public func send(_ command: some ManagementCommand, index: UInt16) throws(HALError) -> PacketSendResult {
        try send(command.opcode, index: index, parameters: command.encodeParameters())
    }

    /// Reads one event without blocking: its code, controller index and
    /// parameters (a slice of `buffer`); nil when none is waiting or it is malformed.
    public func readEvent(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> (code: UInt16, index: UInt16, parameters: UnsafeRawBufferPointer)? {
        guard case .packet(let n) = try receive(into: buffer) else { return nil }
        return ManagementPacket.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
}

extension BlockingPacketChannel {
    /// For command-line tools without a run loop (`wristcore doctor`,
    /// `wristcore forget`): sends `command` and waits up to `timeout` for its
    /// Command Complete / Command Status, skipping other events. Returns the
    /// status byte and return parameters.
    public func query(_ command: some ManagementCommand, index: UInt16, timeout: Duration = .seconds(2)) throws(HALError) -> (status: UInt8, parameters: [UInt8]) {
        let what = "\(command.opcode) on hci\(index)"
        guard try send(command, index: index) == .sent else {
            throw HALError(operation: what, errno: 11, reason: "the management socket is busy")
        }
        // Unrelated events may arrive meanwhile: at most this many are skipped,
        // each wait bounded by `timeout`.
        var skipped = 0
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            guard skipped < 256, try waitReadable(timeout: timeout) else {
                throw HALError(operation: what, errno: 110, reason: "timed out", hint: "the kernel did not answer; check 'dmesg' for Bluetooth errors")
            }
            while true {
                var result: Result<PacketReceiveResult, HALError> = .success(.wouldBlock)
                buffer.withUnsafeMutableBytes { b in
                    do throws(HALError) { result = .success(try receive(into: b)) } catch { result = .failure(error) }
                }
                guard case .packet(let n) = try result.get() else { break }
                let answer: (UInt8, [UInt8])? = buffer.withUnsafeBytes { b in
                    guard let decoded = ManagementEvent.decode(packet: UnsafeRawBufferPointer(rebasing: b[0..<n])),
                          decoded.index == index else { return nil }
                    switch decoded.event {
                    case .commandComplete(let op, let status, let params) where op == command.opcode.rawValue: return (status, params)
                    case .commandStatus(let op, let status) where op == command.opcode.rawValue: return (status, [])
                    default: return nil
                    }
                }
                if let answer { return answer }
                skipped += 1
            }
        }
    }
}
