// Control Point commands (watch → phone) and, for the simulated phone and the
// decode tool, their decoder plus the Data Source response encoder.

/// One attribute asked for in a Get Notification Attributes / Get App
/// Attributes command.
///
/// `maxLength` is the largest value the consumer accepts. For Title, Subtitle
/// and Message it is also sent on the wire (`sendsMaxLength`), so the phone
/// truncates to it and a longer answer is a protocol error. For the other
/// attributes the protocol has no bound; the assembler keeps the first
/// `maxLength` bytes and marks the value truncated.
///
/// `isOptional`: the phone may leave the attribute out of its answer (real
/// iPhones omit MessageSize and the action labels). A response is complete
/// once every non-optional attribute has arrived and the response has
/// visibly ended; see `DataSourceAssembler`. Not sent on the wire.
public struct AttributeRequest: Hashable, Sendable {
    public var id: UInt8
    public var maxLength: UInt16
    public var sendsMaxLength: Bool
    public var isOptional: Bool

    public init(id: UInt8, maxLength: UInt16, sendsMaxLength: Bool, isOptional: Bool = false) {
        self.id = id
        self.maxLength = maxLength
        self.sendsMaxLength = sendsMaxLength
        self.isOptional = isOptional
    }

    /// A notification attribute; the max length goes on the wire iff the
    /// specification says so for this ID, and MessageSize and the action
    /// labels are optional (`NotificationAttributeID.isOptional`).
    public static func notification(_ id: NotificationAttributeID, maxLength: UInt16) -> Self {
        Self(id: id.rawValue, maxLength: maxLength, sendsMaxLength: id.takesMaxLength, isOptional: id.isOptional)
    }

    /// An app attribute (no max length on the wire).
    public static func app(_ id: AppAttributeID, maxLength: UInt16) -> Self {
        Self(id: id.rawValue, maxLength: maxLength, sendsMaxLength: false)
    }

    /// Bytes this attribute takes in a command.
    var encodedCount: Int { sendsMaxLength ? 3 : 1 }
}

/// A fixed-capacity (8) list of distinct attribute requests, stored inline:
/// building one never allocates.
public struct AttributeList: Hashable, Sendable {
    public static let capacity = 8

    @usableFromInline var ids = InlineArray<8, UInt8>(repeating: 0)
    @usableFromInline var limits = InlineArray<8, UInt16>(repeating: 0)
    @usableFromInline var wireLength: UInt8 = 0  // bit i: entry i sends its max length
    /// Bit i: entry i is optional.
    public private(set) var optionalMask: UInt8 = 0
    public private(set) var count = 0

    public init() {}

    /// Convenience (allocates the literal array): drops duplicates and
    /// anything past the capacity.
    public init(_ requests: [AttributeRequest]) {
        for r in requests { _ = append(r) }
    }

    /// Appends a request; false when the list is full or already has this ID.
    @discardableResult
    public mutating func append(_ r: AttributeRequest) -> Bool {
        guard count < Self.capacity, index(of: r.id) == nil else { return false }
        ids[count] = r.id
        limits[count] = r.maxLength
        if r.sendsMaxLength { wireLength |= UInt8(1 << count) }
        if r.isOptional { optionalMask |= UInt8(1 << count) }
        count += 1
        return true
    }

    public subscript(i: Int) -> AttributeRequest {
        AttributeRequest(
            id: ids[i], maxLength: limits[i], sendsMaxLength: wireLength & UInt8(1 << i) != 0,
            isOptional: optionalMask & UInt8(1 << i) != 0)
    }

    /// The position of an attribute ID in the list.
    public func index(of id: UInt8) -> Int? {
        var i = 0
        while i < count {
            if ids[i] == id { return i }
            i += 1
        }
        return nil
    }

    public func contains(_ id: UInt8) -> Bool { index(of: id) != nil }

    /// Sum of every entry's maxLength: the scratch space a response can need.
    public var totalMaxLength: Int {
        var sum = 0
        var i = 0
        while i < count { sum += Int(limits[i]); i += 1 }
        return sum
    }

    public static func == (a: Self, b: Self) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    public func hash(into h: inout Hasher) {
        h.combine(count)
        var i = 0
        while i < count { h.combine(self[i]); i += 1 }
    }

    /// Bytes the list takes in a command.
    var encodedCount: Int {
        var n = 0
        var i = 0
        while i < count { n += self[i].encodedCount; i += 1 }
        return n
    }

    func encode(into b: UnsafeMutableRawBufferPointer, at start: Int) -> Int {
        var o = start
        var i = 0
        while i < count {
            let r = self[i]
            b[o] = r.id
            o += 1
            if r.sendsMaxLength {
                writeLE16(r.maxLength, to: b, at: o)
                o += 2
            }
            i += 1
        }
        return o
    }
}

