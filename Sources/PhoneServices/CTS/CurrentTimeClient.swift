import GATT
import HAL
import Loop

/// The Current Time Service client: when the phone exposes CTS (0x1805), it
/// reads Current Time (0x2A2B), subscribes to its notifications and reads
/// Local Time Information (0x2A0F) when present. The watch then shows phone
/// time from `PhoneClock` without touching the system clock.
public final class CurrentTimeClient {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    deinit { lifetime.end() }

    public let client: GATTClient
    private let clock: TimerScheduling
    /// The latest phone time, anchored to the monotonic instant it arrived.
    public private(set) var phoneClock: PhoneClock?
    public private(set) var localTimeInformation: LocalTimeInformation?
    public private(set) var service: GATTService?
    /// Called on every new time (read or notification).
    public var timeHandler: ((PhoneClock) -> Void)?
    /// Called when a procedure fails (reads or the subscription).
    public var errorHandler: ((GATTError) -> Void)?

    public init(client: GATTClient, clock: TimerScheduling) {
        self.client = client
        self.clock = clock
    }

    /// Starts using a discovered Current Time Service.
    public func serviceAdded(_ service: GATTService) {
        guard service.uuid == .currentTimeService else { return }
        self.service = service
        if let lti = service.characteristic(.localTimeInformation), lti.properties.contains(.read) {
            client.read(handle: lti.valueHandle) { [lifetime, unowned(unsafe) self] result in
                guard !lifetime.isOver else { return }
                switch result {
                case .success(let bytes): self.localTimeInformation = LocalTimeInformation(bytes)
                case .failure(let e): self.errorHandler?(e)
                }
            }
        }
        guard let ct = service.characteristic(.currentTime) else { return }
        if ct.properties.contains(.read) {
            client.read(handle: ct.valueHandle) { [lifetime, unowned(unsafe) self] result in
                guard !lifetime.isOver else { return }
                switch result {
                case .success(let bytes): bytes.withUnsafeBytes { self.received($0) }
                case .failure(let e): self.errorHandler?(e)
                }
            }
        }
        if ct.properties.contains(.notify) {
            client.subscribe(ct, handler: { [lifetime, unowned(unsafe) self] value in if !lifetime.isOver { self.received(value) } }) {
                [lifetime, unowned(unsafe) self] error in
                if let error, !lifetime.isOver { self.errorHandler?(error) }
            }
        }
    }

    /// Stops using it (Service Changed removed it, or the link closed).
    public func serviceRemoved() {
        service = nil
    }

    private func received(_ value: UnsafeRawBufferPointer) {
        guard let t = CurrentTime(value) else { return }
        let c = PhoneClock(time: t, receivedAt: clock.now, localTimeInformation: localTimeInformation)
        phoneClock = c
        timeHandler?(c)
    }
}
