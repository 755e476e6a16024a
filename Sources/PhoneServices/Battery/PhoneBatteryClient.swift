import ATTCodec
import GATT
import HAL

/// The phone's battery from its Battery Service (0x180F): an iPhone
/// publishes it, and many Android phones too. Reads Battery Level (0x2A19)
/// and subscribes to its notifications. A phone without it, or one that
/// refuses the read or the subscription (some do until the link is
/// encrypted), is fine: the level stays unknown and nothing is retried.
/// A value past 100 is not a percentage and is dropped.
public final class PhoneBatteryClient {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    deinit { lifetime.end() }

    public let client: GATTClient
    /// The level the phone reported last (nil: unknown).
    public private(set) var level: Int?
    /// Called when the level changes (nil: the service went away).
    public var levelHandler: ((Int?) -> Void)?
    /// Values that were not percentages (logged by the session's owner).
    public private(set) var malformedValues = 0

    public init(client: GATTClient) { self.client = client }

    /// Starts using a discovered Battery Service.
    public func serviceAdded(_ service: GATTService) {
        guard service.uuid == .battery, let c = service.characteristic(.batteryLevel) else { return }
        if c.properties.contains(.read) {
            client.read(handle: c.valueHandle) { [lifetime, unowned(unsafe) self] result in
                guard !lifetime.isOver, case .success(let bytes) = result else { return }
                bytes.withUnsafeBytes { self.received($0) }
            }
        }
        if c.properties.contains(.notify) {
            client.subscribe(c, handler: { [lifetime, unowned(unsafe) self] value in if !lifetime.isOver { self.received(value) } }) { _ in }
        }
    }

    /// The service went (Service Changed, or the link closed).
    public func serviceRemoved() {
        guard level != nil else { return }
        level = nil
        levelHandler?(nil)
    }

    private func received(_ value: UnsafeRawBufferPointer) {
        guard value.count == 1, value[0] <= 100 else {
            malformedValues += 1
            return
        }
        let new = Int(value[0])
        guard new != level else { return }
        level = new
        levelHandler?(new)
    }
}
