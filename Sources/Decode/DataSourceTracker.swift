import ANCS

/// The ANCS Data Source of one conversation, as the watch would read it:
/// the Control Point commands seen register what to expect with the real
/// `DataSourceAssembler` (pipelined, up to `maxPending`), each notification
/// is fed to it, and what it concludes becomes records. It also says what the
/// assembler alone cannot: how many notifications each response took, the
/// end of a response that lacks only optional attributes (the phone quiet
/// for the watch's own quiet period), and the responses cut off by the end
/// of the capture or of the link.
final class DataSourceTracker {
    /// Requests tracked at once. Past it the oldest is dropped, with a record.
    static let maxPending = 64
    /// Longest AppIdentifier of a Get App Attributes command that is tracked.
    static let appIdentifierCapacity = 1024
    /// How long the Data Source must be quiet before a response that lacks
    /// only optional attributes ends: the watch's own default.
    static let quietMicroseconds: Int64 = {
        let (seconds, attoseconds) = NotificationConsumer.Configuration().optionalAttributesQuietPeriod.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }()

    /// A command whose response is expected.
    struct Request {
        var tag: UInt32
        var command: CommandID
        var uid: NotificationUID?
        var appIdentifier: [UInt8]
        var attributes: AttributeList
        /// The Control Point write that sent it (captures only).
        var position: CapturePosition?
        var direction: DecodedRecord.Direction?

        /// `Get Notification Attributes UID 42 (#19)`.
        var text: String {
            let subject = uid.map { "UID \($0.rawValue)" } ?? QuotedText.show(appIdentifier)
            return "\(ANCSNames.command(command.rawValue).text) \(subject)\(position.map { " (#\($0.packet))" } ?? "")"
        }

        var fields: [DecodeField] {
            let name = ANCSNames.command(command.rawValue)
            var f = [DecodeField("command", .string(name.json)), DecodeField("command_id", .int(command.rawValue))]
            if let uid {
                f.append(DecodeField("uid", .int(uid.rawValue)))
            } else {
                f.append(DecodeField("app_identifier", .string(String(decoding: appIdentifier, as: UTF8.self))))
            }
            if let position { f.append(DecodeField("request_packet", .int(position.packet))) }
            return f
        }

        /// The five bytes a response to a Get Notification Attributes starts with.
        var header: [UInt8]? {
            guard let uid else { return nil }
            let u = uid.rawValue
            return [command.rawValue, UInt8(truncatingIfNeeded: u), UInt8(truncatingIfNeeded: u >> 8),
                    UInt8(truncatingIfNeeded: u >> 16), UInt8(truncatingIfNeeded: u >> 24)]
        }
    }

    private var assembler: DataSourceAssembler?
    /// What the assembler waits for, in its order (removed as it reports them).
    private var requests: [Request] = []
    private var nextTag: UInt32 = 1
    /// Notifications of the response in progress so far.
    private var fragments = 0
    /// The last bytes of the previous notification (a header split across two).
    private var previousTail: [UInt8] = []
    private var lastNotification: CapturePosition?
    private var lastDirection: DecodedRecord.Direction?

    /// True when the front response lacks only optional attributes.
    var isAwaitingOptionalAttributes: Bool { assembler?.tagAwaitingOptionalAttributes != nil }

    // MARK: requests

