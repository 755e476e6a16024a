/// A 48-bit Bluetooth device address. `bytes` are in wire order
/// (little-endian, least significant byte first, as in `bdaddr_t`);
/// `description` prints the usual most-significant-first "AA:BB:CC:DD:EE:FF".
import TextFormat
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible {
    public var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    public init(wire b: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) { bytes = b }

    /// From six bytes in wire order.
    public init?(wire array: some Collection<UInt8>) {
        guard array.count == 6 else { return nil }
        let a = Array(array)
        bytes = (a[0], a[1], a[2], a[3], a[4], a[5])
    }

    /// Parses "AA:BB:CC:DD:EE:FF" (case-insensitive, ':' or '-').
    public init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var wire = [UInt8](repeating: 0, count: 6)
        for (i, p) in parts.enumerated() {
            guard p.utf8.count == 2, let v = IntegerText.integer(p, radix: 16, in: 0...0xFF) else { return nil }
            wire[5 - i] = UInt8(v)
        }
        self.init(wire: wire)
    }

    public static let any = BluetoothAddress(wire: (0, 0, 0, 0, 0, 0))

    public var wireBytes: [UInt8] { [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5] }

    /// "AA:BB:CC:DD:EE:FF". Never inlined: every log line that names an
    /// address would otherwise carry its own copy in the size-optimised
    /// Embedded daemon (13.5 KB of Peripheral alone).
    @inline(never)
    public var description: String {
        NumberText.format(
            "%02X:%02X:%02X:%02X:%02X:%02X", Int64(bytes.5), Int64(bytes.4), Int64(bytes.3), Int64(bytes.2), Int64(bytes.1), Int64(bytes.0))
    }

    public static func == (a: Self, b: Self) -> Bool { a.wireBytes == b.wireBytes }
    public func hash(into h: inout Hasher) { h.combine(wireBytes) }
}

/// The address type byte used by mgmt and `sockaddr_l2.l2_bdaddr_type`.
public enum BluetoothAddressType: UInt8, Sendable, CustomStringConvertible {
    case bredr = 0
    case lePublic = 1
    case leRandom = 2

    public var description: String {
        switch self {
        case .bredr: "BR/EDR"
        case .lePublic: "LE public"
        case .leRandom: "LE random"
        }
    }
}
