/// What went wrong on the Data Source.
public enum DataSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    // Stray data: bytes that do not start the response of the pending request.
    // The pending request is kept (its real answer may still come).
    /// Bytes arrived while no request was pending.
    case unexpectedData(firstByte: UInt8)
    /// The response echoes another command than the pending request's.
    case mismatchedCommand(expected: UInt8, received: UInt8)
    /// The response echoes another NotificationUID.
    case mismatchedUID(expected: NotificationUID, received: NotificationUID)
    /// The response echoes another AppIdentifier.
    case mismatchedAppIdentifier

    // Malformed response: the pending request is dropped.
    /// A Title / Subtitle / Message longer than the max length we sent.
    case attributeTooLong(id: UInt8, length: Int, limit: Int)
    /// The same requested attribute twice in one response.
    case duplicateAttribute(id: UInt8)
    /// An attribute we did not ask for, longer than the skip limit.
    case unrequestedAttributeTooLong(id: UInt8, length: Int)

    /// True for stray data (the pending request is still pending).
    public var isStrayData: Bool {
        switch self {
        case .unexpectedData, .mismatchedCommand, .mismatchedUID, .mismatchedAppIdentifier: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .unexpectedData(let b): "Data Source bytes with no request pending (first byte 0x\(String(b, radix: 16)))"
        case .mismatchedCommand(let e, let r): "Data Source response for command \(r), expected \(e)"
        case .mismatchedUID(let e, let r): "Data Source response for UID \(r.rawValue), expected \(e.rawValue)"
        case .mismatchedAppIdentifier: "Data Source response for another AppIdentifier"
        case .attributeTooLong(let id, let len, let limit): "attribute \(id) has \(len) bytes, max length is \(limit)"
        case .duplicateAttribute(let id): "attribute \(id) appears twice in one response"
        case .unrequestedAttributeTooLong(let id, let len): "unrequested attribute \(id) of \(len) bytes"
        }
    }
}