    /// Registers a Get Notification / App Attributes command; returns its tag
    /// (nil if it cannot be tracked) and the records that says.
    func expect(
        _ command: ControlPointCommand, at position: CapturePosition?, direction: DecodedRecord.Direction?
    ) -> (tag: UInt32?, records: [DecodedRecord]) {
        var request: Request
        switch command {
        case .getNotificationAttributes(let uid, let attrs):
            request = Request(tag: 0, command: .getNotificationAttributes, uid: uid, appIdentifier: [],
                              attributes: ANCSDecoding.assemblerList(attrs, app: false), position: position, direction: direction)
        case .getAppAttributes(let appID, let attrs):
            request = Request(tag: 0, command: .getAppAttributes, uid: nil, appIdentifier: appID,
                              attributes: ANCSDecoding.assemblerList(attrs, app: true), position: position, direction: direction)
        case .performNotificationAction:
            return (nil, [])
        }
        request.tag = nextTag
        nextTag &+= 1
        let assembler = self.assembler ?? Self.makeAssembler()
        self.assembler = assembler
        var out: [DecodedRecord] = []
        while true {
            var failure: DataSourceAssembler.ExpectError?
            if let uid = request.uid {
                do { try assembler.expectNotificationAttributes(uid: uid, attributes: request.attributes, tag: request.tag) } catch { failure = error }
            } else {
                request.appIdentifier.withUnsafeBytes { b in
                    do throws(DataSourceAssembler.ExpectError) {
                        try assembler.expectAppAttributes(appIdentifier: b, attributes: request.attributes, tag: request.tag)
                    } catch { failure = error }
                }
            }
            switch failure {
            case nil:
                requests.append(request)
                return (request.tag, out)
            case .tooManyPending? where !requests.isEmpty:
                // Keep the newest: the oldest's answer is the likelier to be lost.
                let oldest = requests.removeFirst()
                assembler.cancel(tag: oldest.tag)
                settle()
                out.append(untracked(
                    oldest, "more than \(Self.maxPending) pipelined requests: the oldest, \(oldest.text), is no longer tracked",
                    reason: "more than \(Self.maxPending) pipelined requests", limit: Self.maxPending))
            case .tooManyPending?:
                return (nil, out)  // maxPending ≥ 1: not reached
            case .appIdentifierTooLong(let length, let capacity)?:
                out.append(untracked(request, "\(request.text) is not tracked: its AppIdentifier is \(length) bytes, more than the \(capacity) tracked",
                                     reason: "AppIdentifier longer than \(capacity) bytes", limit: capacity))
                return (nil, out)
            case .valuesExceedCapacity(let needed, let capacity)?:
                out.append(untracked(request, "\(request.text) is not tracked: its values need \(needed) bytes, more than the \(capacity) kept",
                                     reason: "values longer than \(capacity) bytes", limit: capacity))
                return (nil, out)
            }
        }
    }

    /// The phone refused the command (Error Response): no response follows.
    func cancel(tag: UInt32) {
        guard let assembler else { return }
        assembler.cancel(tag: tag)
        requests.removeAll { $0.tag == tag }
        settle()
    }

    // MARK: notifications

    /// One Data Source notification.
    func feed(
        _ value: UnsafeRawBufferPointer, at position: CapturePosition?, direction: DecodedRecord.Direction?
    ) -> [DecodedRecord] {
        defer {
            previousTail = Array(value.suffix(4))
            lastNotification = position
            lastDirection = direction
        }
        guard let assembler else {
            return [stamp(unmatched(value.count, "no Control Point command seen (the capture started mid-session?)"), direction)]
        }
        fragments += 1
        let awaitingBefore = assembler.tagAwaitingOptionalAttributes
        var out: [DecodedRecord] = []
        assembler.feed(value) { event in
            switch event {
            case .response(let r):
                var count = fragments
                fragments = 1  // the next response may start in this notification
                if !r.hasEveryAttribute, r.tag == awaitingBefore, let next = request(after: r.tag)?.header {
                    // It ended, without optional attributes, when the next
                    // request's header came: at the start of this
                    // notification, or split across the previous one and this.
                    if value.starts(with: next) {
                        count -= 1
                    } else if (1...4).contains(where: { k in
                        value.starts(with: next[k...]) && previousTail.suffix(k).elementsEqual(next[..<k])
                    }) {
                        count -= 1
                        fragments = 2
                    }
                }
                out.append(stamp(responseRecord(r, fragments: max(1, count)), direction))
            case .failed(let tag, let e):
                fragments = 1
                let what = requests.first { $0.tag == tag }
                requests.removeAll { $0.tag == tag }
                out.append(stamp(DecodedRecord(
                    layer: .ancs, type: "data_source_error",
                    summary: "Data Source: malformed response\(what.map { " to \($0.text)" } ?? ""): \(e)",
                    fields: [DecodeField("error", .string(e.description))] + (what?.fields ?? [])), direction))
            case .discarded(let e):
                fragments = 1
                out.append(stamp(unmatched(value.count, e.description), direction))
            }
        }
        settle()
        return out
    }

    /// Ends the front response without its optional attributes once the
    /// Data Source has been quiet for `quietMicroseconds` before `time`.
    func advance(to time: Int64) -> [DecodedRecord] {
        guard isAwaitingOptionalAttributes, let last = lastNotification?.timeMicroseconds else { return [] }
        let (elapsed, overflow) = time.subtractingReportingOverflow(last)
        guard overflow ? time > last : elapsed >= Self.quietMicroseconds else { return [] }
        return finishAwaiting()
    }

