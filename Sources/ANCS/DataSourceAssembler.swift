/// A reassembled Data Source response (or, after `cancel`, the attributes of
/// an unfinished one). A view into the assembler's buffers: valid only during
/// the callback that hands it out. Copy what you keep.
///
/// A delivered response may lack optional attributes (the phone left them
/// out): `value(at:)` is nil for those.
public struct DataSourceResponse {
    public let tag: UInt32
    /// `getNotificationAttributes` or `getAppAttributes`.
    public let command: CommandID
    /// The echoed UID (Get Notification Attributes), else nil.
    public let uid: NotificationUID?
    /// The echoed AppIdentifier without its NUL (Get App Attributes), else empty.
    public let appIdentifier: UnsafeRawBufferPointer
    /// What was asked for, in request order.
    public let requested: AttributeList
    let base: UnsafeRawPointer
    let lengths: InlineArray<8, UInt16>
    let declaredLengths: InlineArray<8, UInt16>
    let receivedMask: UInt8
    let truncatedMask: UInt8
    let exceededMask: UInt8

    /// Every requested attribute that is not optional arrived (optional
    /// ones may be missing).
    public var isComplete: Bool {
        receivedMask | requested.optionalMask == DataSourceAssembler.fullMask(requested.count)
    }

    /// Every requested attribute arrived, optional ones included.
    public var hasEveryAttribute: Bool {
        receivedMask == DataSourceAssembler.fullMask(requested.count)
    }

    /// The value of the i-th requested attribute, nil if it did not arrive.
    public func value(at i: Int) -> UnsafeRawBufferPointer? {
        guard i >= 0, i < requested.count, receivedMask & UInt8(1 << i) != 0 else { return nil }
        return UnsafeRawBufferPointer(start: base + requested.valueOffset(at: i), count: Int(lengths[i]))
    }

    /// The value of an attribute by ID, nil if not requested or not arrived.
    public func value(for id: UInt8) -> UnsafeRawBufferPointer? {
        guard let i = requested.index(of: id) else { return nil }
        return value(at: i)
    }

    public func value(for id: NotificationAttributeID) -> UnsafeRawBufferPointer? { value(for: id.rawValue) }
    public func value(for id: AppAttributeID) -> UnsafeRawBufferPointer? { value(for: id.rawValue) }

    /// True when the phone sent more than we keep for this attribute: an
    /// attribute without a max length on the wire, or (with
    /// `truncatesOverlongValues`) one that broke the max length we sent.
    /// The kept bytes never end inside a UTF-8 sequence.
    public func isTruncated(at i: Int) -> Bool {
        i >= 0 && i < 8 && truncatedMask & UInt8(1 << i) != 0
    }

    /// True when the phone sent this Title / Subtitle / Message longer than
    /// the max length in our command: a protocol violation, kept truncated
    /// (only with `truncatesOverlongValues`; otherwise the request fails).
    public func exceededMaxLength(at i: Int) -> Bool {
        i >= 0 && i < 8 && exceededMask & UInt8(1 << i) != 0
    }

    /// The length the phone declared for the i-th requested attribute (before
    /// any truncation), nil if it did not arrive.
    public func declaredLength(at i: Int) -> Int? {
        guard i >= 0, i < requested.count, receivedMask & UInt8(1 << i) != 0 else { return nil }
        return Int(declaredLengths[i])
    }