/// A reassembled Data Source response (or, after `cancel`, the attributes of
/// an unfinished one). A view into the assembler's buffers: valid only during
/// the callback that hands it out. Copy what you keep.
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
    let receivedMask: UInt8
    let truncatedMask: UInt8

    /// Every requested attribute arrived.
    public var isComplete: Bool {
        receivedMask == DataSourceAssembler.fullMask(requested.count)
    }

    /// The value of the i-th requested attribute, nil if it did not arrive.
    public func value(at i: Int) -> UnsafeRawBufferPointer? {
        guard i >= 0, i < requested.count, receivedMask & UInt8(1 << i) != 0 else { return nil }
        var offset = 0
        var k = 0
        while k < i { offset += Int(requested[k].maxLength); k += 1 }
        return UnsafeRawBufferPointer(start: base + offset, count: Int(lengths[i]))
    }

    /// The value of an attribute by ID, nil if not requested or not arrived.
    public func value(for id: UInt8) -> UnsafeRawBufferPointer? {
        guard let i = requested.index(of: id) else { return nil }
        return value(at: i)
    }

    public func value(for id: NotificationAttributeID) -> UnsafeRawBufferPointer? { value(for: id.rawValue) }
    public func value(for id: AppAttributeID) -> UnsafeRawBufferPointer? { value(for: id.rawValue) }

    /// True when the phone sent more than we keep for this attribute (only
    /// for attributes without a max length on the wire).
    public func isTruncated(at i: Int) -> Bool {
        i >= 0 && i < 8 && truncatedMask & UInt8(1 << i) != 0
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

        public init() {}
    }

    /// Why `expect...` refused a request.
    public enum ExpectError: Error, Hashable, Sendable {
        case tooManyPending
        case valuesExceedCapacity(needed: Int, capacity: Int)
        case appIdentifierTooLong(length: Int, capacity: Int)
    }

    struct Pending {
        var tag: UInt32 = 0
        var command: UInt8 = 0
        var uid: UInt32 = 0
        var appIDLength = 0
        var attributes = AttributeList()
    }

    enum Phase { case header, attributeID, lengthLow, lengthHigh, value, skip, discard }

    public let configuration: Configuration
    private let pending: UnsafeMutableBufferPointer<Pending>
    private let appIDs: UnsafeMutableRawBufferPointer  // maxPending * appIdentifierCapacity
    private let echo: UnsafeMutableRawBufferPointer  // the AppIdentifier of the response being delivered
    private let values: UnsafeMutableRawBufferPointer
    private var head = 0
    public private(set) var pendingCount = 0

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
    private var lengths = InlineArray<8, UInt16>(repeating: 0)
    private var recovering = false
    private var generation = 0

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

    // MARK: requests

    /// Registers a Get Notification Attributes command that was just written.
    public func expectNotificationAttributes(
        uid: NotificationUID, attributes: AttributeList, tag: UInt32
    ) throws(ExpectError) {
        let slot = try reserve(attributes)
        pending[slot] = Pending(
            tag: tag, command: CommandID.getNotificationAttributes.rawValue, uid: uid.rawValue,
            appIDLength: 0, attributes: attributes)
        pendingCount += 1
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
        pendingCount += 1
    }

    private func reserve(_ attributes: AttributeList) throws(ExpectError) -> Int {
        guard pendingCount < configuration.maxPending else { throw .tooManyPending }
        let needed = attributes.totalMaxLength
        guard needed <= configuration.valueCapacity else {
            throw .valuesExceedCapacity(needed: needed, capacity: configuration.valueCapacity)
        }
        return (head + pendingCount) % configuration.maxPending
    }

    /// True while a response has started arriving for the front request.
    public var isMidResponse: Bool {
        pendingCount > 0 && !(phase == .header && headerPos == 0) && phase != .discard
    }

    /// Withdraws a pending request (timeout, session end). If its response
    /// had started, the attributes that fully arrived are handed to `partial`
    /// (a view valid during the call), and the rest of that response will be
    /// discarded. Returns false if no request has this tag.
    @discardableResult
    public func cancel(tag: UInt32, partial: ((DataSourceResponse) -> Void)? = nil) -> Bool {
        var k = 0
        while k < pendingCount {
            let slot = (head + k) % configuration.maxPending
            if pending[slot].tag == tag { break }
            k += 1
        }
        guard k < pendingCount else { return false }
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
            while j + 1 < pendingCount {
                let dst = (head + j) % configuration.maxPending
                let src = (head + j + 1) % configuration.maxPending
                pending[dst] = pending[src]
                if cap > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: appIDs[(dst * cap)..<(dst * cap + cap)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: appIDs[(src * cap)..<(src * cap + cap)]))
                }
                j += 1
            }
            pendingCount -= 1
        }
        return true
    }

    /// Forgets every pending request and any partial response (session end).
    public func reset() {
        head = 0
        pendingCount = 0
        phase = .header
        headerPos = 0
        recovering = false
        receivedMask = 0
        truncatedMask = 0
        generation &+= 1
    }

    private func popFront() {
        head = (head + 1) % configuration.maxPending
        pendingCount -= 1
        headerPos = 0
        receivedMask = 0
        truncatedMask = 0
    }

    private func makeResponse(_ p: Pending) -> DataSourceResponse {
        let isApp = p.command == CommandID.getAppAttributes.rawValue
        let appID = UnsafeRawBufferPointer(start: echo.baseAddress, count: isApp ? p.appIDLength : 0)
        return DataSourceResponse(
            tag: p.tag, command: CommandID(rawValue: p.command),
            uid: isApp ? nil : NotificationUID(p.uid), appIdentifier: appID,
            requested: p.attributes, base: UnsafeRawPointer(values.baseAddress!),
            lengths: lengths, receivedMask: receivedMask, truncatedMask: truncatedMask)
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

            case .header:
                guard pendingCount > 0 else {
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
                    if checkComplete(handler, gen) { return }
                }

            case .attributeID:
                currentID = bytes[i]
                i += 1
                phase = .lengthLow

            case .lengthLow:
                declared = Int(bytes[i])
                i += 1
                phase = .lengthHigh

            case .lengthHigh:
                declared |= Int(bytes[i]) << 8
                i += 1
                if let error = beginValue() {
                    fail(error, handler)
                    return
                }
                if remaining == 0 {
                    finishValue()
                    if checkComplete(handler, gen) { return }
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
                    if checkComplete(handler, gen) { return }
                }

            case .skip:
                let take = min(n - i, remaining)
                i += take
                remaining -= take
                if remaining == 0 { phase = .attributeID }
            }
        }
    }

    /// Consumes one header byte of the front request. Returns an error on a
    /// mismatch; moves to `.attributeID` when the header is complete.
    private func matchHeader(_ b: UInt8) -> DataSourceError? {
        let p = pending[head]
        if headerPos == 0 {
            guard b == p.command else {
                return .mismatchedCommand(expected: p.command, received: b)
            }
            headerPos = 1
            uidAccumulator = 0
            receivedMask = 0
            truncatedMask = 0
            return nil
        }
        if p.command == CommandID.getNotificationAttributes.rawValue {
            uidAccumulator |= UInt32(b) << (8 * UInt32(headerPos - 1))
            headerPos += 1
            if headerPos == 5 {
                guard uidAccumulator == p.uid else {
                    return .mismatchedUID(expected: NotificationUID(p.uid), received: NotificationUID(uidAccumulator))
                }
                phase = .attributeID
            }
            return nil
        }
        // Get App Attributes: the AppIdentifier then NUL.
        let k = headerPos - 1
        let cap = configuration.appIdentifierCapacity
        if k < p.appIDLength {
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

    private func beginValue() -> DataSourceError? {
        let list = pending[head].attributes
        guard let index = list.index(of: currentID) else {
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
        let request = list[index]
        let limit = Int(request.maxLength)
        if declared > limit {
            if request.sendsMaxLength {
                return .attributeTooLong(id: currentID, length: declared, limit: limit)
            }
            truncatedMask |= bit
        }
        current = index
        keep = min(declared, limit)
        stored = 0
        remaining = declared
        var offset = 0
        var k = 0
        while k < index { offset += Int(list[k].maxLength); k += 1 }
        valueOffset = offset
        phase = .value
        return nil
    }

    private func finishValue() {
        if current >= 0 {
            lengths[current] = UInt16(stored)
            receivedMask |= UInt8(1 << current)
        }
        phase = .attributeID
    }

    /// Delivers the front response if complete. Returns true if `feed` must
    /// stop (the handler reset or cancelled things under us).
    private func checkComplete(_ handler: (DataSourceEvent) -> Void, _ gen: Int) -> Bool {
        let p = pending[head]
        guard receivedMask == Self.fullMask(p.attributes.count) else { return false }
        let response = makeResponse(p)
        popFront()
        phase = .header
        handler(.response(response))
        return gen != generation
    }

    private func fail(_ error: DataSourceError, _ handler: (DataSourceEvent) -> Void) {
        let tag = pending[head].tag
        popFront()
        recovering = true
        phase = .discard
        handler(.failed(tag: tag, error))
    }
}
