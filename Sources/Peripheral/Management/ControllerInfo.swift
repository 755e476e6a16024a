import HAL
/// The reply of Read Controller Information (280 bytes): address, version,
/// manufacturer, supported and current settings, class, name, short name.
public struct ControllerInfo: Equatable, Sendable {
    public var address: BluetoothAddress
    public var version: UInt8
    public var manufacturer: UInt16
    public var supportedSettings: ManagementSettings
    public var currentSettings: ManagementSettings
    public var name: String
    public var shortName: String

    public static let size = 280

    public init(address: BluetoothAddress, version: UInt8, manufacturer: UInt16, supportedSettings: ManagementSettings,
                currentSettings: ManagementSettings, name: String, shortName: String) {
        self.address = address
        self.version = version
        self.manufacturer = manufacturer
        self.supportedSettings = supportedSettings
        self.currentSettings = currentSettings
        self.name = name
        self.shortName = shortName
    }

    /// Whether the controller can do Bluetooth Low Energy at all.
    public var supportsLowEnergy: Bool { supportedSettings.contains(.lowEnergy) }

    public static func decode(_ p: UnsafeRawBufferPointer) -> ControllerInfo? {
        guard p.count >= size else { return nil }
        func cString(_ range: Range<Int>) -> String {
            let bytes = p[range].prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return ControllerInfo(
            address: p.address(at: 0), version: p[6], manufacturer: p.loadLE16(at: 7),
            supportedSettings: ManagementSettings(rawValue: p.loadLE32(at: 9)),
            currentSettings: ManagementSettings(rawValue: p.loadLE32(at: 13)),
            name: cString(20..<269), shortName: cString(269..<280))
    }

    /// The reply bytes (used by fake controllers in tests and the VM phone emulator).
    public func encode() -> [UInt8] {
        var out = address.wireBytes
        out.append(version)
        out.appendLE(manufacturer)
        out.appendLE(supportedSettings.rawValue)
        out.appendLE(currentSettings.rawValue)
        out += [0, 0, 0]
        out += Self.fixed(name, 249)
        out += Self.fixed(shortName, 11)
        return out
    }

    static func fixed(_ s: String, _ n: Int) -> [UInt8] {
        var b = Array(s.utf8.prefix(n - 1))
        b += [UInt8](repeating: 0, count: n - b.count)
        return b
    }
}
