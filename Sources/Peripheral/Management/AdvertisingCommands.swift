/// Add Advertising (0x003E): instance, flags (u32), duration, timeout (u16,
/// seconds, 0 = none), adv data length, scan response length, then both
/// payloads. Replies with the instance.
public struct AddAdvertising: ManagementCommand, Equatable {
    /// Add Advertising flag bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let connectable = Flags(rawValue: 1 << 0)
        public static let discoverable = Flags(rawValue: 1 << 1)
        public static let limitedDiscoverable = Flags(rawValue: 1 << 2)
        /// The kernel adds the Flags AD field (then our data must not contain one).
        public static let managedFlags = Flags(rawValue: 1 << 3)
        public static let txPower = Flags(rawValue: 1 << 4)
        public static let appearance = Flags(rawValue: 1 << 5)
        public static let localName = Flags(rawValue: 1 << 6)
    }

    public var instance: UInt8
    public var flags: Flags
    public var duration: UInt16
    public var timeout: UInt16
    public var advertisingData: [UInt8]
    public var scanResponse: [UInt8]

    public init(instance: UInt8 = 1, flags: Flags, duration: UInt16 = 0, timeout: UInt16 = 0,
                advertisingData: [UInt8], scanResponse: [UInt8] = []) {
        self.instance = instance
        self.flags = flags
        self.duration = duration
        self.timeout = timeout
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }

    public var opcode: ManagementOpcode { .addAdvertising }
    public func encodeParameters() -> [UInt8] {
        var out: [UInt8] = [instance]
        out.appendLE(flags.rawValue)
        out.appendLE(duration)
        out.appendLE(timeout)
        out.append(UInt8(advertisingData.count))
        out.append(UInt8(scanResponse.count))
        return out + advertisingData + scanResponse
    }
}

/// Remove Advertising (0x003F): one instance, or 0 for all. Replies with the instance.
public struct RemoveAdvertising: ManagementCommand, Equatable {
    public var instance: UInt8
    public init(instance: UInt8 = 0) { self.instance = instance }
    public var opcode: ManagementOpcode { .removeAdvertising }
    public func encodeParameters() -> [UInt8] { [instance] }
}
