import TextFormat

/// A Bluetooth UUID: 16-bit SIG-assigned values and full 128-bit UUIDs in one
/// value type (no heap storage, so comparing and matching never allocates).
///
/// Stored as the 128-bit value in the usual big-endian string order
/// (`hi` holds the first 8 bytes). A 16- or 32-bit UUID is the Bluetooth Base
/// UUID `0000xxxx-0000-1000-8000-00805F9B34FB` with the short value inserted.
/// On the air ATT carries UUIDs little-endian, in 2 or 16 bytes.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
    public var hi: UInt64
    public var lo: UInt64

    static let baseHiLow: UInt64 = 0x0000_1000
    static let baseLo: UInt64 = 0x8000_0080_5F9B_34FB

    public init(hi: UInt64, lo: UInt64) {
        self.hi = hi
        self.lo = lo
    }

    /// A 16-bit SIG-assigned UUID.
    public init(_ uuid16: UInt16) {
        hi = UInt64(uuid16) << 32 | BluetoothUUID.baseHiLow
        lo = BluetoothUUID.baseLo
    }

    /// A 32-bit SIG-assigned UUID.
    public init(uuid32: UInt32) {
        hi = UInt64(uuid32) << 32 | BluetoothUUID.baseHiLow
        lo = BluetoothUUID.baseLo
    }

    /// Parses `7905F431-B5CE-4E99-A40F-4B1E122D00D0` (hyphens optional),
    /// or a 4-hex-digit short form such as `2A2B`.
    public init?(_ string: String) {
        var value: [UInt8] = []
        value.reserveCapacity(32)
        for c in string.utf8 {
            if c == UInt8(ascii: "-") { continue }
            guard let d = BluetoothUUID.hexValue(c) else { return nil }
            value.append(d)
        }
        if value.count == 4 {
            var v: UInt16 = 0
            for d in value { v = v << 4 | UInt16(d) }
            self.init(v)
            return
        }
        guard value.count == 32 else { return nil }
        var h: UInt64 = 0
        var l: UInt64 = 0
        for d in value[0..<16] { h = h << 4 | UInt64(d) }
        for d in value[16..<32] { l = l << 4 | UInt64(d) }
        self.init(hi: h, lo: l)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Decodes the little-endian on-air form: 2, 4 or 16 bytes.
    public init?(littleEndian bytes: UnsafeRawBufferPointer) {
        switch bytes.count {
        case 2:
            self.init(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 4:
            var v: UInt32 = 0
            for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[i]) }
            self.init(uuid32: v)
        case 16:
            var h: UInt64 = 0
            var l: UInt64 = 0
            for i in (0..<8).reversed() { l = l << 8 | UInt64(bytes[i]) }
            for i in (8..<16).reversed() { h = h << 8 | UInt64(bytes[i]) }
            self.init(hi: h, lo: l)
        default:
            return nil
        }
    }

    /// Convenience for tests and tools.
    public init?(littleEndian bytes: [UInt8]) {
        guard let u = bytes.withUnsafeBytes({ BluetoothUUID(littleEndian: $0) }) else { return nil }
        self = u
    }

    /// True when this is a Base-UUID value that fits in 16 bits.
    public var uuid16: UInt16? {
        guard lo == BluetoothUUID.baseLo, hi & 0xFFFF_0000_FFFF_FFFF == BluetoothUUID.baseHiLow else { return nil }
        return UInt16(truncatingIfNeeded: hi >> 32)
    }

    /// Bytes this UUID takes in an ATT PDU: 2 for 16-bit values, else 16
    /// (32-bit UUIDs are sent in their 128-bit form, as ATT requires).
    public var encodedLength: Int { uuid16 == nil ? 16 : 2 }

    /// Writes the little-endian on-air form; `buffer` must hold `encodedLength` bytes.
    public func write(into buffer: UnsafeMutableRawBufferPointer) {
        if let short = uuid16 {
            buffer[0] = UInt8(truncatingIfNeeded: short)
            buffer[1] = UInt8(truncatingIfNeeded: short >> 8)
            return
        }
        for i in 0..<8 { buffer[i] = UInt8(truncatingIfNeeded: lo >> (8 * UInt64(i))) }
        for i in 0..<8 { buffer[8 + i] = UInt8(truncatingIfNeeded: hi >> (8 * UInt64(i))) }
    }

    /// The on-air form as an array (allocates; for tests and tools).
    public var littleEndianBytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedLength) { buf, n in
            write(into: UnsafeMutableRawBufferPointer(buf))
            n = encodedLength
        }
    }

    /// Does the little-endian value `bytes` (2 or 16 bytes) denote this UUID?
    public func matches(littleEndian bytes: UnsafeRawBufferPointer) -> Bool {
        BluetoothUUID(littleEndian: bytes) == self
    }

    public var description: String {
        if let short = uuid16 { return NumberText.format("%04X", Int64(short)) }
        return NumberText.format(
            "%08X-%04X-%04X-%04X-%012X", Int64(hi >> 32), Int64((hi >> 16) & 0xFFFF), Int64(hi & 0xFFFF), Int64(lo >> 48),
            Int64(lo & 0xFFFF_FFFF_FFFF))
    }
}

/// Well-known UUIDs used by the watch's GATT client and server.
extension BluetoothUUID {
    // GATT declarations and descriptors
    public static let primaryService = BluetoothUUID(0x2800)
    public static let secondaryService = BluetoothUUID(0x2801)
    public static let include = BluetoothUUID(0x2802)
    public static let characteristic = BluetoothUUID(0x2803)
    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)

    // Services
    public static let genericAccess = BluetoothUUID(0x1800)
    public static let genericAttribute = BluetoothUUID(0x1801)
    public static let currentTimeService = BluetoothUUID(0x1805)
    public static let deviceInformation = BluetoothUUID(0x180A)
    public static let battery = BluetoothUUID(0x180F)

    // Characteristics
    public static let deviceName = BluetoothUUID(0x2A00)
    public static let appearance = BluetoothUUID(0x2A01)
    public static let serviceChanged = BluetoothUUID(0x2A05)
    public static let currentTime = BluetoothUUID(0x2A2B)
    public static let batteryLevel = BluetoothUUID(0x2A19)
    public static let localTimeInformation = BluetoothUUID(0x2A0F)
    public static let referenceTimeInformation = BluetoothUUID(0x2A14)

    // Apple Notification Center Service
    public static let ancsService = BluetoothUUID("7905F431-B5CE-4E99-A40F-4B1E122D00D0")!
    public static let ancsNotificationSource = BluetoothUUID("9FBF120D-6301-42D9-8C58-25E699A21DBD")!
    public static let ancsControlPoint = BluetoothUUID("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")!
    public static let ancsDataSource = BluetoothUUID("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB")!

    // Apple Media Service (the iPhone exposes it; the watch ignores it for now)
    public static let amsService = BluetoothUUID("89D3502B-0F36-433A-8EF4-C502AD55F8DC")!
    public static let amsRemoteCommand = BluetoothUUID("9B3C81D8-57B1-4A8A-B8DF-0E56F7CA51C2")!
    public static let amsEntityUpdate = BluetoothUUID("2F7CABCE-808D-411F-9A0C-BB92BA96C102")!
    public static let amsEntityAttribute = BluetoothUUID("C6B2F38C-23AB-46D8-A6AB-A3A870BBD5D7")!
}