/// Why a command could not be encoded.
public enum ControlPointEncodingError: Error, Hashable, Sendable {
    /// The output buffer is smaller than the command (`needed` bytes).
    case bufferTooSmall(needed: Int)
    /// An AppIdentifier is sent NUL-terminated, so it cannot contain NUL.
    case appIdentifierContainsNUL
}

/// Encoders for the three Control Point commands. Each writes into a
/// caller-owned buffer and returns the number of bytes written; nothing
/// allocates. The `[UInt8]`-returning variants are conveniences for tests and
/// tools.
public enum ControlPoint {
    /// The largest ATT write the consumer can issue for an AppIdentifier of
    /// `appIdentifierCapacity` bytes (used to size buffers).
    public static func maximumCommandLength(appIdentifierCapacity: Int) -> Int {
        max(1 + 4 + AttributeList.capacity * 3, 1 + appIdentifierCapacity + 1 + AttributeList.capacity * 3)
    }

    /// Get Notification Attributes: `00`, UID (u32 LE), then for each
    /// attribute its ID and, for Title/Subtitle/Message, a u16 LE max length.
    public static func encodeGetNotificationAttributes(
        uid: NotificationUID, attributes: AttributeList, into buffer: UnsafeMutableRawBufferPointer
    ) throws(ControlPointEncodingError) -> Int {
        let needed = 1 + 4 + attributes.encodedCount
        guard buffer.count >= needed else { throw .bufferTooSmall(needed: needed) }
        buffer[0] = CommandID.getNotificationAttributes.rawValue
        writeLE32(uid.rawValue, to: buffer, at: 1)
        return attributes.encode(into: buffer, at: 5)
    }

    /// Get App Attributes: `01`, the AppIdentifier, NUL, then the attribute IDs.
    public static func encodeGetAppAttributes(
        appIdentifier: UnsafeRawBufferPointer, attributes: AttributeList,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(ControlPointEncodingError) -> Int {
        for byte in appIdentifier where byte == 0 { throw .appIdentifierContainsNUL }
        let needed = 1 + appIdentifier.count + 1 + attributes.encodedCount
        guard buffer.count >= needed else { throw .bufferTooSmall(needed: needed) }
        buffer[0] = CommandID.getAppAttributes.rawValue
        if appIdentifier.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: buffer[1..<(1 + appIdentifier.count)])
                .copyMemory(from: appIdentifier)
        }
        buffer[1 + appIdentifier.count] = 0
        return attributes.encode(into: buffer, at: 2 + appIdentifier.count)
    }

    /// Perform Notification Action: `02`, UID (u32 LE), ActionID.
    public static func encodePerformNotificationAction(
        uid: NotificationUID, action: ActionID, into buffer: UnsafeMutableRawBufferPointer
    ) throws(ControlPointEncodingError) -> Int {
        guard buffer.count >= 6 else { throw .bufferTooSmall(needed: 6) }
        buffer[0] = CommandID.performNotificationAction.rawValue
        writeLE32(uid.rawValue, to: buffer, at: 1)
        buffer[5] = action.rawValue
        return 6
    }

    // MARK: allocating conveniences

    public static func getNotificationAttributes(uid: NotificationUID, attributes: AttributeList) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 5 + attributes.encodedCount)
        let n = out.withUnsafeMutableBytes { b in
            (try? encodeGetNotificationAttributes(uid: uid, attributes: attributes, into: b)) ?? 0
        }
        return Array(out.prefix(n))
    }

    public static func getAppAttributes(
        appIdentifier: some Collection<UInt8>, attributes: AttributeList
    ) throws(ControlPointEncodingError) -> [UInt8] {
        let id = Array(appIdentifier)
        var out = [UInt8](repeating: 0, count: 2 + id.count + attributes.encodedCount)
        let r: Result<Int, ControlPointEncodingError> = out.withUnsafeMutableBytes { b in
            id.withUnsafeBytes { idb in
                do throws(ControlPointEncodingError) { return .success(try encodeGetAppAttributes(appIdentifier: idb, attributes: attributes, into: b)) } catch {
                    return .failure(error)
                }
            }
        }
        return Array(out.prefix(try r.get()))
    }

    public static func getAppAttributes(
        appIdentifier: String, attributes: AttributeList
    ) throws(ControlPointEncodingError) -> [UInt8] {
        try getAppAttributes(appIdentifier: Array(appIdentifier.utf8), attributes: attributes)
    }

    public static func performNotificationAction(uid: NotificationUID, action: ActionID) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 6)
        _ = out.withUnsafeMutableBytes { try? encodePerformNotificationAction(uid: uid, action: action, into: $0) }
        return out
    }
}

// MARK: - The phone's side (simulator, decode tool, tests). These allocate.

