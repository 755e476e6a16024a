import ATTCodec
import PhoneServices

/// What a capture's discovery revealed about the server's handles, so later
/// PDUs can name them: services from Read By Group Type / Find By Type Value
/// responses, characteristics (value handles and UUIDs) from Read By Type
/// responses to a Characteristic discovery, descriptors from Find Information.
public struct GATTMap: Sendable {
    public struct Characteristic: Equatable, Sendable {
        public var uuid: BluetoothUUID
        public var declarationHandle: UInt16
        public var valueHandle: UInt16
        public var properties: UInt8
    }

    public private(set) var services: [(range: ATTHandleRange, uuid: BluetoothUUID)] = []
    /// By value handle.
    public private(set) var characteristics: [UInt16: Characteristic] = [:]
    /// Descriptor types by handle.
    public private(set) var descriptors: [UInt16: BluetoothUUID] = [:]

    public init() {}

    public mutating func addService(_ range: ATTHandleRange, _ uuid: BluetoothUUID) {
        services.removeAll { $0.range.overlaps(range) }
        // Kept in order by inserting in place (no sort of its own in the daemon).
        services.insert((range, uuid), at: services.firstIndex { $0.range.start > range.start } ?? services.endIndex)
    }

    public mutating func addCharacteristic(_ c: Characteristic) {
        characteristics[c.valueHandle] = c
    }

    public mutating func addDescriptor(_ handle: UInt16, _ uuid: BluetoothUUID) {
        // Find Information over a characteristic's range also lists the value
        // and declaration handles; only real descriptors are kept.
        guard uuid != .characteristic, characteristics[handle] == nil else { return }
        descriptors[handle] = uuid
    }

    /// Forget everything (Service Changed, a new connection).
    public mutating func reset() { self = GATTMap() }

    /// The characteristic a handle belongs to: its value handle, or the
    /// nearest value handle below a descriptor, inside the same service.
    public func owner(of handle: UInt16) -> Characteristic? {
        var best: Characteristic?
        for c in characteristics.values where c.valueHandle <= handle {
            if let b = best, b.valueHandle >= c.valueHandle { continue }
            best = c
        }
        guard let best else { return nil }
        if let s = service(containing: handle), !s.range.contains(best.valueHandle) { return nil }
        return best
    }

    public func service(containing handle: UInt16) -> (range: ATTHandleRange, uuid: BluetoothUUID)? {
        services.first { $0.range.contains(handle) }
    }

    /// What a handle is, when discovery told us.
    public enum Role: Equatable, Sendable {
        case value(Characteristic)
        case cccd(of: Characteristic)
        case descriptor(BluetoothUUID, of: Characteristic?)
    }

    public func role(of handle: UInt16) -> Role? {
        if let c = characteristics[handle] { return .value(c) }
        if let d = descriptors[handle] {
            let o = owner(of: handle)
            return d == .clientCharacteristicConfiguration && o != nil ? .cccd(of: o!) : .descriptor(d, of: o)
        }
        return nil
    }

    /// `ANCS Control Point`, `CCCD of ANCS Data Source`, or nil.
    public func name(of handle: UInt16) -> String? {
        switch role(of: handle) {
        case .value(let c): return GATTNames.name(of: c.uuid) ?? c.uuid.description
        case .cccd(let c): return "CCCD of \(GATTNames.name(of: c.uuid) ?? c.uuid.description)"
        case .descriptor(let d, let c?):
            return "\(GATTNames.name(of: d) ?? d.description) of \(GATTNames.name(of: c.uuid) ?? c.uuid.description)"
        case .descriptor(let d, nil): return GATTNames.name(of: d) ?? d.description
        case nil: return nil
        }
    }

    /// The UUID of the characteristic whose value `handle` is.
    public func valueUUID(_ handle: UInt16) -> BluetoothUUID? { characteristics[handle]?.uuid }
}
