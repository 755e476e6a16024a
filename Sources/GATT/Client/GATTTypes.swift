import ATTCodec
import TextFormat
/// Why a GATT client procedure failed.
public enum GATTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peer answered with an Error Response.
    case att(ATTErrorCode, handle: UInt16)
    /// The bearer failed (closed, timed out ...).
    case bearer(ATTBearerError)
    /// The peer's response does not follow the GATT procedure.
    case invalidResponse(String)

    /// Interprets a request outcome: nil for a response, the error otherwise.
    public init?(_ outcome: ATTRequestOutcome) {
        switch outcome {
        case .response: return nil
        case .error(let e): self = .att(e.error, handle: e.handle)
        case .failed(let b): self = .bearer(b)
        }
    }

    public var description: String {
        switch self {
        case .att(let code, let handle): code.description + NumberText.format(" on handle 0x%x", Int64(handle))
        case .bearer(let e): e.description
        case .invalidResponse(let why): "invalid GATT response: " + why
        }
    }
}

/// A characteristic found by discovery.
public struct GATTCharacteristic: Hashable, Sendable, CustomStringConvertible {
    public var uuid: BluetoothUUID
    public var declarationHandle: UInt16
    public var valueHandle: UInt16
    public var properties: GATTCharacteristicProperties
    /// Last handle that belongs to this characteristic (its descriptors end here).
    public var endHandle: UInt16
    /// The Client Characteristic Configuration descriptor, when it has one.
    public var cccdHandle: UInt16?

    public init(
        uuid: BluetoothUUID, declarationHandle: UInt16, valueHandle: UInt16,
        properties: GATTCharacteristicProperties, endHandle: UInt16, cccdHandle: UInt16? = nil
    ) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.properties = properties
        self.endHandle = endHandle
        self.cccdHandle = cccdHandle
    }

    public var description: String {
        uuid.description + NumberText.format(" decl 0x%x value 0x%x", Int64(declarationHandle), Int64(valueHandle))
            + (cccdHandle.map { NumberText.format(" cccd 0x%x", Int64($0)) } ?? "")
    }
}

/// A primary service found by discovery, with its characteristics.
public struct GATTService: Hashable, Sendable, CustomStringConvertible {
    public var uuid: BluetoothUUID
    public var range: ATTHandleRange
    public var characteristics: [GATTCharacteristic]

    public init(uuid: BluetoothUUID, range: ATTHandleRange, characteristics: [GATTCharacteristic] = []) {
        self.uuid = uuid
        self.range = range
        self.characteristics = characteristics
    }

    public func characteristic(_ uuid: BluetoothUUID) -> GATTCharacteristic? {
        characteristics.first { $0.uuid == uuid }
    }

    public var description: String { "\(uuid) \(range) [\(characteristics.count) characteristics]" }
}

/// What the GATT client reports to its owner.
public enum GATTClientEvent {
    /// A watched service is available (at connect or after Service Changed).
    case serviceAdded(GATTService)
    /// A known service went away (Service Changed covering it). Its
    /// notification routes are already dropped.
    case serviceRemoved(GATTService)
    /// The first discovery finished (watched services absent at connect are
    /// normal: they may appear later through Service Changed).
    case ready
    /// A discovery failed; the services it was looking for stay unknown.
    case discoveryFailed(GATTError)
    /// The bearer closed.
    case closed(ATTBearerError)
}
