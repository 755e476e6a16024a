import HAL

/// What the status screen says (the watch menu's "Status"): the phone on
/// the link and which kind, both batteries, and where the time comes from.
/// The model fills it; the renderer words it.
public struct StatusReport: Sendable, Equatable {
    public enum Phone: Sendable, Equatable {
        case bluetoothOff
        /// Advertising: the watch waits for its phone.
        case waiting
        case connected(PhoneKind)
    }

    /// The kind of phone on the link, as far as the watch can tell.
    public enum PhoneKind: Sendable, Equatable {
        /// Connected, but neither ANCS nor Gadgetbridge has spoken yet.
        case unknown
        /// ANCS is subscribed.
        case iPhone
        /// Gadgetbridge spoke on the UART.
        case android
    }

    public enum TimeSource: Sendable, Equatable {
        case phone, system, unknown
    }

    public var phone: Phone
    /// The phone's battery in percent (its Battery Service), when known.
    public var phoneBattery: Int?
    /// The board file names a battery.
    public var hasBattery: Bool
    /// The watch's battery at its last reading.
    public var watchBattery: BatteryReading?
    public var time: TimeSource
    /// Why notifications may not arrive, each cause the watch can tell.
    /// The phone offers no ANCS: an iPhone with Share System Notifications off.
    public var notSharing = false
    /// The phone stopped answering the watch's liveness probes (`!`).
    public var notAnswering = false
    /// The phone forgot the watch's bond: pair again.
    public var bondLost = false
    /// Notifications that arrived Silent in a row (a Focus, most likely).
    public var silentInARow = 0

    var isConnected: Bool {
        if case .connected = phone { return true }
        return false
    }

    /// A cause the wearer should act on (the watch menu opens on Status).
    public var needsAttention: Bool { notSharing || notAnswering || bondLost }

    public init(phone: Phone, phoneBattery: Int? = nil, hasBattery: Bool = false, watchBattery: BatteryReading? = nil,
                time: TimeSource = .unknown) {
        self.phone = phone
        self.phoneBattery = phoneBattery
        self.hasBattery = hasBattery
        self.watchBattery = watchBattery
        self.time = time
    }

}