    /// Convenience (allocates): the value decoded as UTF-8, invalid
    /// sequences replaced.
    public func string(for id: UInt8) -> String? {
        value(for: id).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// What `feed` reports.
public enum DataSourceEvent {
    /// A complete response (a view valid during the callback).
    case response(DataSourceResponse)
    /// The response to the request with this tag was malformed; the request
    /// is no longer pending and the rest of the response is discarded.
    case failed(tag: UInt32, DataSourceError)
    /// Bytes that belong to no pending request were dropped. Reported once
    /// per episode: further stray bytes are dropped silently until a
    /// response header matches again.
    case discarded(DataSourceError)
}

/// Streaming, request-aware reassembler for Data Source responses.
///
/// The consumer tells it what it asked for (`expect...`), in the order the
/// commands were written; the phone answers in order. Bytes are fed exactly as
/// the GATT notifications arrive, split anywhere. The assembler validates the
/// echoed command and UID / AppIdentifier, bounds every value, and reports a
/// response once every requested attribute has arrived.
///
/// Optional attributes (`AttributeRequest.isOptional`: MessageSize and the
/// action labels, which real iPhones may leave out): once every other
/// attribute has arrived and the bytes end on an attribute boundary, the
/// response also ends when
/// - the next bytes are the header of the next pending Get Notification
///   Attributes request (command 0 and its UID, split anywhere), or
/// - the owner decides the Data Source has been quiet long enough and calls
///   `finishWithoutOptionalAttributes` (see `tagAwaitingOptionalAttributes`).
///
/// Resynchronisation: after an error the rest of the current notification is
/// dropped, and so is every later notification until one *starts* with the
/// header of the pending request (responses start at a notification
/// boundary). Stale tails of a broken or timed-out response therefore cannot
/// poison the next response.
///
/// All storage is allocated in `init`; `feed` never allocates.
public final class DataSourceAssembler {
    public struct Configuration: Sendable {
        /// Requests that may be pending at once (pipelining depth).
        public var maxPending: Int = 4
        /// Longest AppIdentifier a Get App Attributes request may echo.
        public var appIdentifierCapacity: Int = 160
        /// Bytes for values: must hold the sum of the max lengths of one request.
        public var valueCapacity: Int = 4096
        /// An attribute we did not ask for is skipped if at most this long;
        /// longer means we lost sync, and the response is dropped.
        public var unrequestedAttributeLimit: Int = 512
        /// A Title / Subtitle / Message longer than the max length we sent:
        /// false fails the request (`attributeTooLong`), true keeps the first
        /// max-length bytes (cut back to a UTF-8 boundary), skips the rest,
        /// keeps the other attributes, and flags the value
        /// (`exceededMaxLength(at:)`).
        public var truncatesOverlongValues: Bool = false

        public init() {}
    }

    /// Why `expect...` refused a request.
    public enum ExpectError: Error, Hashable, Sendable, CustomStringConvertible {
        case tooManyPending
        case valuesExceedCapacity(needed: Int, capacity: Int)
        case appIdentifierTooLong(length: Int, capacity: Int)

        /// As Swift's reflection printed it (the decode tool shows it).
        public var description: String {
            switch self {
            case .tooManyPending: "tooManyPending"
            case .valuesExceedCapacity(let needed, let capacity): "valuesExceedCapacity(needed: \(needed), capacity: \(capacity))"
            case .appIdentifierTooLong(let length, let capacity): "appIdentifierTooLong(length: \(length), capacity: \(capacity))"
            }
        }
    }

    struct Pending {
        var tag: UInt32 = 0
        var command: UInt8 = 0
        var uid: UInt32 = 0
        var appIDLength = 0
        var attributes = AttributeList()
    }

    /// `lookahead`: at an attribute boundary with only optional attributes
    /// missing, matching the next request's header (`probePos` bytes so far).
    /// `lateTail`: after a response ended without its optional attributes
    /// (the quiet period), skipping those attributes if they come late,
    /// until the next response's header begins.
    enum Phase { case header, attributeID, lengthLow, lengthHigh, value, skip, lookahead, lateTail, discard }

    enum Flow { case proceed, stop }

    public let configuration: Configuration
    private let pending: UnsafeMutableBufferPointer<Pending>
    private let appIDs: UnsafeMutableRawBufferPointer  // maxPending * appIdentifierCapacity
    private let echo: UnsafeMutableRawBufferPointer  // the AppIdentifier of the response being delivered
    private let values: UnsafeMutableRawBufferPointer
    private var head = 0
    /// Requests registered and not yet answered, failed or cancelled.
    public var pendingCount: Int { pendingRequests }
    // Private storage behind a computed property: a public stored `var` of a
    // class keeps a dynamic exclusivity check (a swift_beginAccess runtime
    // call) on every access, and `feed` reads it per notification and per
    // response.
    private var pendingRequests = 0

    private var phase = Phase.header
    private var headerPos = 0
    private var uidAccumulator: UInt32 = 0
    private var current = -1  // index in the request's list; -1 = unrequested
    private var currentID: UInt8 = 0
    private var declared = 0
    private var remaining = 0
    private var stored = 0
    private var keep = 0
    private var valueOffset = 0
    private var receivedMask: UInt8 = 0
    private var truncatedMask: UInt8 = 0
    private var exceededMask: UInt8 = 0
    private var lengths = InlineArray<8, UInt16>(repeating: 0)
    private var declaredLengths = InlineArray<8, UInt16>(repeating: 0)
    private var probePos = 0
    /// The request whose header `lookahead` watches for, copied when the
    /// watch starts: cancelling that request meanwhile must not make the
    /// watch (or the replay of its bytes) switch to the entry behind it.
    private var lookaheadTarget = Pending()
    private var recovering = false
    private var generation = 0
    /// `lateTail`: the attribute IDs (bit per ID) the delivered response
    /// lacked, where in a record the bytes are (0 ID, 1-2 length, 3 value),
    /// and the value bytes left to skip.
    private var tailIDs: UInt8 = 0
    private var tailStep = 0
    private var tailRemaining = 0
    /// Late optional attributes skipped after their response was delivered.
    public private(set) var lateAttributesAbsorbed = 0

    public init(configuration: Configuration = Configuration()) {
        precondition(configuration.maxPending >= 1 && configuration.appIdentifierCapacity >= 0
            && configuration.valueCapacity >= 0 && configuration.unrequestedAttributeLimit >= 0)
        self.configuration = configuration
        pending = .allocate(capacity: configuration.maxPending)
        pending.initialize(repeating: Pending())
        appIDs = .allocate(byteCount: max(1, configuration.maxPending * configuration.appIdentifierCapacity), alignment: 8)
        echo = .allocate(byteCount: max(1, configuration.appIdentifierCapacity), alignment: 8)
        values = .allocate(byteCount: max(1, configuration.valueCapacity), alignment: 8)
    }

    deinit {
        pending.deinitialize().deallocate()
        appIDs.deallocate()
        echo.deallocate()
        values.deallocate()
    }

    static func fullMask(_ count: Int) -> UInt8 { count >= 8 ? 0xFF : UInt8((1 << count) - 1) }

    /// The front request, read in place (a copy of `Pending` per byte or
    /// per attribute costs more than the work itself).
    private var front: UnsafeMutablePointer<Pending> { pending.baseAddress! + head }

    // MARK: requests

    /// Registers a Get Notification Attributes command that was just written.
    public func expectNotificationAttributes(
        uid: NotificationUID, attributes: AttributeList, tag: UInt32
    ) throws(ExpectError) {
        let slot = try reserve(attributes)
        pending[slot] = Pending(
            tag: tag, command: CommandID.getNotificationAttributes.rawValue, uid: uid.rawValue,
            appIDLength: 0, attributes: attributes)
        pendingRequests += 1
    }

    /// Registers a Get App Attributes command that was just written.
    public func expectAppAttributes(
        appIdentifier: UnsafeRawBufferPointer, attributes: AttributeList, tag: UInt32
    ) throws(ExpectError) {
        let cap = configuration.appIdentifierCapacity
        guard appIdentifier.count <= cap else {
            throw .appIdentifierTooLong(length: appIdentifier.count, capacity: cap)
        }
        let slot = try reserve(attributes)
        if appIdentifier.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: appIDs[(slot * cap)..<(slot * cap + appIdentifier.count)])
                .copyMemory(from: appIdentifier)
        }
        pending[slot] = Pending(
            tag: tag, command: CommandID.getAppAttributes.rawValue, uid: 0,
            appIDLength: appIdentifier.count, attributes: attributes)
        pendingRequests += 1
    }

