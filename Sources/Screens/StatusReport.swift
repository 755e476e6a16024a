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

    public init(phone: Phone, phoneBattery: Int? = nil, hasBattery: Bool = false, watchBattery: BatteryReading? = nil,
                time: TimeSource = .unknown) {
        self.phone = phone
        self.phoneBattery = phoneBattery
        self.hasBattery = hasBattery
        self.watchBattery = watchBattery
        self.time = time
    }

    /// The lines the screen shows, in order (at most `maxLines`).
    public static let maxLines = 5
}