/// Why bytes written to the Control Point are not a valid command. The
/// `errorCode` is what a real phone answers.
public enum ControlPointDecodingError: Error, Hashable, Sendable {
    case empty
    case unknownCommand(UInt8)
    case truncated
    case missingNULTerminator

    public var errorCode: ANCSErrorCode {
        if case .unknownCommand = self { return .unknownCommand }
        return .invalidCommand
    }
}

/// A decoded Control Point command.
public enum ControlPointCommand: Hashable, Sendable {
    case getNotificationAttributes(uid: NotificationUID, attributes: [AttributeRequest])
    case getAppAttributes(appIdentifier: [UInt8], attributes: [AttributeRequest])
    /// The raw ActionID is kept: reserved values are the phone's business.
    case performNotificationAction(uid: NotificationUID, actionID: UInt8)

    public init(parsing bytes: [UInt8]) throws(ControlPointDecodingError) {
        guard let command = bytes.first else { throw .empty }
        switch CommandID(rawValue: command) {
        case .getNotificationAttributes:
            guard bytes.count >= 5 else { throw .truncated }
            let uid = bytes.withUnsafeBytes { NotificationUID(readLE32($0, at: 1)) }
            var attrs: [AttributeRequest] = []
            var i = 5
            while i < bytes.count {
                let id = NotificationAttributeID(rawValue: bytes[i])
                if id.takesMaxLength {
                    guard i + 2 < bytes.count else { throw .truncated }
                    let max = UInt16(bytes[i + 1]) | UInt16(bytes[i + 2]) << 8
                    attrs.append(AttributeRequest(id: bytes[i], maxLength: max, sendsMaxLength: true))
                    i += 3
                } else {
                    attrs.append(AttributeRequest(id: bytes[i], maxLength: 0, sendsMaxLength: false))
                    i += 1
                }
            }
            self = .getNotificationAttributes(uid: uid, attributes: attrs)
        case .getAppAttributes:
            guard let nul = bytes.dropFirst().firstIndex(of: 0) else { throw .missingNULTerminator }
            let appID = Array(bytes[1..<nul])
            let attrs = bytes[(nul + 1)...].map { AttributeRequest(id: $0, maxLength: 0, sendsMaxLength: false) }
            self = .getAppAttributes(appIdentifier: appID, attributes: attrs)
        case .performNotificationAction:
            guard bytes.count >= 6 else { throw .truncated }
            let uid = bytes.withUnsafeBytes { NotificationUID(readLE32($0, at: 1)) }
            self = .performNotificationAction(uid: uid, actionID: bytes[5])
        case .unknown(let n):
            throw .unknownCommand(n)
        }
    }
}

/// One (AttributeID, value) pair of a Data Source response, phone side.
public struct EncodedAttribute: Hashable, Sendable {
    public var id: UInt8
    public var value: [UInt8]
    public init(id: UInt8, value: [UInt8]) {
        self.id = id
        self.value = value
    }
    public init(_ id: NotificationAttributeID, _ text: String) {
        self.init(id: id.rawValue, value: Array(text.utf8))
    }
    public init(_ id: AppAttributeID, _ text: String) {
        self.init(id: id.rawValue, value: Array(text.utf8))
    }
}

/// Builds Data Source responses the way the phone does (simulator, tests).
/// Values longer than 65535 bytes are cut to fit the u16 length.
public enum DataSourceResponseEncoder {
    public static func notificationAttributes(uid: NotificationUID, _ attributes: [EncodedAttribute]) -> [UInt8] {
        var out: [UInt8] = [CommandID.getNotificationAttributes.rawValue]
        out += [UInt8(truncatingIfNeeded: uid.rawValue), UInt8(truncatingIfNeeded: uid.rawValue >> 8),
                UInt8(truncatingIfNeeded: uid.rawValue >> 16), UInt8(truncatingIfNeeded: uid.rawValue >> 24)]
        appendTuples(attributes, to: &out)
        return out
    }

    public static func appAttributes(appIdentifier: [UInt8], _ attributes: [EncodedAttribute]) -> [UInt8] {
        var out: [UInt8] = [CommandID.getAppAttributes.rawValue]
        out += appIdentifier
        out.append(0)
        appendTuples(attributes, to: &out)
        return out
    }

    public static func appAttributes(appIdentifier: String, _ attributes: [EncodedAttribute]) -> [UInt8] {
        appAttributes(appIdentifier: Array(appIdentifier.utf8), attributes)
    }

    static func appendTuples(_ attributes: [EncodedAttribute], to out: inout [UInt8]) {
        for a in attributes {
            let value = a.value.prefix(Int(UInt16.max))
            out.append(a.id)
            out.append(UInt8(truncatingIfNeeded: value.count))
            out.append(UInt8(truncatingIfNeeded: value.count >> 8))
            out += value
        }
    }
}
