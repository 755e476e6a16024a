import ANCS
import Notifications
import ATTCodec
import GATT
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import PhoneServices
import SimBoard
import Testing

@Suite("ATT bearer over a SEQPACKET socket pair")
struct BearerTests {
    @Test func clientMTUExchangeSetsTheSmallerMTU() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        var mtus: [Int] = []
        bearer.mtuHandler = { mtus.append($0) }
        try bearer.exchangeMTU()
        try link.run([
            .watch(pdu(0x02, 0x05, 0x02)),  // we offer 517
            .peer(pdu(0x03, 0xB9, 0x00)),  // the phone offers 185
        ])
        try link.run(until: { bearer.mtu == 185 })
        #expect(bearer.mtu == 185)
        #expect(mtus == [185])
        #expect(bearer.mtuExchanged)
    }

    @Test func peerMTUBelowMinimumIsTreatedAs23() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        try link.run([.peer(pdu(0x02, 0x10, 0x00)), .watch(pdu(0x03, 0x05, 0x02))])
        #expect(bearer.mtu == 23)
    }

    @Test func oneOutstandingRequestAtATimeTheRestQueued() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x0003), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 0x0005), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 0x0007), handler: box.handler)
        #expect(bearer.pendingRequestCount == 3)
        try link.expect(pdu(0x0A, 0x03, 0x00))
        #expect(try link.settle() == nil, "second request must wait for the first response")
        try link.run([
            .peer(pdu(0x0B, 0x41)),
            .watch(pdu(0x0A, 0x05, 0x00)),
            .peer(pdu(0x01, 0x0A, 0x05, 0x00, 0x02)),
            .watch(pdu(0x0A, 0x07, 0x00)),
            .peer(pdu(0x0B)),
        ])
        try link.run(until: { box.outcomes.count == 3 })
        #expect(box.outcomes == [.response([0x0B, 0x41]), .error(.readNotPermitted, 5), .response([0x0B])])
        #expect(bearer.pendingRequestCount == 0)
    }

    @Test func queueCapacityIsFixed() throws {
        let link = try RawLink()
        var config = ATTBearer.Configuration()
        config.requestQueueCapacity = 2
        let bearer = ATTBearer(channel: link.watch, loop: link.loop, configuration: config)
        try bearer.start()
        try bearer.send(request: ATTReadRequest(handle: 1), handler: nil)
        try bearer.send(request: ATTReadRequest(handle: 2), handler: nil)
        #expect(throws: ATTBearerError.queueFull) { try bearer.send(request: ATTReadRequest(handle: 3), handler: nil) }
    }

    @Test func requestsLongerThanMTUAreRefused() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let value = [UInt8](repeating: 1, count: 21)  // 3 + 21 = 24 > 23
        #expect(throws: ATTBearerError.encoding(.exceedsMTU(length: 24, mtu: 23))) {
            try value.withUnsafeBytes { try bearer.send(request: ATTWriteRequest(handle: 9, value: $0), handler: nil) }
        }
        #expect(throws: ATTBearerError.wrongPDUKind(0x13)) { try bearer.send(request: ATTWriteResponse(), handler: nil) }
    }

    @Test func transactionTimeoutClosesTheLinkAfter30Seconds() throws {
        let link = try RawLink(manualClock: true)
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        var closed: [ATTBearerError] = []
        bearer.closeHandler = { closed.append($0) }
        try bearer.send(request: ATTReadRequest(handle: 0x0003), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 0x0004), handler: box.handler)
        try link.expect(pdu(0x0A, 0x03, 0x00))
        link.loop.advanceClock(by: .seconds(29))
        #expect(!bearer.isClosed)
        #expect(box.outcomes.isEmpty)
        link.loop.advanceClock(by: .seconds(1))
        #expect(bearer.isClosed)
        #expect(closed == [.transactionTimeout])
        #expect(box.outcomes == [.failed(.transactionTimeout), .failed(.transactionTimeout)])
        // The peer sees the link go down, and nothing more may be sent.
        #expect(try link.receive() == [])
        #expect(throws: ATTBearerError.linkClosed) { try bearer.send(request: ATTReadRequest(handle: 5), handler: nil) }
    }

    @Test func aResponseInTimeDisarmsTheTimeout() throws {
        let link = try RawLink(manualClock: true)
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x0003), handler: box.handler)
        try link.expect(pdu(0x0A, 0x03, 0x00))
        link.loop.advanceClock(by: .seconds(20))
        try link.send(pdu(0x0B, 0x01))
        try link.run(until: { box.outcomes.count == 1 })
        link.loop.advanceClock(by: .seconds(60))
        #expect(!bearer.isClosed)
    }

    @Test func unconfirmedIndicationTimesOutToo() throws {
        let link = try RawLink(manualClock: true)
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        var result: [ATTBearerError?] = []
        try [UInt8](arrayLiteral: 1, 0, 0xFF, 0xFF).withUnsafeBytes {
            try bearer.indicate(handle: 0x0008, value: $0) { result.append($0) }
        }
        try bearer.indicate(handle: 0x0008, value: UnsafeRawBufferPointer(start: nil, count: 0)) { result.append($0) }
        try link.expect(pdu(0x1D, 0x08, 0x00, 0x01, 0x00, 0xFF, 0xFF))
        #expect(try link.settle() == nil, "second indication waits for the confirmation")
        try link.send(pdu(0x1E))
        try link.expect(pdu(0x1D, 0x08, 0x00))
        #expect(result.count == 1 && result[0] == nil)
        link.loop.advanceClock(by: .seconds(30))
        #expect(bearer.isClosed)
        #expect(result.count == 2 && result[1] == .transactionTimeout)
    }

    @Test func receivedIndicationsAreConfirmed() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        var seen: [(UInt16, [UInt8])] = []
        bearer.indicationHandler = { h, v in seen.append((h, Array(v))) }
        try link.run([.peer(pdu(0x1D, 0x08, 0x00, 0x30, 0x00, 0x40, 0x00)), .watch(pdu(0x1E))])
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 8)
        #expect(seen.first?.1 == [0x30, 0x00, 0x40, 0x00])
    }

    @Test func notificationsReachTheHandlerWithoutAnswer() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        var seen: [[UInt8]] = []
        bearer.notificationHandler = { h, v in seen.append(le16(h) + Array(v)) }
        try link.send(pdu(0x1B, 0x30, 0x00, 0x00, 0x18, 0x04, 0x01, 0x01, 0x00, 0x00, 0x00))
        try link.run(until: { seen.count == 1 })
        #expect(seen == [[0x30, 0x00, 0x00, 0x18, 0x04, 0x01, 0x01, 0x00, 0x00, 0x00]])
        #expect(try link.settle() == nil)
    }

    @Test func serverSideAnswersMTUExchangeAndReadsWhileAClientRequestIsOutstanding() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        let (server, handles) = WatchGATTDatabase.makeServer(deviceName: "WristCore", security: nil)
        server.attach(to: bearer)
        try bearer.start()
        let box = OutcomeBox()
        // Our client request is on the air and unanswered ...
        try bearer.send(request: ATTReadByTypeRequest(range: .all, type: .currentTime), handler: box.handler)
        try link.expect(pdu(0x08, 0x01, 0x00, 0xFF, 0xFF, 0x2B, 0x2A))
        // ... when iOS sends its Exchange MTU and reads our name: both answered at once.
        try link.run([
            .peer(pdu(0x02, 0xB9, 0x00)),
            .watch(pdu(0x03, 0x05, 0x02)),
            .peer(pdu(0x0A) + le16(handles.deviceName)),
            .watch(pdu(0x0B) + Array("WristCore".utf8)),
            .peer(pdu(0x08, 0x01, 0x00, 0xFF, 0xFF, 0x01, 0x2A)),
            .watch(pdu(0x09, 0x04) + le16(handles.appearance) + pdu(0xC0, 0x00)),
        ])
        #expect(bearer.mtu == 185)
        #expect(box.outcomes.isEmpty)
        // Now the phone answers our request.
        try link.send(pdu(0x01, 0x08, 0x01, 0x00, 0x0A))
        try link.run(until: { box.outcomes.count == 1 })
        #expect(box.outcomes == [.error(.attributeNotFound, 1)])
    }

    @Test func requestsWithoutAServerGetRequestNotSupported() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        try link.run([
            .peer(pdu(0x0A, 0x01, 0x00)),
            .watch(pdu(0x01, 0x0A, 0x00, 0x00, 0x06)),
            .peer(pdu(0x30, 0x01)),  // unknown request opcode
            .watch(pdu(0x01, 0x30, 0x00, 0x00, 0x06)),
            .peer(pdu(0x7F, 0x01)),  // unknown command: ignored
            .peer(pdu(0x0A, 0x01)),  // malformed request
            .watch(pdu(0x01, 0x0A, 0x00, 0x00, 0x04)),
        ])
        #expect(try link.settle() == nil)
    }

    @Test func requestsLongerThanMTUGetInvalidPDU() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let long = pdu(0x12, 0x03, 0x00) + [UInt8](repeating: 0x55, count: 30)
        try link.run([.peer(long), .watch(pdu(0x01, 0x12, 0x00, 0x00, 0x04))])
        #expect(bearer.statistics.oversizedReceived == 1)
        // Notifications that are too long are dropped.
        var seen = 0
        bearer.notificationHandler = { _, _ in seen += 1 }
        try link.send(pdu(0x1B, 0x03, 0x00) + [UInt8](repeating: 0x55, count: 30))
        #expect(try link.settle() == nil)
        #expect(seen == 0)
        #expect(bearer.statistics.oversizedReceived == 2)
    }

    @Test func unexpectedResponseClosesTheLink() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        var closed: [ATTBearerError] = []
        bearer.closeHandler = { closed.append($0) }
        try link.send(pdu(0x0B, 0x01))
        try link.run(until: { bearer.isClosed })
        #expect(closed.count == 1)
        if case .protocolViolation = closed.first {} else { Issue.record("expected a protocol violation, got \(closed)") }
    }

    @Test func mismatchedResponseClosesTheLink() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 3), handler: box.handler)
        try link.expect(pdu(0x0A, 0x03, 0x00))
        try link.send(pdu(0x13))  // a Write Response to a Read Request
        try link.run(until: { bearer.isClosed })
        #expect(box.outcomes.count == 1)
        if case .failed(.protocolViolation) = box.outcomes.first {} else { Issue.record("got \(box.outcomes)") }
    }

    @Test func malformedResponseFailsTheRequestOnly() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTFindInformationRequest(range: .all), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 3), handler: box.handler)
        try link.run([
            .watch(pdu(0x04, 0x01, 0x00, 0xFF, 0xFF)),
            .peer(pdu(0x05, 0x07, 0x01, 0x00)),  // format 7 does not exist
            .watch(pdu(0x0A, 0x03, 0x00)),
        ])
        #expect(box.outcomes == [.failed(.malformedResponse(.invalidField(opcode: 0x05, field: .format)))])
        #expect(!bearer.isClosed)
    }

    @Test func peerHangUpFailsEveryPendingRequest() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 3), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 4), handler: box.handler)
        try link.expect(pdu(0x0A, 0x03, 0x00))
        link.peer.close()
        try link.run(until: { bearer.isClosed })
        #expect(box.outcomes == [.failed(.linkClosed), .failed(.linkClosed)])
        #expect(bearer.closeReason == .linkClosed)
    }

    @Test func cancelledRequestsAreNeverSentAndTheirResponsesIgnored() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        let first = try bearer.send(request: ATTReadRequest(handle: 3), handler: box.handler)
        let second = try bearer.send(request: ATTReadRequest(handle: 4), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 5), handler: box.handler)
        try link.expect(pdu(0x0A, 0x03, 0x00))
        bearer.cancel(second)
        bearer.cancel(first)
        #expect(box.outcomes == [.failed(.cancelled), .failed(.cancelled)])
        try link.run([.peer(pdu(0x0B, 0x01)), .watch(pdu(0x0A, 0x05, 0x00)), .peer(pdu(0x0B, 0x02))])
        try link.run(until: { box.outcomes.count == 3 })
        #expect(box.outcomes.last == .response([0x0B, 0x02]))
    }

    // MARK: - security elevation

    @Test func insufficientAuthenticationRaisesSecurityAndRetriesTheSameRequest() throws {
        let link = try RawLink()
        let security = ManualSecurity()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop, security: security)
        try bearer.start()
        let box = OutcomeBox()
        var levels: [LinkSecurityLevel] = []
        bearer.securityHandler = { levels.append($0) }
        _ = try pdu(0x01, 0x00).withUnsafeBytes { try bearer.send(request: ATTWriteRequest(handle: 0x33, value: $0), handler: box.handler) }
        try link.run([
            .watch(pdu(0x12, 0x33, 0x00, 0x01, 0x00)),
            .peer(pdu(0x01, 0x12, 0x33, 0x00, 0x05)),
        ])
        try link.run(until: { !security.requested.isEmpty })
        #expect(security.requested == [.encrypted])
        #expect(box.outcomes.isEmpty, "the request waits for the link, it has not failed")
        #expect(try link.settle() == nil)
        security.complete(.encrypted)
        try link.run([.watch(pdu(0x12, 0x33, 0x00, 0x01, 0x00)), .peer(pdu(0x13))])
        try link.run(until: { box.outcomes.count == 1 })
        #expect(box.outcomes == [.response([0x13])])
        #expect(levels == [.encrypted])
        #expect(bearer.statistics.securityRetries == 1)
    }

    @Test func insufficientEncryptionAsksForAnEncryptedLink() throws {
        let link = try RawLink()
        let security = ManualSecurity()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop, security: security)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x40), handler: box.handler)
        try link.run([.watch(pdu(0x0A, 0x40, 0x00)), .peer(pdu(0x01, 0x0A, 0x40, 0x00, 0x0F))])
        try link.run(until: { !security.requested.isEmpty })
        #expect(security.requested == [.encrypted])
    }

    @Test func failedPairingDeliversTheOriginalErrorAndTheQueueMovesOn() throws {
        let link = try RawLink()
        let security = ManualSecurity()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop, security: security)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x40), handler: box.handler)
        try bearer.send(request: ATTReadRequest(handle: 0x41), handler: box.handler)
        try link.run([.watch(pdu(0x0A, 0x40, 0x00)), .peer(pdu(0x01, 0x0A, 0x40, 0x00, 0x05))])
        try link.run(until: { !security.requested.isEmpty })
        security.complete(.none)  // the user declined
        try link.expect(pdu(0x0A, 0x41, 0x00))
        #expect(box.outcomes == [.error(.insufficientAuthentication, 0x40)])
    }

    @Test func aSecondSecurityErrorAfterTheRetryIsDelivered() throws {
        let link = try RawLink()
        let security = ManualSecurity()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop, security: security)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x40), handler: box.handler)
        try link.run([.watch(pdu(0x0A, 0x40, 0x00)), .peer(pdu(0x01, 0x0A, 0x40, 0x00, 0x05))])
        try link.run(until: { !security.requested.isEmpty })
        security.complete(.encrypted)
        try link.run([.watch(pdu(0x0A, 0x40, 0x00)), .peer(pdu(0x01, 0x0A, 0x40, 0x00, 0x05))])
        try link.run(until: { box.outcomes.count == 1 })
        #expect(box.outcomes == [.error(.insufficientAuthentication, 0x40)])
        #expect(security.requested == [.encrypted], "one retry per request, no loop")
    }

    @Test func withoutSecurityControlTheErrorIsDeliveredDirectly() throws {
        let link = try RawLink()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x40), handler: box.handler)
        try link.run([.watch(pdu(0x0A, 0x40, 0x00)), .peer(pdu(0x01, 0x0A, 0x40, 0x00, 0x05))])
        try link.run(until: { box.outcomes.count == 1 })
        #expect(box.outcomes == [.error(.insufficientAuthentication, 0x40)])
    }

    @Test func securityThatNeverCompletesTimesOutWithTheError() throws {
        let link = try RawLink(manualClock: true)
        let security = ManualSecurity()
        let bearer = ATTBearer(channel: link.watch, loop: link.loop, security: security)
        try bearer.start()
        let box = OutcomeBox()
        try bearer.send(request: ATTReadRequest(handle: 0x40), handler: box.handler)
        try link.run([.watch(pdu(0x0A, 0x40, 0x00)), .peer(pdu(0x01, 0x0A, 0x40, 0x00, 0x05))])
        try link.run(until: { !security.requested.isEmpty })
        link.loop.advanceClock(by: .seconds(61))
        #expect(box.outcomes == [.error(.insufficientAuthentication, 0x40)])
        #expect(!bearer.isClosed)
    }
}