    private func reserve(_ attributes: AttributeList) throws(ExpectError) -> Int {
        guard pendingRequests < configuration.maxPending else { throw .tooManyPending }
        let needed = attributes.totalMaxLength
        guard needed <= configuration.valueCapacity else {
            throw .valuesExceedCapacity(needed: needed, capacity: configuration.valueCapacity)
        }
        return (head + pendingRequests) % configuration.maxPending
    }

    /// True while a response has started arriving for the front request.
    public var isMidResponse: Bool {
        pendingRequests > 0 && !(phase == .header && headerPos == 0) && phase != .discard && !(phase == .lateTail && tailStep == 0)
    }

    /// The tag of the front request when its response could end right here:
    /// every non-optional attribute arrived, the bytes so far end on an
    /// attribute boundary, and only optional attributes are missing. The
    /// owner calls `finishWithoutOptionalAttributes` once the Data Source
    /// has been quiet for a while. nil otherwise.
    public var tagAwaitingOptionalAttributes: UInt32? {
        guard pendingRequests > 0, phase == .attributeID || phase == .lookahead else { return nil }
        let p = pending[head]
        let full = Self.fullMask(p.attributes.count)
        guard receivedMask != full, receivedMask | p.attributes.optionalMask == full else { return nil }
        return p.tag
    }