    /// The end of the session (`reason`: "the link closed") or of the
    /// capture (nil): a response that lacks only optional attributes is
    /// complete, every other expected one is reported cut off or unanswered.
    func end(because reason: String?) -> [DecodedRecord] {
        guard let assembler else { return [] }
        var out = finishAwaiting()
        let when = reason ?? "the capture ended"
        while let front = requests.first {
            requests.removeFirst()
            let started = assembler.isMidResponse
            var received: [ANCSDecoding.ResponseAttribute]?
            assembler.cancel(tag: front.tag) { partial in received = ANCSDecoding.attributes(of: partial) }
            if started {
                out.append(incomplete(front, received, when: when))
            } else {
                out.append(stamp(DecodedRecord(
                    layer: .ancs, type: "data_source_unanswered",
                    summary: "Data Source: no response to \(front.text) when \(when)",
                    fields: front.fields + [DecodeField("reason", .string(when))]), front.direction?.opposite))
            }
            fragments = 0
        }
        assembler.reset()
        fragments = 0
        previousTail = []
        return out
    }

    // MARK: records

    private static func makeAssembler() -> DataSourceAssembler {
        var c = DataSourceAssembler.Configuration()
        c.maxPending = maxPending
        c.appIdentifierCapacity = appIdentifierCapacity
        c.valueCapacity = AttributeList.capacity * Int(UInt16.max)
        c.unrequestedAttributeLimit = Int(UInt16.max)
        return DataSourceAssembler(configuration: c)
    }

    /// No response in progress: nothing carries over to the next notification.
    private func settle() {
        if assembler?.isMidResponse != true { fragments = 0 }
    }

    private func request(after tag: UInt32) -> Request? {
        guard let i = requests.firstIndex(where: { $0.tag == tag }), i + 1 < requests.count else { return nil }
        return requests[i + 1]
    }

    /// Delivers the front response without its missing optional attributes,
    /// at the notification that brought its last attribute.
    private func finishAwaiting() -> [DecodedRecord] {
        guard let assembler else { return [] }
        var out: [DecodedRecord] = []
        assembler.finishWithoutOptionalAttributes { event in
            guard case .response(let r) = event else { return }
            var record = stamp(responseRecord(r, fragments: max(1, fragments)), lastDirection)
            record.packet = lastNotification?.packet
            record.timeMicroseconds = lastNotification?.timeMicroseconds
            out.append(record)
        }
        if !out.isEmpty { fragments = assembler.isMidResponse ? 1 : 0 }
        return out
    }

    private func responseRecord(_ r: DataSourceResponse, fragments: Int) -> DecodedRecord {
        requests.removeAll { $0.tag == r.tag }
        return ANCSDecoding.responseRecord(
            command: r.command, uid: r.uid, appIdentifier: Array(r.appIdentifier),
            attributes: ANCSDecoding.attributes(of: r), fragments: fragments)
    }

    private func incomplete(_ request: Request, _ received: [ANCSDecoding.ResponseAttribute]?, when: String) -> DecodedRecord {
        let app = request.command == .getAppAttributes
        let attributes = received ?? (0..<request.attributes.count).map {
            ANCSDecoding.ResponseAttribute(id: request.attributes[$0].id, value: nil, truncated: false, isOptional: request.attributes[$0].isOptional)
        }
        let (text, json) = ANCSDecoding.attributeList(attributes, app: app)
        let pieces = fragments == 1 ? "1 fragment" : "\(fragments) fragments"
        return stamp(DecodedRecord(
            layer: .ancs, type: "data_source_incomplete",
            summary: "Data Source: incomplete response to \(request.text) when \(when) (\(pieces)): \(text)",
            fields: request.fields + [
                DecodeField("reason", .string(when)), DecodeField("fragments", .int(fragments)), DecodeField("attributes", json),
            ]), lastDirection ?? request.direction?.opposite)
    }

    private func untracked(_ request: Request, _ summary: String, reason: String, limit: Int) -> DecodedRecord {
        stamp(DecodedRecord(
            layer: .ancs, type: "data_source_untracked", summary: "Control Point: \(summary)",
            fields: request.fields + [DecodeField("reason", .string(reason)), DecodeField("limit", .int(limit))]),
            request.direction)
    }

    private func unmatched(_ count: Int, _ why: String) -> DecodedRecord {
        DecodedRecord(
            layer: .ancs, type: "data_source_unmatched", summary: "Data Source: \(count) bytes not decoded: \(why)",
            fields: [DecodeField("length", .int(count)), DecodeField("reason", .string(why))])
    }

    private func stamp(_ r: DecodedRecord, _ direction: DecodedRecord.Direction?) -> DecodedRecord {
        var r = r
        r.direction = direction
        return r
    }
}