    /// Delivers the front response without its missing optional attributes
    /// (as `.response` through `handler`), if `tagAwaitingOptionalAttributes`
    /// is set; returns false otherwise. Bytes that had started to match the
    /// next request's header stay that request's header in progress.
    @discardableResult
    public func finishWithoutOptionalAttributes(_ handler: (DataSourceEvent) -> Void) -> Bool {
        guard tagAwaitingOptionalAttributes != nil else { return false }
        let matched = phase == .lookahead ? probePos : 0
        let response = makeResponse(pending[head])
        // What may still come late: the missing optional attributes.
        var missing: UInt8 = 0
        let list = pending[head].attributes
        for k in 0..<list.count where receivedMask & UInt8(1 << k) == 0 && list[k].id < 8 { missing |= UInt8(1 << list[k].id) }
        popFront()
        phase = .header
        if matched == 0 && missing != 0 {
            phase = .lateTail
            tailIDs = missing
            tailStep = 0
        }
        if matched > 0 {
            headerPos = matched
            let p = pending[head]
            uidAccumulator = matched >= 5 ? p.uid : p.uid & ((UInt32(1) << (8 * UInt32(matched - 1))) &- 1)
        }
        handler(.response(response))
        return true
    }

    /// Withdraws a pending request (timeout, session end). If its response
    /// had started, the attributes that fully arrived are handed to `partial`
    /// (a view valid during the call), and the rest of that response will be
    /// discarded. Returns false if no request has this tag.
    @discardableResult
    public func cancel(tag: UInt32, partial: ((DataSourceResponse) -> Void)? = nil) -> Bool {
        var k = 0
        while k < pendingRequests {
            let slot = (head + k) % configuration.maxPending
            if pending[slot].tag == tag { break }
            k += 1
        }
        guard k < pendingRequests else { return false }
        if k == 0 {
            let started = isMidResponse
            let afterHeader = started && phase != .header
            if afterHeader, receivedMask != 0, let partial {
                let p = pending[head]
                partial(makeResponse(p))
            }
            popFront()
            if started {
                recovering = true
                phase = .discard
            } else {
                phase = .header
                headerPos = 0
            }
        } else {
            // Shift the later entries (and their AppIdentifiers) down by one.
            let cap = configuration.appIdentifierCapacity
            var j = k
            while j + 1 < pendingRequests {
                let dst = (head + j) % configuration.maxPending
                let src = (head + j + 1) % configuration.maxPending
                pending[dst] = pending[src]
                if cap > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: appIDs[(dst * cap)..<(dst * cap + cap)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: appIDs[(src * cap)..<(src * cap + cap)]))
                }
                j += 1
            }
            pendingRequests -= 1
        }
        return true
    }

    /// Forgets every pending request and any partial response (session end).
    public func reset() {
        head = 0
        pendingRequests = 0
        phase = .header
        headerPos = 0
        tailStep = 0
        recovering = false
        probePos = 0
        receivedMask = 0
        truncatedMask = 0
        exceededMask = 0
        generation &+= 1
    }

    private func popFront() {
        head = (head + 1) % configuration.maxPending
        pendingRequests -= 1
        headerPos = 0
        probePos = 0
        receivedMask = 0
        truncatedMask = 0
        exceededMask = 0
    }

    private func makeResponse(_ p: Pending) -> DataSourceResponse {
        let isApp = p.command == CommandID.getAppAttributes.rawValue
        let appID = UnsafeRawBufferPointer(start: echo.baseAddress, count: isApp ? p.appIDLength : 0)
        return DataSourceResponse(
            tag: p.tag, command: CommandID(rawValue: p.command),
            uid: isApp ? nil : NotificationUID(p.uid), appIdentifier: appID,
            requested: p.attributes, base: UnsafeRawPointer(values.baseAddress!),
            lengths: lengths, declaredLengths: declaredLengths, receivedMask: receivedMask,
            truncatedMask: truncatedMask, exceededMask: exceededMask)
    }

    // MARK: bytes

    /// Feeds one Data Source GATT notification's value. `handler` is called
    /// for every completed response, failure and discard, in order. It may
    /// call `expect...`, `cancel` and `reset`, but not `feed`.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ handler: (DataSourceEvent) -> Void) {
        if phase == .discard {
            // A new notification: the place to look for a response header again.
            phase = .header
            headerPos = 0
        }
        let gen = generation
        let n = bytes.count
        var i = 0
        // A header that began in an earlier notification and then fails to
        // match is re-tried from the start of this one: a response always
        // starts a notification, so a stray partial header must not swallow
        // the real response behind it.
        var headerBeganEarlier = phase == .header && headerPos > 0
        while i < n {
            switch phase {
            case .discard:
                return

            case .lateTail:
                let b = bytes[i]
                if tailStep == 0 {
                    // A record of a late attribute the delivered response
                    // lacked, or else the next response's header (looked at
                    // again as such: a header is never such an ID, as
                    // AppIdentifier, ID 0, is never optional).
                    guard b < 8 && tailIDs & UInt8(1 << b) != 0 else {
                        phase = .header
                        headerPos = 0
                        headerBeganEarlier = false
                        continue
                    }
                    tailStep = 1
                    i += 1
                } else if tailStep == 1 {
                    tailRemaining = Int(b)
                    tailStep = 2
                    i += 1
                } else if tailStep == 2 {
                    tailRemaining |= Int(b) << 8
                    i += 1
                    tailStep = tailRemaining == 0 ? 0 : 3
                    if tailStep == 0 { lateAttributesAbsorbed += 1 }
                } else {
                    let take = min(n - i, tailRemaining)
                    i += take
                    tailRemaining -= take
                    if tailRemaining == 0 {
                        tailStep = 0
                        lateAttributesAbsorbed += 1
                    }
                }

            case .header:
                guard pendingRequests > 0 else {
                    if !recovering {
                        recovering = true
                        phase = .discard
                        handler(.discarded(.unexpectedData(firstByte: bytes[i])))
                    } else {
                        phase = .discard
                    }
                    return
                }
                let b = bytes[i]
                i += 1
                if let error = matchHeader(b) {
                    headerPos = 0
                    let retry = headerBeganEarlier
                    headerBeganEarlier = false
                    if !recovering {
                        recovering = true
                        handler(.discarded(error))
                        if gen != generation { return }
                    }
                    if retry && phase == .header {
                        i = 0
                        continue
                    }
                    phase = .discard
                    return
                }
                if phase == .attributeID {
                    // Header complete.
                    recovering = false
                    if atBoundary(handler, gen) == .stop { return }
                }

            case .value:
                let take = min(n - i, remaining)
                let room = keep - stored
                let copy = min(take, room)
                if copy > 0 {
                    (values.baseAddress! + valueOffset + stored)
                        .copyMemory(from: bytes.baseAddress! + i, byteCount: copy)
                    stored += copy
                }
                i += take
                remaining -= take
                if remaining == 0 {
                    finishValue()
                    if atBoundary(handler, gen) == .stop { return }
                }

            case .skip:
                let take = min(n - i, remaining)
                i += take
                remaining -= take
                if remaining == 0 {
                    phase = .attributeID
                    if atBoundary(handler, gen) == .stop { return }
                }

            case .attributeID where n - i >= 3:
                // The whole attribute header is here: no byte-by-byte steps.
                currentID = bytes[i]
                declared = Int(bytes[i + 1]) | Int(bytes[i + 2]) << 8
                i += 3
                if lengthComplete(handler, gen) == .stop { return }

            case .attributeID, .lengthLow, .lengthHigh, .lookahead:
                let b = bytes[i]
                i += 1
                if step(b, handler, gen) == .stop { return }
            }
        }
    }

    /// One byte of the attribute list (also replays bytes `lookahead` took
    /// for a header that did not come). `.stop`: `feed` must return.
    private func step(_ b: UInt8, _ handler: (DataSourceEvent) -> Void, _ gen: Int) -> Flow {
        switch phase {
        case .attributeID:
            currentID = b
            phase = .lengthLow

        case .lengthLow:
            declared = Int(b)
            phase = .lengthHigh

        case .lengthHigh:
            declared |= Int(b) << 8
            return lengthComplete(handler, gen)

        case .value:
            if stored < keep {
                values[valueOffset + stored] = b
                stored += 1
            }
            remaining -= 1
            if remaining == 0 {
                finishValue()
                return atBoundary(handler, gen)
            }

        case .skip:
            remaining -= 1
            if remaining == 0 {
                phase = .attributeID
                return atBoundary(handler, gen)
            }

        case .lookahead:
            return lookahead(b, handler, gen)

        case .header, .discard, .lateTail:
            // Only reachable if a replay completed the response, which
            // `atBoundary` rules out before it starts a lookahead.
            return .stop
        }
        return .proceed
    }

    /// `currentID` and `declared` are read: start the value (or the skip).
    private func lengthComplete(_ handler: (DataSourceEvent) -> Void, _ gen: Int) -> Flow {
        if let error = beginValue() {
            fail(error, handler)
            return .stop
        }
        if phase == .value && remaining == 0 { finishValue() }
        if phase == .attributeID { return atBoundary(handler, gen) }
        return .proceed
    }

    /// Consumes one header byte of the front request. Returns an error on a
    /// mismatch; moves to `.attributeID` when the header is complete.
    private func matchHeader(_ b: UInt8) -> DataSourceError? {
        let p = front
        if headerPos == 0 {
            guard b == p.pointee.command else {
                return .mismatchedCommand(expected: p.pointee.command, received: b)
            }
            headerPos = 1
            uidAccumulator = 0
            receivedMask = 0
            truncatedMask = 0
            exceededMask = 0
            return nil
        }
        if p.pointee.command == CommandID.getNotificationAttributes.rawValue {
            uidAccumulator |= UInt32(b) << (8 * UInt32(headerPos - 1))
            headerPos += 1
            if headerPos == 5 {
                guard uidAccumulator == p.pointee.uid else {
                    return .mismatchedUID(expected: NotificationUID(p.pointee.uid), received: NotificationUID(uidAccumulator))
                }
                phase = .attributeID
            }
            return nil
        }
        // Get App Attributes: the AppIdentifier then NUL.
        let k = headerPos - 1
        let cap = configuration.appIdentifierCapacity
        if k < p.pointee.appIDLength {
            let expected = appIDs[head * cap + k]
            guard b == expected else { return .mismatchedAppIdentifier }
            echo[k] = b
            headerPos += 1
            return nil
        }
        guard b == 0 else { return .mismatchedAppIdentifier }
        phase = .attributeID
        return nil
    }

    /// The front response is at an attribute boundary: deliver it if every
    /// requested attribute arrived; if only optional ones are missing and a
    /// Get Notification Attributes request is pending behind it, watch for
    /// that request's header.
    private func atBoundary(_ handler: (DataSourceEvent) -> Void, _ gen: Int) -> Flow {
        let p = front
        let full = Self.fullMask(p.pointee.attributes.count)
        if receivedMask == full {
            let response = makeResponse(p.pointee)
            popFront()
            phase = .header
            handler(.response(response))
            return gen != generation ? .stop : .proceed
        }
        phase = .attributeID
        guard receivedMask | p.pointee.attributes.optionalMask == full, pendingRequests >= 2 else { return .proceed }
        let next = pending[(head + 1) % configuration.maxPending]
        guard next.command == CommandID.getNotificationAttributes.rawValue else { return .proceed }
        // If the header's first byte could also be a missing optional
        // attribute's ID, only the quiet timeout can end this response.
        if let k = p.pointee.attributes.index(of: next.command), receivedMask & UInt8(1 << k) == 0 { return .proceed }
        phase = .lookahead
        probePos = 0
        lookaheadTarget = next
        return .proceed
    }

    /// One byte while watching for the next request's header (command 0 and
    /// the UID). A full match ends the front response without its missing
    /// optional attributes; a mismatch replays the bytes taken so far (they
    /// equal the header's prefix) as attribute bytes.
    private func lookahead(_ b: UInt8, _ handler: (DataSourceEvent) -> Void, _ gen: Int) -> Flow {
        let next = lookaheadTarget
        if b == Self.headerByte(next, probePos) {
            probePos += 1
            guard probePos == 5 else { return .proceed }
            let response = makeResponse(pending[head])
            popFront()
            recovering = false
            phase = .attributeID  // the new front's header is complete
            handler(.response(response))
            if gen != generation { return .stop }
            guard pendingRequests > 0, pending[head].tag == next.tag else {
                // The handler withdrew the request this header belongs to.
                recovering = true
                phase = .discard
                return .stop
            }
            return atBoundary(handler, gen)
        }
        let k = probePos
        probePos = 0
        phase = .attributeID
        var j = 0
        while j < k {
            if step(Self.headerByte(next, j), handler, gen) == .stop { return .stop }
            j += 1
        }
        return step(b, handler, gen)
    }

    /// Byte `i` (0–4) of a Get Notification Attributes response header.
    private static func headerByte(_ p: Pending, _ i: Int) -> UInt8 {
        i == 0 ? p.command : UInt8(truncatingIfNeeded: p.uid >> (8 * UInt32(i - 1)))
    }

    private func beginValue() -> DataSourceError? {
        let p = front
        guard let index = p.pointee.attributes.index(of: currentID) else {
            guard declared <= configuration.unrequestedAttributeLimit else {
                return .unrequestedAttributeTooLong(id: currentID, length: declared)
            }
            current = -1
            remaining = declared
            phase = declared > 0 ? .skip : .attributeID
            return nil
        }
        let bit = UInt8(1 << index)
        guard receivedMask & bit == 0 else { return .duplicateAttribute(id: currentID) }
        let limit = Int(p.pointee.attributes.limits[index])
        if declared > limit {
            if p.pointee.attributes.wireLength & bit != 0 {  // sendsMaxLength
                guard configuration.truncatesOverlongValues else {
                    return .attributeTooLong(id: currentID, length: declared, limit: limit)
                }
                exceededMask |= bit
            }
            truncatedMask |= bit
        }
        declaredLengths[index] = UInt16(declared)
        current = index
        keep = min(declared, limit)
        stored = 0
        remaining = declared
        valueOffset = p.pointee.attributes.valueOffset(at: index)
        phase = .value
        return nil
    }

    private func finishValue() {
        if current >= 0 {
            var length = stored
            if truncatedMask & UInt8(1 << current) != 0 {
                length = Self.utf8PrefixLength(UnsafeRawPointer(values.baseAddress! + valueOffset), count: stored)
            }
            lengths[current] = UInt16(length)
            receivedMask |= UInt8(1 << current)
        }
        phase = .attributeID
    }

    /// `count`, or less so that the bytes do not end inside a UTF-8
    /// sequence (a cut value must not show a broken last character). Bytes
    /// that are not valid UTF-8 anyway are left alone.
    static func utf8PrefixLength(_ p: UnsafeRawPointer, count: Int) -> Int {
        var i = count - 1
        var continuations = 0
        while i >= 0 && continuations < 3 && p.load(fromByteOffset: i, as: UInt8.self) & 0xC0 == 0x80 {
            i -= 1
            continuations += 1
        }
        guard i >= 0 else { return count }
        let lead = p.load(fromByteOffset: i, as: UInt8.self)
        let needed: Int
        if lead & 0x80 == 0 {
            needed = 1
        } else if lead & 0xE0 == 0xC0 {
            needed = 2
        } else if lead & 0xF0 == 0xE0 {
            needed = 3
        } else if lead & 0xF8 == 0xF0 {
            needed = 4
        } else {
            return count
        }
        return count - i < needed ? i : count
    }

    private func fail(_ error: DataSourceError, _ handler: (DataSourceEvent) -> Void) {
        let tag = pending[head].tag
        popFront()
        recovering = true
        phase = .discard
        handler(.failed(tag: tag, error))
    }
}

extension AttributeList {
    /// Where the i-th attribute's value starts in the assembler's buffer:
    /// the values lie in request order, each in room for its max length.
    @inline(__always)
    func valueOffset(at i: Int) -> Int {
        var offset = 0
        var k = 0
        while k < i { offset += Int(limits[k]); k += 1 }
        return offset
    }
}
